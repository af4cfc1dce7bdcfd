import { WebApiError } from "../../core/errors";
import { dispatchMembership, eventTsAt } from "../../events/workspace-events";
import { dispatchChannelArchive, dispatchChannelCreated, dispatchChannelRename } from "../../events/workspace-change-events";
import { resolvePage } from "../../pagination/pagination";
import type { Caller, EmulatorState, MethodContext, MethodDefinition } from "../../types";
import { createConversation } from "../../workspace/channels";
import { openDirect } from "../../workspace/direct";
import { botByUserId, memberAt, memberIndexOf } from "../../workspace/members";
import {
  addMember,
  callerUserId,
  canSee,
  channelMembers,
  conversationType,
  installationOfBotUser,
  isDirect,
  isMember,
  removeMember,
} from "../../workspace/membership";
import { channelMessages, findMessage } from "../../workspace/messages";
import type { Channel, Message, Workspace } from "../../workspace/workspace";
import { wireMessage } from "./chat";
import { touch } from "../../core/change-tracking";

/** The platform's documented default page size for conversations.list and users.conversations. */
export const CONVERSATIONS_LIST_DEFAULT_LIMIT = 100;

const CONVERSATIONS_STREAM = 202;
const HISTORY_STREAM = 203;
const REPLIES_STREAM = 204;
const MEMBERS_STREAM = 205;
const USER_CONVERSATIONS_STREAM = 206;
/** The platform's documented defaults: 100 messages, 1000 replies, 100 members a page. */
const HISTORY_DEFAULT_LIMIT = 100;
const REPLIES_DEFAULT_LIMIT = 1000;
const MEMBERS_DEFAULT_LIMIT = 100;
const CONVERSATION_TYPES = new Set(["public_channel", "private_channel", "mpim", "im"]);
const TYPE_PARAM = { public: "public_channel", private: "private_channel", mpim: "mpim", im: "im" } as const;

/**
 * The scopes of the conversations.* methods that change a conversation, as the method catalog has them
 * (any one of them, for either kind of token).
 */
// In the order the platform names them in missing_scope's `needed`.
const READ_SCOPES = ["channels:read", "groups:read", "mpim:read", "im:read"];
const HISTORY_SCOPES = ["channels:history", "groups:history", "mpim:history", "im:history"];
// The scopes each method's page names per token (docs/reference/platform-methods): a bot manages channels
// with channels:manage, a person with channels:write; invites and topics also take their narrower scopes.
const USER_WRITE = ["channels:write", "groups:write", "im:write", "mpim:write"];
const MANAGE = { bot: ["channels:manage", "channels:write", "groups:write", "im:write", "mpim:write"], user: USER_WRITE };
const INVITE_SCOPES = ["channels:write.invites", "groups:write", "groups:write.invites", "im:write", "mpim:write"];
const INVITE = { bot: ["channels:manage", ...INVITE_SCOPES], user: ["channels:write", ...INVITE_SCOPES] };
const KICK = { bot: ["channels:manage", "groups:write"], user: ["channels:write", "groups:write"] };
const TOPIC_SCOPES = ["channels:write.topic", "groups:write", "groups:write.topic", "im:write", "im:write.topic", "mpim:write", "mpim:write.topic"];
const TOPIC = { bot: ["channels:manage", ...TOPIC_SCOPES], user: ["channels:write", ...TOPIC_SCOPES] };
const READ = { bot: READ_SCOPES, user: READ_SCOPES };
/**
 * The scope a listing of each non-public type takes beside the method's own any-of check: the platform
 * refuses types=im without im:read (and so on) rather than answering an empty list.
 */
const TYPE_READ_SCOPE: Record<string, string> = { private_channel: "groups:read", mpim: "mpim:read", im: "im:read" };
const HISTORY = { bot: HISTORY_SCOPES, user: HISTORY_SCOPES };

