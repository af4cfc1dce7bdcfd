import { WebApiError } from "../../core/errors";
import { resolvePage } from "../../pagination/pagination";
import type { Caller, EmulatorState, MethodContext, MethodDefinition } from "../../types";
import { memberCount, memberIdAt, memberIndexOf } from "../../workspace/members";
import { channelMessages, findMessage } from "../../workspace/messages";
import type { Channel, Message, Workspace } from "../../workspace/workspace";
import { wireMessage } from "./chat";

/** The platform's documented default page size for conversations.list. */
export const CONVERSATIONS_LIST_DEFAULT_LIMIT = 100;

const CONVERSATIONS_STREAM = 202;
const HISTORY_STREAM = 203;
const REPLIES_STREAM = 204;
const MEMBERS_STREAM = 205;
/** The platform's documented defaults: 100 messages, 1000 replies, 100 members a page. */
const HISTORY_DEFAULT_LIMIT = 100;
const REPLIES_DEFAULT_LIMIT = 1000;
const MEMBERS_DEFAULT_LIMIT = 100;
const CONVERSATION_TYPES = new Set(["public_channel", "private_channel", "mpim", "im"]);

/** Whether the caller's bot user (or, for a user token, the installing user) is in the channel. */
function isMember(caller: Caller | null, channel: Channel): boolean {
  if (!caller) return false;
  if (caller.token.family === "bot") return caller.installation.joinedChannels.has(channel.id);
  // Every member is in #general; the emulator does not track people's other memberships.
  return channel.isGeneral;
}

function joinedBots(state: EmulatorState, channel: Channel): number {
  let count = 0;
  for (const installation of state.installations.values()) {
    if (!installation.uninstalled && installation.joinedChannels.has(channel.id)) count++;
  }
  return count;
}

/** A channel as conversations.* return it (the platform's conversation object, public channels only). */
function conversationRecord(state: EmulatorState, ws: Workspace, channel: Channel, caller: Caller | null): Record<string, unknown> {
  return {
    id: channel.id,
    name: channel.name,
    is_channel: true,
    is_group: false,
    is_im: false,
    is_mpim: false,
    is_private: false,
    created: channel.created,
    is_archived: channel.isArchived,
    is_general: channel.isGeneral,
    unlinked: 0,
    name_normalized: channel.name,
    is_shared: false,
    is_org_shared: false,
    is_ext_shared: false,
    is_pending_ext_shared: false,
    pending_shared: [],
    context_team_id: ws.team.id,
    updated: channel.created * 1000,
    parent_conversation: null,
    creator: channel.creator,
    is_member: isMember(caller, channel),
    topic: { value: channel.topic, creator: channel.topic ? channel.creator : "", last_set: channel.topic ? channel.created : 0 },
    purpose: { value: channel.purpose, creator: channel.creator, last_set: channel.created },
    previous_names: [],
    num_members: channel.baseMembers + joinedBots(state, channel),
  };
}

function requireChannel(ws: Workspace, id: string | undefined): Channel {
  const channel = id ? ws.channelsById.get(id) : undefined;
  if (!channel) throw new WebApiError("channel_not_found");
  return channel;
}

/** A message ts as the platform writes it (`1700000000.000100`); `oldest` and `latest` may also be whole seconds. */
const TS = /^\d{1,12}(\.\d{1,6})?$/;
const tsValue = (ts: string) => Number(ts);

/**
 * The time window of conversations.history and .replies: `oldest` and `latest` bound it (exclusive
 * unless `inclusive`), and malformed bounds are invalid_ts_oldest / invalid_ts_latest.
 */
function timeWindow(params: Record<string, string>): (message: Message) => boolean {
  const { oldest, latest } = params;
  if (oldest !== undefined && oldest !== "" && !TS.test(oldest)) throw new WebApiError("invalid_ts_oldest");
  if (latest !== undefined && latest !== "" && !TS.test(latest)) throw new WebApiError("invalid_ts_latest");
  const inclusive = params.inclusive === "true" || params.inclusive === "1";
  const low = oldest ? tsValue(oldest) : -Infinity;
  const high = latest ? tsValue(latest) : Infinity;
  return (m) => {
    const t = tsValue(m.ts);
    return inclusive ? t >= low && t <= high : t > low && t < high;
  };
}

