import { WebApiError } from "../errors";
import { dispatchMentions } from "../events";
import type { MethodDefinition } from "../types";
import { appendMessage, avatarUrl, botByUserId, resolveChannel } from "../workspace";

/** The platform truncates longer texts; the emulator refuses them, as it does for 40,000+ characters. */
const MAX_TEXT_LENGTH = 40_000;

/** A JSON array parameter (blocks, attachments) that is present and not empty. */
function hasItems(raw: string | undefined, error: string): boolean {
  if (raw === undefined || raw === "") return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new WebApiError(error);
  }
  if (!Array.isArray(parsed)) throw new WebApiError(error);
  return parsed.length > 0;
}

export const chatMethods: MethodDefinition[] = [
  {
    name: "chat.postMessage",
    // The platform's own tier ("special": about one message per second per channel) sits between 3 and 4.
    tier: 4,
    auth: "token",
    json: true,
    scopes: { bot: ["chat:write"], user: ["chat:write"] },
    handler(ctx) {
      const { params, state, clock, caller, baseUrl } = ctx;
      const ws = ctx.ws;
      const channel = params.channel ? resolveChannel(ws, params.channel) : undefined;
      if (!channel) throw new WebApiError("channel_not_found");
      if (channel.isArchived) throw new WebApiError("is_archived");
      const text = params.text ?? "";
      const blocks = hasItems(params.blocks, "invalid_blocks");
      const attachments = hasItems(params.attachments, "invalid_attachments");
      if (text.trim() === "" && !blocks && !attachments) throw new WebApiError("no_text");
      if (text.length > MAX_TEXT_LENGTH) throw new WebApiError("msg_too_long");
      if (!caller) throw new WebApiError("not_authed");

      const isBot = caller.token.family === "bot";
      // A bot posts only where it is a member, unless chat:write.public lets it into any public channel.
      if (isBot && !caller.installation.joinedChannels.has(channel.id) && !caller.scopes.includes("chat:write.public")) {
        throw new WebApiError("not_in_channel");
      }
      const author = isBot ? caller.installation.botUserId : caller.installation.authedUserId;
      const message = appendMessage(
        ws,
        channel.id,
        isBot
          ? { text, user: author, bot_id: caller.installation.botId, app_id: caller.app.id, via: "chat.postMessage" }
          : { text, user: author, via: "chat.postMessage" },
        clock.now(),
      );
      dispatchMentions(ctx, ws, channel, message);

      const { via: _via, ...wire } = message;
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
];
