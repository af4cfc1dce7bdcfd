/**
 * Slash commands (`features.slash_commands` of an app's manifest), invoked by a member from the admin surface:
 * POST {base}/admin/act/command `{"command", "text"?, "channel"?, "user"?, "app_id"?, "team_id"?}`. The app
 * gets the platform's fields (form-encoded to the command's URL, or a `slash_commands` envelope), with a
 * trigger_id and a response_url; its immediate answer is shown as the platform shows it (an ephemeral message
 * to the member by default, `response_type: "in_channel"` for everyone), and an app that does not answer in
 * 3 seconds gets the member the platform's failure (`operation_timeout`, `dispatch_failed`, …), recorded.
 */
import { z } from "zod";
import { WebApiError } from "../core/errors";
import { verificationToken } from "../events/event-signing";
import type { RequestContext } from "../types";
import type { Channel, Workspace } from "../workspace/workspace";
import { slashCommandsOf, type SlashCommand } from "./app-config";
import { applyMessageAnswer, MessageAnswer } from "./message-answers";
import { adminWorkspace, actingMember, installationIn, memberConversation, mintTrigger, requireApp } from "./parts";
import { mintResponseUrl } from "./response-urls";
import { answerCaller, answerObject, interact, settle } from "./run";
import { memberAt, memberIndexOf } from "../workspace/members";
import { findChannel } from "../workspace/channels";
import { isDirect } from "../workspace/membership";

export const CommandBody = z.strictObject({
  command: z.string().regex(/^\/[\w-]+$/, "a slash command, such as /ticket"),
  text: z.string().max(4000).optional(),
  channel: z.string().optional(),
  user: z.string().optional(),
  app_id: z.string().optional(),
  team_id: z.string().optional(),
});

/** The installed app (of `appId`, when given) that declares the command. */
function commandOwner(ctx: RequestContext, ws: Workspace, name: string, appId: string | undefined) {
  for (const installation of ctx.state.installations.values()) {
    if (installation.teamId !== ws.team.id || installation.uninstalled || (appId !== undefined && installation.appId !== appId)) continue;
    const app = ctx.state.apps.get(installation.appId);
    const command = app ? slashCommandsOf(app).find((c) => c.command === name) : undefined;
    if (app && command) return { app, installation, command };
  }
  if (appId !== undefined) installationIn(ctx.state, ws, requireApp(ctx.state, appId).id);
  throw new WebApiError("command_not_found", { message: `No app installed here declares ${name}.` }, { status: 404 });
}

/**
 * The text as the app receives it. The member's client writes a mention as `<@U…>` and a channel as `<#C…>`:
 * with `should_escape` the app gets them with their names (`<@U…|name>`), without it as plain `@name` and `#name`.
 */
function escapedText(ctx: RequestContext, ws: Workspace, command: SlashCommand, text: string): string {
  return text
    .replace(/<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g, (whole, id: string) => {
      const index = memberIndexOf(ws, id);
      if (index < 0) return whole;
      const name = String(memberAt(ws, index, ctx.baseUrl).name ?? id);
      return command.should_escape ? `<@${id}|${name}>` : `@${name}`;
    })
    .replace(/<#([CGD][A-Z0-9]+)(?:\|[^>]*)?>/g, (whole, id: string) => {
      const channel = findChannel(ws, id);
      if (!channel) return whole;
      return command.should_escape ? `<#${id}|${channel.name}>` : `#${channel.name}`;
    });
}

const channelName = (channel: Channel) => (isDirect(channel) ? "directmessage" : channel.name);

export async function invokeCommand(ctx: RequestContext, body: z.infer<typeof CommandBody>): Promise<Response> {
  const ws = adminWorkspace(ctx.state, body.team_id);
  const user = actingMember(ws, body.user);
  const channel = memberConversation(ctx.state, ws, user, body.channel);
  const { app, installation, command } = commandOwner(ctx, ws, body.command, body.app_id);
  const triggerId = mintTrigger(ctx, ws, app.id, user);
  const responseUrl = mintResponseUrl(ctx, { kind: "commands", installation, channelId: channel.id, userId: user });
  const payload: Record<string, string> = {
    token: verificationToken(app),
    team_id: ws.team.id,
    team_domain: ws.team.domain,
    channel_id: channel.id,
    channel_name: channelName(channel),
    user_id: user,
    user_name: String(memberAt(ws, memberIndexOf(ws, user), ctx.baseUrl).name ?? ""),
    command: command.command,
    text: escapedText(ctx, ws, command, body.text ?? ""),
    api_app_id: app.id,
    is_enterprise_install: "false",
    response_url: responseUrl,
    trigger_id: triggerId,
  };
  const { exchanged, entry } = await interact(ctx, {
    app,
    installation,
    type: "slash_commands",
    user,
    channel: channel.id,
    url: command.url,
    envelope: { type: "slash_commands", payload },
    acceptsResponse: true,
  });
  const extra = { trigger_id: triggerId, response_url: responseUrl };
  if (exchanged.failure) return answerCaller(entry, extra);
  // A text answer is shown as it is; an object as a message; an empty one shows nothing.
  const answer = typeof exchanged.answer === "string" ? { text: exchanged.answer } : answerObject(exchanged.answer);
  const message = answer ? MessageAnswer.safeParse(answer) : undefined;
  if (!answer || Object.keys(answer).length === 0) settle(entry, "ok");
  else if (!message?.success) settle(entry, "invalid_answer");
  else {
    try {
      const applied = applyMessageAnswer(ctx, ws, { installation, channel, userId: user }, message.data);
      settle(entry, applied.outcome, applied.message ? { message: applied.message } : undefined);
    } catch (error) {
      if (!(error instanceof WebApiError)) throw error;
      settle(entry, error.code);
    }
  }
  return answerCaller(entry, extra);
}