/** A channel a history method may read: a bot must be in it, as on the platform. */
function readableChannel(ctx: MethodContext): Channel {
  const channel = requireChannel(ctx.ws, ctx.params.channel);
  if (ctx.caller?.token.family === "bot" && !isMember(ctx.caller, channel)) throw new WebApiError("not_in_channel");
  return channel;
}

/** One page of messages, by ts, with the platform's has_more beside next_cursor. */
function messagePage(ctx: MethodContext, method: string, stream: number, list: Message[], defaultLimit: number) {
  const page = resolvePage({
    ws: ctx.ws,
    scope: { method, kind: "message" },
    stream,
    total: list.length,
    params: ctx.params,
    defaultLimit,
    idAt: (index) => (list[index] as Message).ts,
    indexOf: (ts) => list.findIndex((m) => m.ts === ts),
    nowMs: ctx.clock.now(),
    cursorTtlSeconds: ctx.options.cursorTtlSeconds,
  });
  return {
    messages: list.slice(page.start, page.end).map(wireMessage),
    has_more: page.nextCursor !== "",
    response_metadata: { next_cursor: page.nextCursor },
  };
}

/** The member ids of a channel: its generated members (the first of users.list), then the bots that joined it. */
function channelMemberIds(ctx: MethodContext, channel: Channel): { total: number; idAt: (i: number) => string; indexOf: (id: string) => number } {
  const { ws, state } = ctx;
  const base = Math.min(channel.isGeneral ? memberCount(ws) : channel.baseMembers, ws.userCount);
  const bots = [...state.installations.values()]
    .filter((i) => !i.uninstalled && i.teamId === ws.team.id && i.joinedChannels.has(channel.id))
    .map((i) => i.botUserId);
  const extra = channel.isGeneral ? [] : bots;
  const total = channel.isGeneral ? memberCount(ws) : base + extra.length;
  return {
    total,
    idAt: (i) => (i < base || channel.isGeneral ? memberIdAt(ws, i) : (extra[i - base] as string)),
    indexOf: (id) => {
      const index = memberIndexOf(ws, id);
      if (index >= 0 && (channel.isGeneral || index < base)) return index;
      const bot = extra.indexOf(id);
      return bot >= 0 ? base + bot : -1;
    },
  };
}

