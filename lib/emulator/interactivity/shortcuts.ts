/**
 * Shortcuts (`features.shortcuts` of an app's manifest), run by a member from the admin surface:
 * POST {base}/admin/act/shortcut `{"callback_id", "app_id"?, "channel"+"ts" (a message shortcut), "user"?, "team_id"?}`.
 * A global shortcut sends `shortcut`; a message shortcut sends `message_action` with the message, its
 * conversation and a response_url. Both carry a trigger_id.
 */
import { z } from "zod";
import { WebApiError } from "../core/errors";
import type { RequestContext } from "../types";
import { wireMessage } from "../web-api/methods/chat";
import { findMessage } from "../workspace/messages";
import type { Workspace } from "../workspace/workspace";
import { interactivityUrlOf, shortcutsOf } from "./app-config";
import { adminWorkspace, actingMember, actionTs, channelPart, commonPart, memberConversation, mintTrigger } from "./parts";
import { mintResponseUrl } from "./response-urls";
import { answerCaller, interact } from "./run";

export const ShortcutBody = z.strictObject({
  callback_id: z.string().min(1),
  app_id: z.string().optional(),
  channel: z.string().optional(),
  ts: z.string().optional(),
  user: z.string().optional(),
  team_id: z.string().optional(),
});

function shortcutOwner(ctx: RequestContext, ws: Workspace, callbackId: string, appId: string | undefined) {
  for (const installation of ctx.state.installations.values()) {
    if (installation.teamId !== ws.team.id || installation.uninstalled || (appId !== undefined && installation.appId !== appId)) continue;
    const app = ctx.state.apps.get(installation.appId);
    const shortcut = app ? shortcutsOf(app).find((s) => s.callback_id === callbackId) : undefined;
    if (app && shortcut) return { app, installation, shortcut };
  }
  throw new WebApiError("shortcut_not_found", { message: `No app installed here declares a shortcut with callback_id ${callbackId}.` }, { status: 404 });
}

export async function runShortcut(ctx: RequestContext, body: z.infer<typeof ShortcutBody>): Promise<Response> {
  const ws = adminWorkspace(ctx.state, body.team_id);
  const user = actingMember(ws, body.user);
  const { app, installation, shortcut } = shortcutOwner(ctx, ws, body.callback_id, body.app_id);
  const triggerId = mintTrigger(ctx, ws, app.id, user);
  const common = { ...commonPart(ctx, ws, app, user), callback_id: shortcut.callback_id, trigger_id: triggerId, action_ts: actionTs(ctx.clock.now()) };
  if (shortcut.type === "global") {
    const { entry } = await interact(ctx, {
      app,
      installation,
      type: "shortcut",
      user,
      url: interactivityUrlOf(app),
      envelope: { type: "interactive", payload: { type: "shortcut", ...common } },
      acceptsResponse: false,
    });
    return answerCaller(entry, { trigger_id: triggerId });
  }
  if (body.channel === undefined || body.ts === undefined) {
    throw new WebApiError("invalid_arguments", { detail: "a message shortcut runs on a message: give channel and ts" }, { status: 400 });
  }
  const channel = memberConversation(ctx.state, ws, user, body.channel);
  const message = findMessage(ws, channel.id, body.ts);
  if (!message) throw new WebApiError("message_not_found", {}, { status: 404 });
  // The app may replace or delete the message through the response_url only when it is its own.
  const own = message.app_id === app.id;
  const responseUrl = mintResponseUrl(ctx, { kind: "actions", installation, channelId: channel.id, userId: user, ...(own ? { messageTs: message.ts } : {}) });
  const payload = {
    type: "message_action",
    ...common,
    channel: channelPart(channel),
    message_ts: message.ts,
    message: wireMessage(message),
    response_url: responseUrl,
  };
  const { entry } = await interact(ctx, {
    app,
    installation,
    type: "message_action",
    user,
    channel: channel.id,
    url: interactivityUrlOf(app),
    envelope: { type: "interactive", payload },
    acceptsResponse: false,
  });
  return answerCaller(entry, { trigger_id: triggerId, response_url: responseUrl });
}
