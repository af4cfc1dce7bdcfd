/**
 * reactions.add, .remove, .get and .list: emoji reactions on messages, kept on the message itself, so that
 * conversations.history and .replies show them (`reactions: [{name, users, count}]`) as the platform does.
 * https://docs.slack.dev/reference/methods/reactions.add (and .remove, .get, .list)
 */
import { WebApiError } from "../../core/errors";
import { resolvePage } from "../../pagination/pagination";
import type { Caller, MethodContext, MethodDefinition } from "../../types";
import { isEmojiName } from "../../workspace/emoji";
import { memberIndexOf } from "../../workspace/members";
import { channelMessages, findMessage } from "../../workspace/messages";
import type { Channel, Message } from "../../workspace/workspace";
import { actingUserId, wireMessage } from "./chat";
import { touch } from "../../core/change-tracking";
import { dispatchReaction, eventTsAt } from "../../events/workspace-events";

const TS = /^\d{1,12}\.\d{1,6}$/;
const REACTIONS_STREAM = 207;
const REACTIONS_DEFAULT_LIMIT = 100;

/**
 * The message a reactions.* or pins.* call names with `channel` and `timestamp`: neither is
 * no_item_specified, a malformed ts bad_timestamp, no such channel channel_not_found, no such message
 * message_not_found.
 */
export function requireItem(ctx: MethodContext): { channel: Channel; message: Message } {
  const { channel: channelId, timestamp } = ctx.params;
  if (!channelId || !timestamp) throw new WebApiError("no_item_specified");
  if (!TS.test(timestamp)) throw new WebApiError("bad_timestamp");
  const channel = ctx.ws.channelsById.get(channelId);
  if (!channel) throw new WebApiError("channel_not_found");
  const message = findMessage(ctx.ws, channel.id, timestamp);
  if (!message) throw new WebApiError("message_not_found");
  return { channel, message };
}

/** The emoji name of a call, colons around it allowed and removed; a name that is no emoji is invalid_name. */
function emojiName(raw: string | undefined): string {
  const name = (raw ?? "").trim().replace(/^:/, "").replace(/:$/, "");
  if (!isEmojiName(name)) throw new WebApiError("invalid_name");
  return name;
}

/** A message as reactions.get and reactions.list answer it: its channel beside it. */
function messageItem(channel: Channel, message: Message) {
  return { type: "message", channel: channel.id, message: wireMessage(message) };
}

export const reactionsMethods: MethodDefinition[] = [
  {
    name: "reactions.add",
    tier: 3,
    auth: "token",
    json: true,
    scopes: { bot: ["reactions:write"], user: ["reactions:write"] },
    handler(ctx) {
      const name = emojiName(ctx.params.name);
      const { channel, message } = requireItem(ctx);
      const user = actingUserId(ctx.caller as Caller);
      const reactions = (message.reactions ??= []);
      const existing = reactions.find((r) => r.name === name);
      if (existing?.users.includes(user)) throw new WebApiError("already_reacted");
      if (existing) {
        existing.users.push(user);
        existing.count = existing.users.length;
      } else {
        reactions.push({ name, users: [user], count: 1 });
      }
      touch(message);
      dispatchReaction(ctx, ctx.ws, channel, message, { user, reaction: name, added: true, eventTs: eventTsAt(ctx.clock.now()) });
      return {};
    },
  },
  {
    name: "reactions.remove",
    tier: 2,
    auth: "token",
    json: true,
    scopes: { bot: ["reactions:write"], user: ["reactions:write"] },
    handler(ctx) {
      const name = emojiName(ctx.params.name);
      const { channel, message } = requireItem(ctx);
      const user = actingUserId(ctx.caller as Caller);
      const reaction = message.reactions?.find((r) => r.name === name);
      if (!reaction || !reaction.users.includes(user)) throw new WebApiError("no_reaction");
      reaction.users = reaction.users.filter((u) => u !== user);
      reaction.count = reaction.users.length;
      if (reaction.count === 0) message.reactions = message.reactions?.filter((r) => r !== reaction);
      if (message.reactions?.length === 0) delete message.reactions;
      touch(message);
      dispatchReaction(ctx, ctx.ws, channel, message, { user, reaction: name, added: false, eventTs: eventTsAt(ctx.clock.now()) });
      return {};
    },
  },
  {
    name: "reactions.get",
    tier: 3,
    auth: "token",
    scopes: { bot: ["reactions:read"], user: ["reactions:read"] },
    handler(ctx) {
      const { channel, message } = requireItem(ctx);
      return messageItem(channel, message);
    },
  },
  {
    name: "reactions.list",
    pages: "items",
    tier: 2,
    auth: "token",
    scopes: { bot: ["reactions:read"], user: ["reactions:read"] },
    handler(ctx) {
      const user = ctx.params.user || actingUserId(ctx.caller as Caller);
      if (memberIndexOf(ctx.ws, user) < 0) throw new WebApiError("user_not_found");
      // What the member reacted to, newest message first.
      const items: { channel: Channel; message: Message }[] = [];
      for (const channel of ctx.ws.channels) {
        for (const message of channelMessages(ctx.ws, channel.id)) {
          if (message.reactions?.some((r) => r.users.includes(user))) items.push({ channel, message });
        }
      }
      items.sort((a, b) => Number(b.message.ts) - Number(a.message.ts));
      const key = (item: { channel: Channel; message: Message }) => `${item.channel.id}/${item.message.ts}`;
      const page = resolvePage({
        ws: ctx.ws,
        scope: { method: `reactions.list:${user}`, kind: "item" },
        stream: REACTIONS_STREAM,
        total: items.length,
        params: ctx.params,
        defaultLimit: REACTIONS_DEFAULT_LIMIT,
        idAt: (index) => key(items[index] as { channel: Channel; message: Message }),
        indexOf: (id) => items.findIndex((item) => key(item) === id),
        nowMs: ctx.clock.now(),
        cursorTtlSeconds: ctx.options.cursorTtlSeconds,
      });
      return {
        items: items.slice(page.start, page.end).map((item) => messageItem(item.channel, item.message)),
        response_metadata: { next_cursor: page.nextCursor },
      };
    },
  },
];
