import { announceChange } from "../../workspace/changes";
import { WebApiError } from "../../core/errors";
import { parseJsonWithin } from "../../core/json-depth";
import { dispatchMentions } from "../../events/app-mention";
import { dispatchMessageChanged, dispatchMessageDeleted, dispatchMessagePosted, eventTsAt } from "../../events/workspace-events";
import type { Caller, MethodContext, MethodDefinition, RequestContext } from "../../types";
import { resolveChannel } from "../../workspace/channels";
import { openDirect } from "../../workspace/direct";
import { avatarUrl, botByUserId, memberIndexOf } from "../../workspace/members";
import { appendMessage, findMessage, nextMessageTs, removeMessage } from "../../workspace/messages";
import type { Channel, Message, Workspace } from "../../workspace/workspace";
import { isMember } from "../../workspace/membership";
import { touch } from "../../core/change-tracking";
import { validateBlocks } from "../../blocks/validate";
import { rememberEphemeral } from "../../interactivity/lifecycle";

/**
 * The platform posts longer texts cut to 40,000 characters, with a warning
 * (https://api.slack.com/changelog/2018-04-truncating-really-long-messages: chat.postMessage, chat.postEphemeral
 * and every other way of posting).
 */
export const MAX_TEXT_LENGTH = 40_000;

/** The platform's answer beside a message it truncated (the changelog above). */
export const TRUNCATION_WARNING = {
  warning: "message_truncated",
  response_metadata: {
    messages: ["[WARN] Your message was truncated but still posted. The `text` field accepts up to 40,000 characters."],
    warnings: ["message_truncated"],
  },
};

/** A member's id (U…, or W… on an Enterprise grid), as chat.postMessage's `channel` may name one. */
const USER_ID = /^[UW][A-Z0-9]{2,}$/;

/** The platform's limit on a message's attachments (its blocks are checked by blocks/validate.ts). */
const MAX_ATTACHMENTS = 100;

/**
 * A JSON array parameter (blocks, attachments): its items when present and not empty. Malformed, or nested
 * deeper than a message can be stored and read back (core/json-depth.ts), is the parameter's own error.
 */
function items(raw: string | undefined, error: string): unknown[] | undefined {
  if (raw === undefined || raw === "") return undefined;
  const parsed = parseJsonWithin(raw);
  if (!parsed.ok || !Array.isArray(parsed.value)) throw new WebApiError(error);
  return parsed.value.length > 0 ? parsed.value : undefined;
}

/** A text cut to MAX_TEXT_LENGTH characters (code points: a character is never split in two). */
function truncate(text: string): { text: string; truncated: boolean } {
  if (text.length <= MAX_TEXT_LENGTH) return { text, truncated: false };
  const chars = Array.from(text);
  if (chars.length <= MAX_TEXT_LENGTH) return { text, truncated: false };
  return { text: chars.slice(0, MAX_TEXT_LENGTH).join(""), truncated: true };
}

export interface MessageContent {
  text: string;
  blocks?: unknown[];
  attachments?: unknown[];
  /** A member's post from a client (workspace/rich-text.ts). */
  client_msg_id?: string;
}

/**
 * The content of a message to post or update: text, blocks and attachments, checked as the platform does; a
 * text past 40,000 characters is cut (`truncated`: answer TRUNCATION_WARNING beside it).
 */
export function messageContent(params: Record<string, string>): { content: MessageContent; truncated: boolean } {
  const raw = params.text ?? "";
  const blocks = items(params.blocks, "invalid_blocks");
  const attachments = items(params.attachments, "invalid_attachments");
  const problems = blocks ? validateBlocks(blocks, { surface: "message" }) : [];
  if (problems.length > 0) throw new WebApiError("invalid_blocks", { errors: problems, response_metadata: { messages: problems.map((p) => `[ERROR] ${p}`) } });
  if (attachments && attachments.length > MAX_ATTACHMENTS) throw new WebApiError("too_many_attachments");
  if (raw.trim() === "" && !blocks && !attachments) throw new WebApiError("no_text");
  const { text, truncated } = truncate(raw);
  return { content: { text, ...(blocks ? { blocks } : {}), ...(attachments ? { attachments } : {}) }, truncated };
}

