/**
 * The Events API, as far as the spec goes (spec 6, docs/spec/web-api.md): `app_mention` events, sent to the
 * request URL an app subscribed (manifest settings.event_subscriptions) by deliveries.ts, signed with the
 * app's signing secret the platform's way, and retried when the app does not acknowledge in time.
 */
import { z } from "zod";
import { parseAdminBody, requireTargetInstallation } from "../admin/admin-target";
import { WebApiError } from "../core/errors";
import { workspaceOf } from "../store";
import { describeVerification, eventRequestUrlOf, isVerifiedRequestUrl } from "./url-verification";
import type { Installation, RequestContext } from "../types";
import { generalChannel, resolveChannel } from "../workspace/channels";
import { installingUserId, memberIndexOf } from "../workspace/members";
import { appendMessage } from "../workspace/messages";
import type { Channel, Message, Workspace } from "../workspace/workspace";
import { emitEvent } from "./emit";
import { dispatchMessagePosted } from "./workspace-events";
import { deliveryRouteOf, usesSocketMode } from "./routing";
import type { EventDelivery } from "./types";
import { touch } from "../core/change-tracking";

const MENTION = /<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g;

/**
 * Events reach an installation while it is installed: with token rotation, revoking a single token
 * leaves the installation (and its events) in place (spec 6); without rotation, auth.revoke revokes the
 * authorization, which the emulator records as an uninstall.
 */
function receivesEvents(installation: Installation): boolean {
  return !installation.uninstalled;
}

/** The bot user ids a message text mentions (`<@U…>` or `<@U…|name>`). */
function mentionedUserIds(text: string): Set<string> {
  return new Set([...text.matchAll(MENTION)].map((m) => m[1] as string));
}

/**
 * Sends `app_mention` to every installed app whose bot user the message mentions, that was granted
 * app_mentions:read, subscribes to app_mention, and is a member of the channel: the platform sends no
 * event to an app mentioned in a conversation it is not part of (posting there with chat:write.public
 * does not make it a member). Returns at once; deliveries run in the background.
 */
export function dispatchMentions(ctx: RequestContext, ws: Workspace, channel: Channel, message: Message): EventDelivery[] {
  const mentioned = mentionedUserIds(message.text);
  if (mentioned.size === 0) return [];
  const { state } = ctx;
  const started: EventDelivery[] = [];
  for (const installation of state.installations.values()) {
    if (installation.teamId !== ws.team.id) continue;
    if (!mentioned.has(installation.botUserId) || !installation.joinedChannels.has(channel.id)) continue;
    const app = state.apps.get(installation.appId);
    if (!app || !receivesEvents(installation)) continue;
    if (!installation.botScopes.includes("app_mentions:read") || !app.botEvents.includes("app_mention")) continue;
    const route = deliveryRouteOf(app, ctx.options);
    if (!route) continue;
    const event: Record<string, unknown> = {
      type: "app_mention",
      user: message.user,
      text: message.text,
      ts: message.ts,
      team: ws.team.id,
      channel: channel.id,
      event_ts: message.ts,
    };
    if (message.bot_id) event.bot_id = message.bot_id;
    if (message.thread_ts) event.thread_ts = message.thread_ts;
    if (message.blocks) event.blocks = message.blocks;
    const delivery = emitEvent(ctx, ws, { app, installation, route }, event);
    started.push(delivery);
  }
  return started;
}

/** The body of POST {base}/admin/mention (snake_case, like the rest of the admin surface). */
export const MentionAppBody = z
  .object({
    /** The installation to mention; or `app_id` (that app's installation in the workspace `team_id`, default the first). */
    installation_id: z.string().optional(),
    app_id: z.string().optional(),
    team_id: z.string().optional(),
    /** Channel id or name; default #general. */
    channel: z.string().optional(),
    /** Text after the mention; default a greeting. */
    text: z.string().max(40_000).optional(),
    /** The member who writes the message; default the workspace's primary owner. */
    user: z.string().optional(),
  })
  .refine((b) => b.installation_id !== undefined || b.app_id !== undefined, "give installation_id or app_id");

export interface MentionAppResult {
  channel: string;
  ts: string;
  text: string;
  /** Event ids of the deliveries started (none when the app cannot receive app_mention). */
  event_ids: string[];
}

/**
 * The admin surface's "mention the app": a member invites the app to the channel (as `/invite @app`
 * does; the bot joins it) and posts `<@bot> text` there, as a person would in the client, and the
 * app_mention goes out like any other. An app whose request URL failed verification would get no event,
 * so nothing is posted: the answer is 409 request_url_not_verified, with the verification, until it is
 * verified again (POST /admin/apps/{app_id}/verify).
 */
export async function mentionApp(ctx: RequestContext, body: unknown): Promise<MentionAppResult> {
  const request = parseAdminBody(MentionAppBody, body);
  const { state } = ctx;
  const installation = requireTargetInstallation(state, request);
  const ws = workspaceOf(state, installation.teamId);
  const channel = request.channel ? resolveChannel(ws, request.channel) : generalChannel(ws);
  if (!channel) throw new WebApiError("channel_not_found", {}, { status: 404 });
  if (channel.isArchived) throw new WebApiError("is_archived", {}, { status: 409 });
  const user = request.user ?? installingUserId(ws);
  if (memberIndexOf(ws, user) < 0) throw new WebApiError("user_not_found", {}, { status: 404 });
  const app = state.apps.get(installation.appId);
  // Over Socket Mode there is no request URL to have verified.
  const url = app && !usesSocketMode(app) ? eventRequestUrlOf(app, ctx.options) : undefined;
  if (app && url && !(await isVerifiedRequestUrl(app, url))) {
    throw new WebApiError(
      "request_url_not_verified",
      { app_id: app.id, request_url_verification: describeVerification(app.requestUrlVerification) },
      { status: 409 },
    );
  }

  installation.joinedChannels.add(channel.id);
  touch(installation);
  const mention = `<@${installation.botUserId}>`;
  const rest = request.text?.trim() || "hello from the emulator";
  const text = rest.includes(mention) ? rest : `${mention} ${rest}`;
  const message = appendMessage(ws, channel.id, { text, user, via: "admin" }, ctx.clock.now());
  const deliveries = dispatchMentions(ctx, ws, channel, message);
  // The same post is a message too, for the apps that subscribe to the conversation's messages.
  dispatchMessagePosted(ctx, ws, channel, message);
  return { channel: channel.id, ts: message.ts, text, event_ids: deliveries.map((d) => d.eventId) };
}
