import { WebApiError } from "../../core/errors";
import type { MethodDefinition } from "../../types";
import { avatarUrl } from "../../workspace/members";

export const botsMethods: MethodDefinition[] = [
  {
    name: "bots.info",
    tier: 3,
    auth: "token",
    scopes: { bot: ["users:read"], user: ["users:read"] },
    handler({ params, ws, baseUrl }) {
      const bot = params.bot ? ws.bots.find((b) => b.botId === params.bot) : undefined;
      if (!bot) throw new WebApiError("bot_not_found");
      // An uninstalled app's bot stays, marked deleted, as its bot user does.
      return {
        bot: {
          id: bot.botId,
          deleted: bot.deleted,
          name: bot.appName,
          updated: bot.created,
          app_id: bot.appId,
          user_id: bot.userId,
          // The platform's bot icons are 36, 48 and 72 pixels; the emulator's avatars come in 48 and 72.
          icons: {
            image_36: avatarUrl(baseUrl, bot.userId, bot.avatarHash, 48),
            image_48: avatarUrl(baseUrl, bot.userId, bot.avatarHash, 48),
            image_72: avatarUrl(baseUrl, bot.userId, bot.avatarHash, 72),
          },
        },
      };
    },
  },
];