/** The channel a chat.* call names (id, or name for the posting methods). */
export function requireChannel(ctx: MethodContext): Channel {
  const channel = ctx.params.channel ? resolveChannel(ctx.ws, ctx.params.channel) : undefined;
  if (!channel) throw new WebApiError("channel_not_found");
  return channel;
}

/** A user id chat.postMessage was given as its `channel` (the platform posts to the DM), or undefined; unknown is channel_not_found. */
function directMessageUser(ctx: MethodContext): string | undefined {
  const id = ctx.params.channel ?? "";
  if (!USER_ID.test(id) || ctx.ws.channelsById.has(id)) return undefined;
  if (memberIndexOf(ctx.ws, id) < 0) throw new WebApiError("channel_not_found");
  return id;
}

function requireOwnMessage(ctx: MethodContext, channel: Channel, refusal: string): Message {
  const message = ctx.params.ts ? findMessage(ctx.ws, channel.id, ctx.params.ts) : undefined;
  if (!message) throw new WebApiError("message_not_found");
  const caller = ctx.caller as Caller;
  // A bot changes only its own messages; a user token, only its user's.
  const own =
    caller.token.family === "bot"
      ? message.bot_id === caller.installation.botId
      : message.user === (caller.token.userId ?? caller.installation.authedUserId) && !message.bot_id;
  if (!own) throw new WebApiError(refusal);
  return message;
}

/** The member a call acts as: the bot user for a bot token, the token's member for a user token. */
export function actingUserId(caller: Caller): string {
  return caller.token.family === "bot" ? caller.installation.botUserId : (caller.token.userId ?? caller.installation.authedUserId);
}

/** A bot posts only where it is a member, unless chat:write.public lets it into any public channel. */
export function requirePostable(caller: Caller, channel: Channel): void {
  if (channel.isArchived) throw new WebApiError("is_archived");
  if (caller.token.family === "bot" && !caller.installation.joinedChannels.has(channel.id) && !caller.scopes.includes("chat:write.public")) {
    throw new WebApiError("not_in_channel");
  }
}

/** The platform's message object: the emulator's bookkeeping (how it arrived, who pinned it) left out. */
export function wireMessage(message: Message): Omit<Message, "via" | "pin"> {
  const { via: _via, pin: _pin, ...wire } = message;
  return wire;
}

/** The bot_profile the platform adds to a bot's message in the answer that posted it. */
function botProfileOf(ws: Workspace, baseUrl: string, userId: string): Record<string, unknown> {
  const bot = botByUserId(ws, userId);
  if (!bot) return {};
  return {
    bot_profile: {
      id: bot.botId,
      app_id: bot.appId,
      name: bot.appName,
      icons: {
        image_36: avatarUrl(baseUrl, bot.userId, bot.avatarHash, 48),
        image_48: avatarUrl(baseUrl, bot.userId, bot.avatarHash, 48),
        image_72: avatarUrl(baseUrl, bot.userId, bot.avatarHash, 72),
      },
      deleted: bot.deleted,
      updated: bot.created,
      team_id: ws.team.id,
    },
  };
}

export interface PostInput {
  content: MessageContent;
  user: string;
  botId?: string;
  appId?: string;
  /** The ts of a message of the channel to reply to (its thread's parent is found from it). */
  threadTs?: string;
  via: Message["via"];
}

/**
 * Stores a message in a channel's history as chat.postMessage does: a reply keeps its thread's count, latest
 * reply and repliers on the parent, and a mention sends app_mention to the apps that receive it.
 */
