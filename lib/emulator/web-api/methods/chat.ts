import { WebApiError } from "../../core/errors";
import { parseJsonWithin } from "../../core/json-depth";
import { dispatchMentions } from "../../events/app-mention";
import type { Caller, MethodContext, MethodDefinition } from "../../types";
import { resolveChannel } from "../../workspace/channels";
import { avatarUrl, botByUserId } from "../../workspace/members";
import { appendMessage, findMessage, removeMessage } from "../../workspace/messages";
import type { Channel, Message } from "../../workspace/workspace";

/** The platform truncates longer texts; the emulator refuses them, as it does for 40,000+ characters. */
const MAX_TEXT_LENGTH = 40_000;

/** The platform's limits on a message: 50 blocks, 100 attachments. */
const MAX_BLOCKS = 50;
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

/** The content of a message to post or update: text, blocks and attachments, checked as the platform does. */
function messageContent(params: Record<string, string>) {
  const text = params.text ?? "";
  const blocks = items(params.blocks, "invalid_blocks");
  const attachments = items(params.attachments, "invalid_attachments");
  if (blocks && blocks.length > MAX_BLOCKS)
    throw new WebApiError("invalid_blocks", { response_metadata: { messages: [`[ERROR] no more than ${MAX_BLOCKS} items allowed [json-pointer:/blocks]`] } });
  if (attachments && attachments.length > MAX_ATTACHMENTS) throw new WebApiError("too_many_attachments");
  if (text.trim() === "" && !blocks && !attachments) throw new WebApiError("no_text");
  if (text.length > MAX_TEXT_LENGTH) throw new WebApiError("msg_too_long");
  return { text, ...(blocks ? { blocks } : {}), ...(attachments ? { attachments } : {}) };
}

/** The channel a chat.* call names, and the message `ts` in it for update and delete. */
function requireChannel(ctx: MethodContext): Channel {
  const channel = ctx.params.channel ? resolveChannel(ctx.ws, ctx.params.channel) : undefined;
  if (!channel) throw new WebApiError("channel_not_found");
  return channel;
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

/** The platform's message object: the emulator's bookkeeping (how it arrived) left out. */
export function wireMessage(message: Message): Omit<Message, "via"> {
  const { via: _via, ...wire } = message;
  return wire;
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
      const { params, clock, caller, baseUrl } = ctx;
      const ws = ctx.ws;
      const channel = requireChannel(ctx);
      if (channel.isArchived) throw new WebApiError("is_archived");
      const content = messageContent(params);
      if (!caller) throw new WebApiError("not_authed");
      // A reply names its thread's parent; a ts that is no message of the channel posts to the channel itself.
      const parent = params.thread_ts ? findMessage(ws, channel.id, params.thread_ts) : undefined;
      const thread = parent ? (parent.thread_ts ?? parent.ts) : undefined;

      const isBot = caller.token.family === "bot";
      // A bot posts only where it is a member, unless chat:write.public lets it into any public channel.
      if (isBot && !caller.installation.joinedChannels.has(channel.id) && !caller.scopes.includes("chat:write.public")) {
        throw new WebApiError("not_in_channel");
      }
      const author = isBot ? caller.installation.botUserId : (caller.token.userId ?? caller.installation.authedUserId);
      const message = appendMessage(
        ws,
        channel.id,
        {
          ...content,
          user: author,
          ...(isBot ? { bot_id: caller.installation.botId, app_id: caller.app.id } : {}),
          ...(thread ? { thread_ts: thread } : {}),
          via: "chat.postMessage",
        },
        clock.now(),
      );
      const root = thread ? findMessage(ws, channel.id, thread) : undefined;
      if (root) {
        root.thread_ts = root.ts;
        root.reply_count = (root.reply_count ?? 0) + 1;
        root.reply_users = [...new Set([...(root.reply_users ?? []), author])];
        root.latest_reply = message.ts;
      }
      dispatchMentions(ctx, ws, channel, message);

      const wire = wireMessage(message);
      const bot = isBot ? botByUserId(ws, author) : undefined;
      const botProfile = bot
        ? {
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
          }
        : {};
      return { channel: channel.id, ts: message.ts, message: { ...wire, ...botProfile } };
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
      const content = messageContent(ctx.params);
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
      return { channel: channel.id, ts: message.ts, text: message.text, message: wireMessage(message) };
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
      return { channel: channel.id, ts: message.ts };
    },
  },
];
