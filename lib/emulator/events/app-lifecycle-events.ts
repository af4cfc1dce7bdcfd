/**
 * The events of an installation's own transitions (spec 3, docs/spec/web-api.md): `tokens_revoked` when tokens
 * are revoked (auth.revoke of one token under rotation; every token at an uninstall, or at auth.revoke without
 * rotation, which is one), naming the users whose tokens they were (`oauth`: user tokens, `bot`: the bot user),
 * never the tokens; and `app_uninstalled` when the app is uninstalled. Neither needs a scope; each goes to an
 * app that subscribes to it, the uninstalled one included (the platform's last word to it).
 */
import { uninstall } from "../oauth/installations";
import { installationTokens, tokenState } from "../tokens/tokens";
import { workspaceOf } from "../store";
import type { Installation, RequestContext, TokenRecord } from "../types";
import { emitEvent } from "./emit";
import { deliveryRouteOf } from "./routing";
import type { EventDelivery } from "./types";

function emitTo(ctx: RequestContext, installation: Installation, event: Record<string, unknown>): EventDelivery | undefined {
  const app = ctx.state.apps.get(installation.appId);
  if (!app || !app.botEvents.includes(String(event.type))) return undefined;
  const route = deliveryRouteOf(app, ctx.options);
  if (!route) return undefined;
  return emitEvent(ctx, workspaceOf(ctx.state, installation.teamId), { app, installation, route }, event);
}

/** `tokens_revoked` for tokens just revoked: the user ids they were for, by kind. */
export function dispatchTokensRevoked(ctx: RequestContext, installation: Installation, revoked: TokenRecord[]): EventDelivery | undefined {
  const oauth = new Set<string>();
  const bot = new Set<string>();
  for (const token of revoked) {
    if (token.family === "bot") bot.add(installation.botUserId);
    else oauth.add(token.userId ?? installation.authedUserId);
  }
  if (oauth.size === 0 && bot.size === 0) return undefined;
  const tokens = { ...(oauth.size > 0 ? { oauth: [...oauth] } : {}), ...(bot.size > 0 ? { bot: [...bot] } : {}) };
  return emitTo(ctx, installation, { type: "tokens_revoked", tokens });
}

/** Uninstalls (every token revoked) and tells the app: `tokens_revoked` for the tokens that were live, then `app_uninstalled`. */
export function uninstallWithEvents(ctx: RequestContext, installation: Installation): void {
  const now = ctx.clock.now();
  const live = installationTokens(ctx.state, installation.id).filter((t) => tokenState(t, now) === "active");
  uninstall(ctx.state, installation, now);
  dispatchTokensRevoked(ctx, installation, live);
  emitTo(ctx, installation, { type: "app_uninstalled" });
}