export function postToChannel(ctx: RequestContext, ws: Workspace, channel: Channel, input: PostInput, nowMs: number): Message {
  // A reply names its thread's parent; a ts that is no message of the channel posts to the channel itself.
  const parent = input.threadTs ? findMessage(ws, channel.id, input.threadTs) : undefined;
  const thread = parent ? (parent.thread_ts ?? parent.ts) : undefined;
  const message = appendMessage(
    ws,
    channel.id,
    {
      ...input.content,
      user: input.user,
      ...(input.botId ? { bot_id: input.botId, app_id: input.appId } : {}),
      ...(thread ? { thread_ts: thread } : {}),
      via: input.via,
    },
    nowMs,
  );
  const root = thread ? findMessage(ws, channel.id, thread) : undefined;
  if (root) {
    root.thread_ts = root.ts;
    root.reply_count = (root.reply_count ?? 0) + 1;
    root.reply_users = [...new Set([...(root.reply_users ?? []), input.user])];
    root.latest_reply = message.ts;
    touch(root);
  }
  dispatchMentions(ctx, ws, channel, message);
  dispatchMessagePosted(ctx, ws, channel, message);
  return message;
}

/**
 * The scope chat.postEphemeral, chat.scheduleMessage and chat.deleteScheduledMessage take, as their current
 * pages say (the OpenAPI's chat:write:bot and chat:write:user are scopes the platform no longer grants).
 */
export const CHAT_WRITE_SCOPES = ["chat:write"];

/** A message's permalink, as chat.getPermalink answers it. */
export function permalinkOf(ws: Workspace, channelId: string, message: Message): string {
  const base = `https://${ws.team.domain}.slack.com/archives/${channelId}/p${message.ts.replace(".", "")}`;
  const reply = message.thread_ts !== undefined && message.thread_ts !== message.ts;
  return reply ? `${base}?thread_ts=${message.thread_ts}&cid=${channelId}` : base;
}