/** Topics and purposes: the platform's limit is 250 characters. */
const MAX_TOPIC_LENGTH = 250;
/** https://docs.slack.dev/reference/methods/conversations.create/: "lowercase letters, numbers, hyphens, and underscores, and must be 80 characters or less". */
const MAX_NAME_LENGTH = 80;
/** conversations.open: "Provide 1 to 8 user IDs" (https://docs.slack.dev/reference/methods/conversations.open/). */
const MAX_DIRECT_USERS = 8;
/** conversations.invite: "Up to 1000 users may be listed." */
const MAX_INVITES = 1000;

const isTrue = (value: string | undefined) => value === "true" || value === "1";
const nowSeconds = (ctx: MethodContext) => Math.floor(ctx.clock.now() / 1000);

function callerIsMember(state: EmulatorState, ws: Workspace, caller: Caller | null, channel: Channel): boolean {
  return caller !== null && isMember(state, ws, channel, callerUserId(caller));
}

function textSet(value: string, set: { creator: string; lastSet: number } | undefined, channel: Channel) {
  if (!value) return { value: "", creator: "", last_set: 0 };
  const { creator, lastSet } = set ?? { creator: channel.creator, lastSet: channel.created };
  return { value, creator, last_set: lastSet };
}

/** An im as the platform returns it: no name, the other person as `user`. */
function imRecord(ws: Workspace, channel: Channel, caller: Caller | null, baseUrl: string): Record<string, unknown> {
  const me = caller ? callerUserId(caller) : "";
  const people = (channel.directKey ?? "").split(",");
  const other = people.find((id) => id !== me) ?? me;
  const index = memberIndexOf(ws, other);
  return {
    id: channel.id,
    created: channel.created,
    is_archived: channel.isArchived,
    is_im: true,
    is_org_shared: false,
    context_team_id: ws.team.id,
    updated: channel.created * 1000,
    user: other,
    is_user_deleted: index >= 0 && memberAt(ws, index, baseUrl).deleted === true,
    priority: 0,
  };
}

/** A conversation as conversations.* return it (the platform's conversation object). */
export function conversationRecord(ctx: MethodContext, channel: Channel): Record<string, unknown> {
  const { state, ws, caller, baseUrl } = ctx;
  const type = conversationType(channel);
  if (type === "im") return imRecord(ws, channel, caller, baseUrl);
  return {
    id: channel.id,
    name: channel.name,
    is_channel: type !== "mpim",
    is_group: false,
    is_im: false,
    is_mpim: type === "mpim",
    is_private: type !== "public",
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
    is_member: callerIsMember(state, ws, caller, channel),
    topic: textSet(channel.topic, channel.topicSet, channel),
    purpose: textSet(channel.purpose, channel.purposeSet, channel),
    previous_names: channel.previousNames ?? [],
    num_members: channelMembers(state, ws, channel).total,
  };
}

/** A conversation the caller may see: anyone a public channel, only its members a private one, an im or an mpim. */
function requireChannel(ctx: MethodContext, id: string | undefined = ctx.params.channel): Channel {
  const channel = id ? ctx.ws.channelsById.get(id) : undefined;
  if (!channel || (ctx.caller && !canSee(ctx.state, ctx.ws, channel, callerUserId(ctx.caller)))) throw new WebApiError("channel_not_found");
  return channel;
}

/** A public or private channel: ims and mpims refuse the methods that manage channels. */
function requireManagedChannel(ctx: MethodContext): Channel {
  const channel = requireChannel(ctx);
  if (isDirect(channel)) throw new WebApiError("method_not_supported_for_channel_type");
  return channel;
}

function requireCaller(ctx: MethodContext): Caller {
  if (!ctx.caller) throw new WebApiError("not_authed");
  return ctx.caller;
}

/**
 * A channel name as conversations.create and .rename check it (https://docs.slack.dev/reference/methods/conversations.create/):
 * required, at most 80 characters, only lowercase letters, digits, hyphens and underscores, not only punctuation,
 * and no other conversation's, archived ones included.
 */
