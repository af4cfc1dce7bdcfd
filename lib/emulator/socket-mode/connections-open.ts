/**
 * apps.connections.open: an app-level token with `connections:write` gets a single-use WebSocket URL,
 * `{ws base}/link/?ticket=…&app_id=…` (the platform's `wss://wss-primary.slack.com/link/?ticket=…`). Any other
 * token is refused as the platform refuses it (and one given as a parameter, not in the Authorization header): a bot, user or configuration token is not_allowed_token_type,
 * an unknown or revoked app-level token invalid_auth.
 */
import { WebApiError } from "../core/errors";
import { refuseConfigToken } from "../tokens/config-tokens";
import type { MethodContext, MethodDefinition } from "../types";
import { findAppToken } from "./app-tokens";
import { hubOf, MAX_CONNECTIONS_PER_APP } from "./hub";

/** The path, under the emulator's base, that takes Socket Mode upgrades. */
export const LINK_PATH = "/link/";

async function socketBaseUrl(ctx: MethodContext): Promise<string> {
  const configured = ctx.options.socketModeUrl;
  if (configured) return (await configured()).replace(/\/+$/, "");
  return ctx.baseUrl.replace(/^http/, "ws");
}

const connectionsOpen: MethodDefinition = {
  name: "apps.connections.open",
  tier: 1,
  // Checked here: the method takes only an app-level token, which resolves to no installation.
  auth: "none",
  async handler(ctx) {
    const now = ctx.clock.now();
    if (!ctx.token) throw new WebApiError("not_authed");
    // The method's page: the token goes in the Authorization header; as a POST parameter it is an error.
    if (!/^Bearer\s/i.test(ctx.request.headers.get("authorization") ?? "")) {
      throw new WebApiError("not_authed", { message: "apps.connections.open takes its app-level token in the Authorization header only." });
    }
    refuseConfigToken(ctx.state, ctx.token, now);
    if (ctx.state.tokens.has(ctx.token) || ctx.state.signIns.tokens.has(ctx.token)) throw new WebApiError("not_allowed_token_type");
    const record = findAppToken(ctx.state, ctx.token);
    if (!record || record.revokedAt !== undefined) throw new WebApiError("invalid_auth");
    if (!record.scopes.includes("connections:write")) {
      throw new WebApiError("missing_scope", { needed: "connections:write", provided: record.scopes.join(",") });
    }
    const app = ctx.state.apps.get(record.appId);
    if (!app) throw new WebApiError("invalid_auth");
    const hub = hubOf(ctx.state);
    // The emulator's choice where the platform's pages are silent: an 11th connection is refused here, before a URL is spent.
    if (hub.openConnections(app.id) >= MAX_CONNECTIONS_PER_APP) throw new WebApiError("too_many_websockets");
    const ticket = hub.issueTicket(app.id);
    const url = new URL(`${await socketBaseUrl(ctx)}${LINK_PATH}`);
    url.searchParams.set("ticket", ticket);
    url.searchParams.set("app_id", app.id);
    return { url: url.toString() };
  },
};

export const socketModeMethods: MethodDefinition[] = [connectionsOpen];
