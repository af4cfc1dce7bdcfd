/**
 * pins.add, .remove and .list: messages pinned to their channel. A pinned message carries `pinned_to` in
 * conversations.history, as on the platform. https://docs.slack.dev/reference/methods/pins.add (and .remove, .list)
 */
import { WebApiError } from "../../core/errors";
import type { Caller, MethodDefinition } from "../../types";
import { channelMessages } from "../../workspace/messages";
import { actingUserId, wireMessage } from "./chat";
import { requireItem } from "./reactions";
import { touch } from "../../core/change-tracking";

export const pinsMethods: MethodDefinition[] = [
  {
    name: "pins.add",
    tier: 2,
    auth: "token",
    json: true,
    scopes: { bot: ["pins:write"], user: ["pins:write"] },
    handler(ctx) {
      const { channel, message } = requireItem(ctx);
      if (message.pinned_to?.includes(channel.id)) throw new WebApiError("already_pinned");
      message.pinned_to = [...(message.pinned_to ?? []), channel.id];
      message.pin = { by: actingUserId(ctx.caller as Caller), at: Math.floor(ctx.clock.now() / 1000) };
      touch(message);
      return {};
    },
  },
  {
    name: "pins.remove",
    tier: 2,
    auth: "token",
    json: true,
    scopes: { bot: ["pins:write"], user: ["pins:write"] },
    handler(ctx) {
      const { channel, message } = requireItem(ctx);
      if (!message.pinned_to?.includes(channel.id)) throw new WebApiError("no_pin");
      delete message.pinned_to;
      delete message.pin;
      touch(message);
      return {};
    },
  },
  {
    name: "pins.list",
    tier: 2,
    auth: "token",
    scopes: { bot: ["pins:read"], user: ["pins:read"] },
    handler(ctx) {
      const channel = ctx.params.channel ? ctx.ws.channelsById.get(ctx.params.channel) : undefined;
      if (!channel) throw new WebApiError("channel_not_found");
      // The latest pin first.
      const pinned = channelMessages(ctx.ws, channel.id)
        .filter((m) => m.pinned_to?.includes(channel.id))
        .sort((a, b) => (b.pin?.at ?? 0) - (a.pin?.at ?? 0) || Number(b.ts) - Number(a.ts));
      return {
        items: pinned.map((m) => ({ type: "message", created: m.pin?.at ?? 0, created_by: m.pin?.by ?? "", channel: channel.id, message: wireMessage(m) })),
      };
    },
  },
];