function validChannelName(ws: Workspace, raw: string | undefined, except?: Channel): string {
  const name = raw ?? "";
  if (name.trim() === "") throw new WebApiError("invalid_name_required");
  if (name.length > MAX_NAME_LENGTH) throw new WebApiError("invalid_name_maxlength");
  if (!/^[a-z0-9_-]+$/u.test(name)) throw new WebApiError(/^[\p{P}\p{S}\s]+$/u.test(name) ? "invalid_name_punctuation" : "invalid_name_specials");
  if (!/[a-z0-9]/.test(name)) throw new WebApiError("invalid_name_punctuation");
  if (ws.channels.some((c) => c !== except && !isDirect(c) && c.name === name)) throw new WebApiError("name_taken");
  return name;
}

/** The types parameter of conversations.list and users.conversations (public_channel when absent). */
function requestedTypes(params: Record<string, string>): Set<string> {
  const types = (params.types || "public_channel")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  if (types.some((t) => !CONVERSATION_TYPES.has(t))) throw new WebApiError("invalid_types");
  return new Set(types);
}

/** missing_scope naming the first read scope (READ_SCOPES' order) the requested types take and the token lacks. */
function requireTypeScopes(ctx: MethodContext, types: Set<string>): void {
  const caller = requireCaller(ctx);
  const needed = READ_SCOPES.find((scope) => [...types].some((t) => TYPE_READ_SCOPE[t] === scope) && !caller.scopes.includes(scope));
  if (needed) throw new WebApiError("missing_scope", { needed, provided: caller.scopes.join(",") });
}

/** A user id of the workspace, or user_not_found. */
function requireUser(ws: Workspace, userId: string | undefined, error = "user_not_found"): string {
  if (!userId || memberIndexOf(ws, userId) < 0) throw new WebApiError(error);
  return userId;
}

function isDeactivated(ctx: MethodContext, userId: string): boolean {
  return memberAt(ctx.ws, memberIndexOf(ctx.ws, userId), ctx.baseUrl).deleted === true;
}

