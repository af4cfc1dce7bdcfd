/**
 * The events that follow from what happens in a workspace (a message posted, edited or deleted, a reaction, a
 * join or leave, a member opening the App Home), sent to each installed app that subscribes to them (its
 * manifest's bot events), was granted the scope they need, and, for a conversation's events, whose bot user
 * is a member of it: the platform sends no `message.channels` from a channel the bot is not in. An app's own
 * posts come back to it (with `bot_id`), as on the platform: the app filters them.
 */
import { createHash } from "node:crypto";
import { workspaceOf } from "../store";
import type { Installation, RequestContext } from "../types";
import { announceChange } from "../workspace/changes";
import { conversationType } from "../workspace/membership";
import type { Channel, ConversationType, Message, Workspace } from "../workspace/workspace";
import { needOf } from "./event-catalog";
import { send, targets, type Target } from "./targets";
import type { EventDelivery } from "./types";

/** An event's own ts (for changes that make no message): the clock's time, to the microsecond. */
export function eventTsAt(nowMs: number): string {
  return (nowMs / 1000).toFixed(6);
}

/** The subscription a conversation's messages come under (its scope: event-catalog.ts), and the `channel_type` they carry. */
const MESSAGE_KINDS: Record<ConversationType, { event: string; channelType: string }> = {
  public: { event: "message.channels", channelType: "channel" },
  private: { event: "message.groups", channelType: "group" },
  im: { event: "message.im", channelType: "im" },
  mpim: { event: "message.mpim", channelType: "mpim" },
};

