/**
 * {base}/api/<method> (spec 4, docs/spec/web-api.md): one Web API call. Resolves the method, reads the parameters, applies rate
 * limits, checks the credentials the method needs (token and scopes, app credentials, or an app
 * configuration token), runs the handler and wraps its result in {"ok":true,...}. Errors are thrown as
 * WebApiError and mapped by core/errors.ts: HTTP 200 with ok:false, as the platform does.
 */
import { findAppByClientId } from "../apps/registry";
import { refuseConfigToken, requireConfigToken } from "../tokens/config-tokens";
import { requireClientApp, readClientCredentials, readParams, readToken } from "./request-params";
import { WebApiError, jsonResponse } from "../core/errors";
import { METHODS } from "./methods";
import { deliverScheduledMessages } from "./methods/chat-scheduled";
import { applyRateLimitProfile, enforceMethodRateLimit } from "./rate-limit";
import { workspaceOf } from "../store";
import { requireAccessToken } from "../tokens/tokens";
import { findAppToken } from "../socket-mode/app-tokens";
import { charsetWarning, withWarning } from "./charset-warnings";
import type { App, Caller, ConfigTokenRecord, MethodContext, MethodDefinition, RequestContext } from "../types";

export function findMethod(name: string): MethodDefinition | undefined {
  return METHODS.get(name);
}

/** The caller behind an access token, or the platform's token error (an app configuration token is no access token). */
export function resolveCaller(ctx: RequestContext, token: string | undefined): Caller {
  refuseConfigToken(ctx.state, token, ctx.clock.now());
  // An app-level token (xapp-…) opens Socket Mode connections and nothing else.
  const appToken = findAppToken(ctx.state, token);
  if (appToken) throw new WebApiError(appToken.revokedAt === undefined ? "not_allowed_token_type" : "invalid_auth");
  const record = requireAccessToken(ctx.state, token, ctx.clock.now());
  const installation = ctx.state.installations.get(record.installationId);
  const app = ctx.state.apps.get(record.appId);
  // Tokens of an uninstalled installation are revoked with it; this only guards a broken state.
  if (!installation || !app || installation.uninstalled) throw new WebApiError("token_revoked");
  const scopes = record.family === "bot" ? installation.botScopes : installation.userScopes;
  return { token: record, installation, app, scopes };
}

/** Any-of scope check per token kind: missing_scope with needed/provided, as the platform answers. */
function checkScopes(definition: MethodDefinition, caller: Caller): void {
  if (!definition.scopes) return;
  const accepted = caller.token.family === "bot" ? definition.scopes.bot : definition.scopes.user;
  if (!accepted) throw new WebApiError("not_allowed_token_type");
  if (accepted.length === 0 || accepted.some((s) => caller.scopes.includes(s))) return;
  throw new WebApiError("missing_scope", { needed: accepted.join(","), provided: caller.scopes.join(",") });
}

/**
 * The workspace and app a call counts against: the token's app (a sign-in's token included) whatever the token's state (the
 * platform rate-limits before it judges the token, so calls with a revoked or expired token still
 * count), else the app named by client_id. An app configuration token (or, for tooling.tokens.rotate,
 * its refresh token) belongs to no app: its calls count against its developer in its workspace. A call
 * that names nobody known (no token, an unknown token) counts against nothing: it can only fail with
 * not_authed or invalid_auth.
 */
function rateScopeOf(ctx: RequestContext, token: string | undefined, params: Record<string, string>) {
  const record = token ? (ctx.state.tokens.get(token) ?? ctx.state.signIns.tokens.get(token)) : undefined;
  if (record) return { teamId: record.teamId, appId: record.appId };
  // A refresh grant (oauth.v2.access with a refresh token) counts in the workspace whose token it refreshes,
  // whatever the token's state: an app's refreshes across many workspaces are not one workspace's calls.
  const refreshed = params.refresh_token ? ctx.state.tokens.get(params.refresh_token) : undefined;
  if (refreshed) return { teamId: refreshed.teamId, appId: refreshed.appId };
  const config = ctx.state.configTokens.get(token ?? "") ?? ctx.state.configTokens.get(params.refresh_token ?? "");
  if (config) return { teamId: config.teamId, appId: `developer:${config.userId}` };
  const app = findAppByClientId(ctx.state, readClientCredentials(ctx.request, params).clientId);
  return app ? { teamId: ctx.state.workspace.team.id, appId: app.id } : undefined;
}