/** A bot user of an app that is not installed (any more) cannot be added anywhere. */
function isAbsentBot(ctx: MethodContext, userId: string): boolean {
  return botByUserId(ctx.ws, userId) !== undefined && !installationOfBotUser(ctx.state, ctx.ws, userId);
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
  const channel = requireChannel(ctx);
  if (ctx.caller?.token.family === "bot" && !callerIsMember(ctx.state, ctx.ws, ctx.caller, channel)) throw new WebApiError("not_in_channel");
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

/** One page of a list of conversations, as conversations.list and users.conversations page them. */
function conversationPage(ctx: MethodContext, method: string, stream: number, list: Channel[]) {
  return resolvePage({
    ws: ctx.ws,
    scope: { method, kind: "channel" },
    stream,
    total: list.length,
    params: ctx.params,
    defaultLimit: CONVERSATIONS_LIST_DEFAULT_LIMIT,
    idAt: (index) => (list[index] as Channel).id,
    indexOf: (id) => list.findIndex((c) => c.id === id),
    nowMs: ctx.clock.now(),
    cursorTtlSeconds: ctx.options.cursorTtlSeconds,
  });
}

/** The people of a new im or mpim: the caller first, then those named, each once. */
function directPeople(ctx: MethodContext, caller: Caller): string[] {
  const named = (ctx.params.users ?? "")
    .split(",")
    .map((u) => u.trim())
    .filter(Boolean);
  if (named.length === 0) throw new WebApiError("users_list_not_supplied");
  if (named.length > MAX_DIRECT_USERS) throw new WebApiError("too_many_users");
  for (const id of named) {
    requireUser(ctx.ws, id);
    if (isDeactivated(ctx, id) || isAbsentBot(ctx, id)) throw new WebApiError("user_disabled");
  }
  return [...new Set([callerUserId(caller), ...named])];
}

function setText(ctx: MethodContext, field: "topic" | "purpose"): Record<string, unknown> {
  const caller = requireCaller(ctx);
  const channel = requireChannel(ctx);
  if (!isMember(ctx.state, ctx.ws, channel, callerUserId(caller))) throw new WebApiError("not_in_channel");
  if (channel.isArchived) throw new WebApiError("is_archived");
  const value = ctx.params[field] ?? "";
  if (value.length > MAX_TOPIC_LENGTH) throw new WebApiError("too_long");
  channel[field] = value;
  channel[field === "topic" ? "topicSet" : "purposeSet"] = { creator: callerUserId(caller), lastSet: nowSeconds(ctx) };
  touch(channel);
  return { channel: conversationRecord(ctx, channel) };
}

export const conversationsMethods: MethodDefinition[] = [
  {
    name: "conversations.list",
    pages: "channels",
    tier: 2,
    auth: "token",
    scopes: READ,
    handler(ctx) {
      const types = requestedTypes(ctx.params);
      requireTypeScopes(ctx, types);
      const me = ctx.caller ? callerUserId(ctx.caller) : "";
      // Public channels are listed to everyone; private ones, ims and mpims to their members only.
      const visible = ctx.ws.channels.filter((c) => types.has(TYPE_PARAM[conversationType(c)]) && canSee(ctx.state, ctx.ws, c, me));
      const page = conversationPage(ctx, "conversations.list", CONVERSATIONS_STREAM, visible);
      const excludeArchived = isTrue(ctx.params.exclude_archived);
      // Archived channels are dropped from the page after it is cut, as on the platform: such a page
      // can come out short, or even empty, while next_cursor still points further.
      const listed = visible
        .slice(page.start, page.end)
        .filter((c) => !(excludeArchived && c.isArchived))
        .map((c) => conversationRecord(ctx, c));
      return { channels: listed, response_metadata: { next_cursor: page.nextCursor } };
    },
  },
  {
    name: "conversations.create",
    tier: 2,
    auth: "token",
    json: true,
    scopes: MANAGE,
    handler(ctx) {
      const caller = requireCaller(ctx);
      const name = validChannelName(ctx.ws, ctx.params.name);
      const me = callerUserId(caller);
      const channel = createConversation(ctx.ws, {
        type: isTrue(ctx.params.is_private) ? "private" : "public",
        name,
        creator: me,
        created: nowSeconds(ctx),
      });
      // The creator is the first member: a bot's installation joins it.
      addMember(ctx.state, ctx.ws, channel, me);
      dispatchChannelCreated(ctx, ctx.ws, channel);
      return {
        channel: {
          ...conversationRecord(ctx, channel),
          last_read: "0000000000.000000",
          latest: null,
          unread_count: 0,
          unread_count_display: 0,
          priority: 0,
        },
      };
    },
  },
  {
    name: "conversations.open",
    tier: 3,
    auth: "token",
    json: true,
    // A bot opens a DM with channels:manage (it cannot be granted channels:write); a person with channels:write.
    scopes: { bot: ["channels:manage", "groups:write", "im:write", "mpim:write"], user: ["channels:write", "groups:write", "im:write", "mpim:write"] },
    handler(ctx) {
      const caller = requireCaller(ctx);
      let found: { channel: Channel; existed: boolean };
      if (ctx.params.channel) {
        // Resuming names an im or mpim the caller is in.
        const channel = requireChannel(ctx);
        if (!isDirect(channel)) throw new WebApiError("method_not_supported_for_channel_type");
        found = { channel, existed: true };
      } else {
        found = openDirect(ctx.state, ctx.ws, directPeople(ctx, caller), nowSeconds(ctx), ctx.baseUrl);
      }
      const { channel, existed } = found;
      const record = isTrue(ctx.params.return_im)
        ? { ...conversationRecord(ctx, channel), last_read: "0000000000.000000", latest: null, unread_count: 0, unread_count_display: 0, is_open: true }
        : { id: channel.id };
      return existed ? { no_op: true, already_open: true, channel: record } : { channel: record };
    },
  },
  {
    name: "conversations.join",
    tier: 3,
    auth: "token",
    json: true,
    scopes: { bot: ["channels:join"], user: ["channels:write"] },
    handler(ctx) {
      const caller = requireCaller(ctx);
      const channel = requireChannel(ctx);
      // Only public channels can be joined; a private one takes an invitation.
      if (conversationType(channel) !== "public") throw new WebApiError("method_not_supported_for_channel_type");
      if (channel.isArchived) throw new WebApiError("is_archived");
      const already = callerIsMember(ctx.state, ctx.ws, caller, channel);
      addMember(ctx.state, ctx.ws, channel, callerUserId(caller));
      if (!already) dispatchMembership(ctx, ctx.ws, channel, { user: callerUserId(caller), joined: true, eventTs: eventTsAt(ctx.clock.now()) });
      const record = conversationRecord(ctx, channel);
      return already ? { channel: record, warning: "already_in_channel", response_metadata: { warnings: ["already_in_channel"] } } : { channel: record };
    },
  },
  {
    name: "conversations.leave",
    tier: 3,
    auth: "token",
    json: true,
    scopes: MANAGE,
    handler(ctx) {
      const caller = requireCaller(ctx);
      const channel = requireChannel(ctx);
      if (conversationType(channel) === "im") throw new WebApiError("method_not_supported_for_channel_type");
      if (channel.isGeneral) throw new WebApiError("cant_leave_general");
      if (channel.isArchived) throw new WebApiError("is_archived");
      const me = callerUserId(caller);
      // Not being in it is no error: https://docs.slack.dev/reference/methods/conversations.leave/
      if (!isMember(ctx.state, ctx.ws, channel, me)) return { not_in_channel: true };
      if (conversationType(channel) !== "public" && channelMembers(ctx.state, ctx.ws, channel).total === 1) throw new WebApiError("last_member");
      removeMember(ctx.state, ctx.ws, channel, me);
      dispatchMembership(ctx, ctx.ws, channel, { user: me, joined: false, eventTs: eventTsAt(ctx.clock.now()) });
      return {};
    },
  },
  {
    name: "conversations.invite",
    tier: 3,
    auth: "token",
    json: true,
    scopes: INVITE,
    handler(ctx) {
      const caller = requireCaller(ctx);
      const channel = requireManagedChannel(ctx);
      const me = callerUserId(caller);
      if (!isMember(ctx.state, ctx.ws, channel, me)) throw new WebApiError("not_in_channel");
      if (channel.isArchived) throw new WebApiError("is_archived");
      const users = [
        ...new Set(
          (ctx.params.users ?? "")
            .split(",")
            .map((u) => u.trim())
            .filter(Boolean),
        ),
      ];
      if (users.length === 0) throw new WebApiError("no_user");
      if (users.length > MAX_INVITES) throw new WebApiError("too_many_users");
      // Each user is checked before anyone is added; the platform names the one refused in `errors`.
      for (const user of users) {
        const error =
          memberIndexOf(ctx.ws, user) < 0
            ? "user_not_found"
            : user === me
              ? "cant_invite_self"
              : isMember(ctx.state, ctx.ws, channel, user)
                ? "already_in_channel"
                : isDeactivated(ctx, user) || isAbsentBot(ctx, user)
                  ? "cant_invite"
                  : undefined;
        if (error) throw new WebApiError(error, { errors: [{ user, ok: false, error }] });
      }
      for (const user of users) {
        addMember(ctx.state, ctx.ws, channel, user);
        dispatchMembership(ctx, ctx.ws, channel, { user, joined: true, inviter: callerUserId(caller), eventTs: eventTsAt(ctx.clock.now()) });
      }
      return { channel: conversationRecord(ctx, channel) };
    },
  },
  {
    name: "conversations.kick",
    tier: 3,
    auth: "token",
    json: true,
    scopes: KICK,
    handler(ctx) {
      const caller = requireCaller(ctx);
      const channel = requireManagedChannel(ctx);
      const user = requireUser(ctx.ws, ctx.params.user);
      if (user === callerUserId(caller)) throw new WebApiError("cant_kick_self");
      if (channel.isGeneral) throw new WebApiError("cant_kick_from_general");
      if (!isMember(ctx.state, ctx.ws, channel, user)) throw new WebApiError("not_in_channel");
      removeMember(ctx.state, ctx.ws, channel, user);
      dispatchMembership(ctx, ctx.ws, channel, { user, joined: false, eventTs: eventTsAt(ctx.clock.now()) });
      return {};
    },
  },
  {
    name: "conversations.archive",
    tier: 2,
    auth: "token",
    json: true,
    scopes: MANAGE,
    handler(ctx) {
      const channel = requireManagedChannel(ctx);
      if (channel.isGeneral) throw new WebApiError("cant_archive_general");
      if (channel.isArchived) throw new WebApiError("already_archived");
      channel.isArchived = true;
      touch(channel);
      dispatchChannelArchive(ctx, ctx.ws, channel, { user: callerUserId(requireCaller(ctx)), archived: true });
      return {};
    },
  },
  {
    name: "conversations.unarchive",
    tier: 2,
    auth: "token",
    json: true,
    scopes: MANAGE,
    handler(ctx) {
      const channel = requireManagedChannel(ctx);
      if (!channel.isArchived) throw new WebApiError("not_archived");
      channel.isArchived = false;
      touch(channel);
      dispatchChannelArchive(ctx, ctx.ws, channel, { user: callerUserId(requireCaller(ctx)), archived: false });
      return {};
    },
  },
  {
    name: "conversations.rename",
    tier: 2,
    auth: "token",
    json: true,
    scopes: MANAGE,
    handler(ctx) {
      const caller = requireCaller(ctx);
      const channel = requireManagedChannel(ctx);
      if (!isMember(ctx.state, ctx.ws, channel, callerUserId(caller))) throw new WebApiError("not_in_channel");
      // Only an admin renames #general; an app is not one.
      if (channel.isGeneral) throw new WebApiError("not_authorized");
      if (channel.isArchived) throw new WebApiError("is_archived");
      const name = validChannelName(ctx.ws, ctx.params.name, channel);
      if (name !== channel.name) {
        channel.previousNames = [...(channel.previousNames ?? []), channel.name];
        channel.name = name;
        touch(channel);
        dispatchChannelRename(ctx, ctx.ws, channel);
      }
      return { channel: conversationRecord(ctx, channel) };
    },
  },
  {
    name: "conversations.setTopic",
    tier: 2,
    auth: "token",
    json: true,
    scopes: TOPIC,
    handler: (ctx) => setText(ctx, "topic"),
  },
  {
    name: "conversations.setPurpose",
    tier: 2,
    auth: "token",
    json: true,
    scopes: TOPIC,
    handler: (ctx) => setText(ctx, "purpose"),
  },
  {
    name: "conversations.info",
    tier: 3,
    auth: "token",
    scopes: READ,
    handler(ctx) {
      const record = conversationRecord(ctx, requireChannel(ctx));
      if (!isTrue(ctx.params.include_num_members)) delete record.num_members;
      if (isTrue(ctx.params.include_locale)) record.locale = "en-US";
      return { channel: record };
    },
  },
  {
    name: "conversations.members",
    pages: "members",
    tier: 4,
    auth: "token",
    scopes: READ,
    handler(ctx) {
      const channel = requireChannel(ctx);
      const members = channelMembers(ctx.state, ctx.ws, channel);
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
    json: true,
    scopes: HISTORY,
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
    scopes: HISTORY,
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

/** users.conversations: the conversations a member is in, of the types asked for, that the caller may see. */
export const userConversationsMethod: MethodDefinition = {
  name: "users.conversations",
  pages: "channels",
  tier: 3,
  auth: "token",
  scopes: READ,
  handler(ctx) {
    const caller = requireCaller(ctx);
    const me = callerUserId(caller);
    const user = ctx.params.user ? requireUser(ctx.ws, ctx.params.user) : me;
    const types = requestedTypes(ctx.params);
    const excludeArchived = isTrue(ctx.params.exclude_archived);
    const list = ctx.ws.channels.filter(
      (c) =>
        types.has(TYPE_PARAM[conversationType(c)]) &&
        !(excludeArchived && c.isArchived) &&
        isMember(ctx.state, ctx.ws, c, user) &&
        canSee(ctx.state, ctx.ws, c, me),
    );
    const page = conversationPage(ctx, `users.conversations:${user}`, USER_CONVERSATIONS_STREAM, list);
    return { channels: list.slice(page.start, page.end).map((c) => conversationRecord(ctx, c)), response_metadata: { next_cursor: page.nextCursor } };
  },
};