/** The same id for the same message, whichever app and event carry it (uuid-shaped, as the clients make them). */
function clientMsgId(channel: Channel, message: Message): string {
  const h = createHash("sha256").update(`${channel.id}\0${message.ts}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A message as the `message` event carries it (and as `message_changed` carries the message). */
function messageFields(ws: Workspace, channel: Channel, message: Message): Record<string, unknown> {
  const fields: Record<string, unknown> = { type: "message", text: message.text, user: message.user, ts: message.ts, team: ws.team.id };
  if (message.bot_id) {
    fields.bot_id = message.bot_id;
    if (message.app_id) fields.app_id = message.app_id;
    if (!message.user) fields.subtype = "bot_message";
  } else if (message.user) {
    // A person's post from a client carries its client_msg_id.
    fields.client_msg_id = message.client_msg_id ?? clientMsgId(channel, message);
  }
  if (message.subtype) fields.subtype = message.subtype;
  if (message.blocks) fields.blocks = message.blocks;
  if (message.attachments) fields.attachments = message.attachments;
  if (message.files) fields.files = message.files;
  if (message.thread_ts) {
    fields.thread_ts = message.thread_ts;
    if (message.thread_ts !== message.ts) {
      const parent = ws.messages.get(channel.id)?.find((m) => m.ts === message.thread_ts);
      if (parent?.user) fields.parent_user_id = parent.user;
    } else if (message.reply_count !== undefined) {
      fields.reply_count = message.reply_count;
      fields.latest_reply = message.latest_reply;
      fields.reply_users = message.reply_users;
    }
  }
  if (message.edited) fields.edited = message.edited;
  return fields;
}

function messageTargets(ctx: RequestContext, ws: Workspace, channel: Channel): { found: Target[]; channelType: string } {
  const kind = MESSAGE_KINDS[conversationType(channel)];
  return { found: targets(ctx, ws, needOf(kind.event, channel)), channelType: kind.channelType };
}

/** A new message in a conversation. */
export function dispatchMessagePosted(ctx: RequestContext, ws: Workspace, channel: Channel, message: Message): EventDelivery[] {
  announceChange(ws, { type: "message_posted", channel: channel.id, message });
  const { found, channelType } = messageTargets(ctx, ws, channel);
  return send(ctx, ws, found, () => ({ ...messageFields(ws, channel, message), channel: channel.id, event_ts: message.ts, channel_type: channelType }));
}

/** An edit: `message_changed`, with the message as it is now and as it was. */
export function dispatchMessageChanged(
  ctx: RequestContext,
  ws: Workspace,
  channel: Channel,
  previous: Message,
  message: Message,
  eventTs: string,
): EventDelivery[] {
  announceChange(ws, { type: "message_changed", channel: channel.id, message });
  const { found, channelType } = messageTargets(ctx, ws, channel);
  return send(ctx, ws, found, () => ({
    type: "message",
    subtype: "message_changed",
    hidden: true,
    channel: channel.id,
    ts: eventTs,
    event_ts: eventTs,
    channel_type: channelType,
    message: messageFields(ws, channel, message),
    previous_message: messageFields(ws, channel, previous),
  }));
}

/** A deletion: `message_deleted`, with the message as it was. */
export function dispatchMessageDeleted(ctx: RequestContext, ws: Workspace, channel: Channel, previous: Message, eventTs: string): EventDelivery[] {
  announceChange(ws, { type: "message_deleted", channel: channel.id, ts: previous.ts });
  const { found, channelType } = messageTargets(ctx, ws, channel);
  return send(ctx, ws, found, () => ({
    type: "message",
    subtype: "message_deleted",
    hidden: true,
    channel: channel.id,
    ts: eventTs,
    deleted_ts: previous.ts,
    event_ts: eventTs,
    channel_type: channelType,
    previous_message: messageFields(ws, channel, previous),
  }));
}

/** `reaction_added` / `reaction_removed` on a message, for apps with reactions:read in its conversation. */
export function dispatchReaction(
  ctx: RequestContext,
  ws: Workspace,
  channel: Channel,
  message: Message,
  change: { user: string; reaction: string; added: boolean; eventTs: string },
): EventDelivery[] {
  announceChange(ws, { type: "reaction", channel: channel.id, ts: message.ts, user: change.user, reaction: change.reaction, added: change.added });
  const type = change.added ? "reaction_added" : "reaction_removed";
  const found = targets(ctx, ws, needOf(type, channel));
  return send(ctx, ws, found, () => ({
    type,
    user: change.user,
    reaction: change.reaction,
    item: { type: "message", channel: channel.id, ts: message.ts },
    ...(message.user ? { item_user: message.user } : {}),
    event_ts: change.eventTs,
  }));
}

/**
 * `member_joined_channel` / `member_left_channel`, for apps with channels:read (groups:read for a private
 * channel) whose bot is in the channel (a bot that joins gets its own join too).
 */
export function dispatchMembership(
  ctx: RequestContext,
  ws: Workspace,
  channel: Channel,
  change: { user: string; joined: boolean; inviter?: string; eventTs: string },
): EventDelivery[] {
  const type = change.joined ? "member_joined_channel" : "member_left_channel";
  const kind = conversationType(channel);
  if (kind === "im" || kind === "mpim") return [];
  const found = targets(ctx, ws, needOf(type, channel, kind === "private"));
  return send(ctx, ws, found, () => ({
    type,
    user: change.user,
    channel: channel.id,
    channel_type: kind === "private" ? "G" : "C",
    team: ws.team.id,
    ...(change.inviter && change.joined ? { inviter: change.inviter } : {}),
    event_ts: change.eventTs,
  }));
}

/** `app_home_opened`: a member opened the app's Home (or Messages) tab; `channel` is their DM with the app. */
export function dispatchAppHomeOpened(
  ctx: RequestContext,
  installation: Installation,
  opened: { user: string; channel: string; tab: "home" | "messages"; view?: unknown; eventTs: string },
): EventDelivery[] {
  const ws = workspaceOf(ctx.state, installation.teamId);
  const found = targets(ctx, ws, needOf("app_home_opened")).filter((t) => t.installation === installation);
  return send(ctx, ws, found, () => ({
    type: "app_home_opened",
    user: opened.user,
    channel: opened.channel,
    tab: opened.tab,
    ...(opened.view ? { view: opened.view } : {}),
    event_ts: opened.eventTs,
  }));
}