export const conversationsMethods: MethodDefinition[] = [
  {
    name: "conversations.list",
    pages: "channels",
    tier: 2,
    auth: "token",
    scopes: { bot: ["channels:read", "groups:read", "mpim:read", "im:read"], user: ["channels:read", "groups:read", "mpim:read", "im:read"] },
    handler({ params, ws, state, clock, options, caller }) {
      const types = (params.types || "public_channel")
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean);
      if (types.some((t) => !CONVERSATION_TYPES.has(t))) throw new WebApiError("invalid_types");
      // The workspace has public channels only, so asking for other types lists nothing.
      const channels = types.includes("public_channel") ? ws.channels : [];
      const page = resolvePage({
        ws,
        scope: { method: "conversations.list", kind: "channel" },
        stream: CONVERSATIONS_STREAM,
        total: channels.length,
        params,
        defaultLimit: CONVERSATIONS_LIST_DEFAULT_LIMIT,
        idAt: (index) => (channels[index] as Channel).id,
        indexOf: (id) => {
          const channel = ws.channelsById.get(id);
          return channel && channels.length > 0 ? channel.index : -1;
        },
        nowMs: clock.now(),
        cursorTtlSeconds: options.cursorTtlSeconds,
      });
      const excludeArchived = params.exclude_archived === "true" || params.exclude_archived === "1";
      // Archived channels are dropped from the page after it is cut, as on the platform: such a page
      // can come out short, or even empty, while next_cursor still points further.
      const listed = channels
        .slice(page.start, page.end)
        .filter((c) => !(excludeArchived && c.isArchived))
        .map((c) => conversationRecord(state, ws, c, caller));
      return { channels: listed, response_metadata: { next_cursor: page.nextCursor } };
    },
  },
  {
    name: "conversations.join",
    tier: 3,
    auth: "token",
    json: true,
    scopes: { bot: ["channels:join"], user: ["channels:write"] },
    handler({ params, ws, state, caller }) {
      const channel = requireChannel(ws, params.channel);
      if (channel.isArchived) throw new WebApiError("is_archived");
      const already = isMember(caller, channel);
      if (caller && caller.token.family === "bot") caller.installation.joinedChannels.add(channel.id);
      const record = { ...conversationRecord(state, ws, channel, caller), is_member: true };
      return already ? { channel: record, warning: "already_in_channel", response_metadata: { warnings: ["already_in_channel"] } } : { channel: record };
    },
  },
  {
    name: "conversations.info",
    tier: 3,
    auth: "token",
    scopes: { bot: ["channels:read", "groups:read", "mpim:read", "im:read"], user: ["channels:read", "groups:read", "mpim:read", "im:read"] },
    handler({ params, ws, state, caller }) {
      const channel = requireChannel(ws, params.channel);
      const record = conversationRecord(state, ws, channel, caller);
      if (!(params.include_num_members === "true" || params.include_num_members === "1")) delete record.num_members;
      if (params.include_locale === "true" || params.include_locale === "1") record.locale = "en-US";
      return { channel: record };
    },
  },
  {
    name: "conversations.members",
    pages: "members",
    tier: 4,
    auth: "token",
    scopes: { bot: ["channels:read", "groups:read", "mpim:read", "im:read"], user: ["channels:read", "groups:read", "mpim:read", "im:read"] },
    handler(ctx) {
      const channel = requireChannel(ctx.ws, ctx.params.channel);
      const members = channelMemberIds(ctx, channel);
      const page = resolvePage({
        ws: ctx.ws,
        scope: { method: `conversations.members:${channel.id}`, kind: "user" },
        stream: MEMBERS_STREAM,
        total: members.total,
        params: ctx.params,
        defaultLimit: MEMBERS_DEFAULT_LIMIT,
        idAt: members.idAt,
        indexOf: members.indexOf,
        nowMs: ctx.clock.now(),
        cursorTtlSeconds: ctx.options.cursorTtlSeconds,
      });
      const ids: string[] = [];
      for (let i = page.start; i < page.end; i++) ids.push(members.idAt(i));
      return { members: ids, response_metadata: { next_cursor: page.nextCursor } };
    },
  },
  {
    name: "conversations.history",
    pages: "messages",
    tier: 3,
    auth: "token",
    scopes: {
      bot: ["channels:history", "groups:history", "mpim:history", "im:history"],
      user: ["channels:history", "groups:history", "mpim:history", "im:history"],
    },
    handler(ctx) {
      const channel = readableChannel(ctx);
      const inWindow = timeWindow(ctx.params);
      // Newest first; thread replies stay in their thread.
      const list = channelMessages(ctx.ws, channel.id)
        .filter((m) => (m.thread_ts === undefined || m.thread_ts === m.ts) && inWindow(m))
        .reverse();
      return { ...messagePage(ctx, `conversations.history:${channel.id}`, HISTORY_STREAM, list, HISTORY_DEFAULT_LIMIT), pin_count: 0 };
    },
  },
  {
    name: "conversations.replies",
    pages: "messages",
    tier: 3,
    auth: "token",
    scopes: {
      bot: ["channels:history", "groups:history", "mpim:history", "im:history"],
      user: ["channels:history", "groups:history", "mpim:history", "im:history"],
    },
    handler(ctx) {
      const channel = readableChannel(ctx);
      const parent = ctx.params.ts ? findMessage(ctx.ws, channel.id, ctx.params.ts) : undefined;
      if (!parent) throw new WebApiError("thread_not_found");
      const root = parent.thread_ts ?? parent.ts;
      const inWindow = timeWindow(ctx.params);
      // The parent first, then its replies oldest first; the window bounds the replies.
      const thread = channelMessages(ctx.ws, channel.id).filter((m) => m.ts === root || (m.thread_ts === root && inWindow(m)));
      return messagePage(ctx, `conversations.replies:${channel.id}:${root}`, REPLIES_STREAM, thread, REPLIES_DEFAULT_LIMIT);
    },
  },
];