/**
 * The scope headers the platform puts on every answer of a method called with a token, errors included:
 * the token's scopes (when the token is known, whatever its state) and the scopes the method accepts for
 * its kind. The official JavaScript client reads them into response_metadata.scopes and acceptedScopes.
 */
function scopeHeaders(ctx: RequestContext, definition: MethodDefinition, token: string | undefined): Record<string, string> {
  const record = token ? ctx.state.tokens.get(token) : undefined;
  const installation = record ? ctx.state.installations.get(record.installationId) : undefined;
  const family = record?.family ?? "bot";
  const headers: Record<string, string> = {};
  if (installation && record?.kind !== "refresh") {
    headers["x-oauth-scopes"] = (family === "bot" ? installation.botScopes : installation.userScopes).join(",");
  }
  const accepted = family === "bot" ? definition.scopes?.bot : definition.scopes?.user;
  if (accepted) headers["x-accepted-oauth-scopes"] = accepted.join(",");
  return headers;
}

export async function handleWebApi(ctx: RequestContext, methodName: string): Promise<Response> {
  const definition = findMethod(methodName);
  // The platform answers an unknown method with HTTP 200 and unknown_method, like any other error.
  if (!definition) throw new WebApiError("unknown_method");

  // Scheduled messages whose time has come are posted before any call reads or writes anything.
  deliverScheduledMessages(ctx);
  const params = await readParams(ctx.request, { acceptsJson: definition.json === true });
  const token = readToken(ctx.request, params);
  const warning = charsetWarning(ctx.request);
  try {
    return await callMethod(ctx, definition, params, token, warning);
  } catch (error) {
    if (error instanceof WebApiError && definition.auth === "token") Object.assign(error.headers, scopeHeaders(ctx, definition, token), { ...error.headers });
    // A refusal carries the charset warning too (the platform's errors do), except a rate limit's 429.
    // (A new error: an error's extra may be a shared constant.)
    if (error instanceof WebApiError && warning && error.status === 200) {
      throw new WebApiError(error.code, withWarning(error.extra, warning), { status: error.status, headers: error.headers });
    }
    throw error;
  }
}

async function callMethod(
  ctx: RequestContext,
  definition: MethodDefinition,
  rawParams: Record<string, string>,
  token: string | undefined,
  warning: ReturnType<typeof charsetWarning>,
): Promise<Response> {
  const rateScope = rateScopeOf(ctx, token, rawParams);
  if (rateScope) enforceMethodRateLimit(ctx.state, definition, rateScope, ctx.clock.now(), rawParams);
  const params = applyRateLimitProfile(ctx.state, definition.name, rawParams);

  let caller: Caller | null = null;
  let clientApp: App | null = null;
  let developer: ConfigTokenRecord | null = null;
  if (definition.auth === "token") {
    caller = resolveCaller(ctx, token);
    checkScopes(definition, caller);
  } else if (definition.auth === "client") {
    clientApp = requireClientApp(ctx.state, readClientCredentials(ctx.request, params));
  } else if (definition.auth === "config") {
    developer = requireConfigToken(ctx.state, token, ctx.clock.now());
  }

  const ws = workspaceOf(ctx.state, caller?.installation.teamId ?? developer?.teamId);
  const methodCtx: MethodContext = { ...ctx, params, token, caller, clientApp, developer, ws };
  const body = await definition.handler(methodCtx);
  const answer = { ok: true, ...body };
  return jsonResponse(warning ? withWarning(answer, warning) : answer, 200, caller ? scopeHeaders(ctx, definition, token) : {});
}