export const chatMethods: MethodDefinition[] = [
  {
    name: "chat.postMessage",
    // "special": about one message per second per channel, with short bursts (web-api/rate-limit.ts).
    tier: "special",
    auth: "token",
    json: true,
    scopes: { bot: ["chat:write"], user: ["chat:write"] },
    handler(ctx) {
      const { caller, ws } = ctx;
      if (!caller) throw new WebApiError("not_authed");
      const dmUser = directMessageUser(ctx);
      const named = dmUser ? undefined : requireChannel(ctx);
      if (named?.isArchived) throw new WebApiError("is_archived");
      const { content, truncated } = messageContent(ctx.params);
      // A user id posts to the caller's DM with that person, opened (only once the message is valid) as
      // conversations.open would open it.
      const people = [...new Set([actingUserId(caller), dmUser as string])];
      const channel = named ?? openDirect(ctx.state, ws, people, Math.floor(ctx.clock.now() / 1000), ctx.baseUrl).channel;
      requirePostable(caller, channel);
      const isBot = caller.token.family === "bot";
      const author = actingUserId(caller);
      const message = postToChannel(
        ctx,
        ws,
        channel,
        {
          content,
          user: author,
          ...(isBot ? { botId: caller.installation.botId, appId: caller.app.id } : {}),
          threadTs: ctx.params.thread_ts,
          via: "chat.postMessage",
        },
        ctx.clock.now(),
      );
      const botProfile = isBot ? botProfileOf(ws, ctx.baseUrl, author) : {};
      return { channel: channel.id, ts: message.ts, message: { ...wireMessage(message), ...botProfile }, ...(truncated ? TRUNCATION_WARNING : {}) };
    },
  },
  {
    name: "chat.update",
    tier: 3,
    auth: "token",
    json: true,
    scopes: { bot: ["chat:write"], user: ["chat:write"] },
    handler(ctx) {
      const channel = requireChannel(ctx);
      const message = requireOwnMessage(ctx, channel, "cant_update_message");
      const { content, truncated } = messageContent(ctx.params);
      const previous = structuredClone(message);
      message.text = content.text;
      // Blocks and attachments left out of an update are kept, as on the platform; an empty array clears them.
      if (ctx.params.blocks !== undefined) {
        if (content.blocks) message.blocks = content.blocks;
        else delete message.blocks;
      }
      if (ctx.params.attachments !== undefined) {
        if (content.attachments) message.attachments = content.attachments;
        else delete message.attachments;
      }
      message.edited = { user: message.user ?? "", ts: String(Math.floor(ctx.clock.now() / 1000)) + ".000000" };
      touch(message);
      dispatchMessageChanged(ctx, ctx.ws, channel, previous, message, eventTsAt(ctx.clock.now()));
      return { channel: channel.id, ts: message.ts, text: message.text, message: wireMessage(message), ...(truncated ? TRUNCATION_WARNING : {}) };
    },
  },
  {
    name: "chat.delete",
    tier: 3,
    auth: "token",
    json: true,
    scopes: { bot: ["chat:write"], user: ["chat:write"] },
    handler(ctx) {
      const channel = requireChannel(ctx);
      const message = requireOwnMessage(ctx, channel, "cant_delete_message");
      removeMessage(ctx.ws, channel.id, message.ts);
      dispatchMessageDeleted(ctx, ctx.ws, channel, message, eventTsAt(ctx.clock.now()));
      return { channel: channel.id, ts: message.ts };
    },
  },
  {
    // https://docs.slack.dev/reference/methods/chat.postEphemeral: shown to one member of the channel, never
    // in the history (conversations.history does not list it); the answer carries its message_ts. Its
    // buttons work: a click sends block_actions with `container.is_ephemeral` and a response_url.
    name: "chat.postEphemeral",
    tier: 4,
    auth: "token",
    json: true,
    scopes: { bot: CHAT_WRITE_SCOPES, user: CHAT_WRITE_SCOPES },
    handler(ctx) {
      const caller = ctx.caller as Caller;
      const channel = requireChannel(ctx);
      if (channel.isArchived) throw new WebApiError("is_archived");
      const { content, truncated } = messageContent(ctx.params);
      requirePostable(caller, channel);
      const user = ctx.params.user ?? "";
      if (!isMember(ctx.state, ctx.ws, channel, user)) throw new WebApiError("user_not_in_channel");
      const ts = nextMessageTs(ctx.ws, ctx.clock.now());
      // Never stored: only a member watching (the console's Workspace page) sees it, as their client would.
      const from = caller.token.family === "bot" ? { bot_id: caller.installation.botId, app_id: caller.app.id } : { user: actingUserId(caller) };
      announceChange(ctx.ws, {
        type: "ephemeral",
        channel: channel.id,
        user,
        message: { type: "message", subtype: "ephemeral", channel: channel.id, ts, ...from, ...content },
      });
      // Kept where a member's click finds it (interactivity/parts.ts), for as long as lifecycle.ts says.
      const { text, blocks, attachments } = content;
      rememberEphemeral(
        ctx.state,
        {
          channel: channel.id,
          user,
          ts,
          appId: caller.app.id,
          ...(caller.token.family === "bot" ? { botId: caller.installation.botId } : {}),
          text,
          ...(blocks ? { blocks } : {}),
          ...(attachments ? { attachments } : {}),
        },
        ctx.clock.now(),
      );
      return { message_ts: ts, ...(truncated ? TRUNCATION_WARNING : {}) };
    },
  },
  {
    // https://docs.slack.dev/reference/methods/chat.getPermalink: https://<domain>.slack.com/archives/<channel>/p<ts
    // without its dot>, and for a thread reply ?thread_ts=<parent>&cid=<channel>. The domain is the workspace's
    // (Team.domain, the one auth.test's url names).
    name: "chat.getPermalink",
    tier: "special",
    auth: "token",
    scopes: { bot: [], user: [] },
    handler(ctx) {
      const channel = ctx.params.channel ? ctx.ws.channelsById.get(ctx.params.channel) : undefined;
      if (!channel) throw new WebApiError("channel_not_found");
      const message = ctx.params.message_ts ? findMessage(ctx.ws, channel.id, ctx.params.message_ts) : undefined;
      if (!message) throw new WebApiError("message_not_found");
      return { channel: channel.id, permalink: permalinkOf(ctx.ws, channel.id, message) };
    },
  },
];
