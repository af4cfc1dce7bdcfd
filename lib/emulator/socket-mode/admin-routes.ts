/**
 * Socket Mode on the admin surface, as on an app's "Basic Information" and "Socket Mode" settings pages:
 *
 * - GET  {base}/admin/apps/:app_id/app-tokens: the app-level tokens, masked
 * - POST {base}/admin/apps/:app_id/app-tokens `{"name", "scopes"?}`: a new token (default scope
 *   connections:write), its value shown this once
 * - POST {base}/admin/apps/:app_id/app-tokens/revoke `{"name"}`
 * - POST {base}/admin/apps/:app_id/socket-mode `{"enabled"}`: switches settings.socket_mode_enabled (turning it
 *   off sends `link_disabled` to the app's connections and closes them)
 * - GET  {base}/admin/apps/:app_id/connections: the open connections
 * - POST {base}/admin/apps/:app_id/connections/disconnect `{"reason", "connection_id"?}`: sends `disconnect`
 */
import { z } from "zod";
import { parseAdminBody } from "../admin/admin-target";
import { upsertApp } from "../apps/registry";
import { WebApiError, jsonResponse } from "../core/errors";
import type { Router } from "../core/router";
import { usesSocketMode } from "../events/routing";
import type { App, EmulatorState, RequestContext, ResolvedOptions } from "../types";
import { APP_TOKEN_SCOPES, describeAppTokens, issueAppToken, revokeAppToken } from "./app-tokens";
import { DISCONNECT_REASONS, hubOf, type DisconnectReason } from "./hub";

const NewTokenBody = z.strictObject({
  name: z.string().min(1).max(100),
  scopes: z.array(z.enum(APP_TOKEN_SCOPES)).min(1).optional(),
});
const RevokeBody = z.strictObject({ name: z.string().min(1) });
const SocketModeBody = z.strictObject({ enabled: z.boolean() });
const DisconnectBody = z.strictObject({
  reason: z.enum(DISCONNECT_REASONS as [DisconnectReason, ...DisconnectReason[]]),
  connection_id: z.string().optional(),
});

async function body<T>(ctx: RequestContext, schema: z.ZodType<T>, parse: (text: string) => unknown): Promise<T> {
  return parseAdminBody(schema, parse(await ctx.request.text()));
}

function requireApp(state: EmulatorState, appId: string | undefined): App {
  const app = state.apps.get(appId ?? "");
  if (!app) throw new WebApiError("app_not_found", {}, { status: 404 });
  return app;
}

export function registerSocketModeAdminRoutes(
  router: Router,
  runtime: { state: EmulatorState; options: ResolvedOptions },
  parse: (text: string) => unknown,
): void {
  const { state } = runtime;
  const ok = (fields: Record<string, unknown>) => jsonResponse({ ok: true, ...fields });

  router.get("/admin/apps/:app_id/app-tokens", (_ctx, params) => {
    const app = requireApp(state, params.app_id);
    return ok({ app_id: app.id, tokens: describeAppTokens(state, app.id) });
  });

  router.post("/admin/apps/:app_id/app-tokens", async (ctx, params) => {
    const app = requireApp(state, params.app_id);
    const request = await body(ctx, NewTokenBody, parse);
    const record = issueAppToken(state, app, { name: request.name, scopes: request.scopes ?? ["connections:write"] }, ctx.clock.now());
    return ok({ app_id: app.id, name: record.name, scopes: record.scopes, token: record.value });
  });

  router.post("/admin/apps/:app_id/app-tokens/revoke", async (ctx, params) => {
    const app = requireApp(state, params.app_id);
    const { name } = await body(ctx, RevokeBody, parse);
    if (!revokeAppToken(state, app.id, name, ctx.clock.now())) throw new WebApiError("token_not_found", {}, { status: 404 });
    return ok({ app_id: app.id, tokens: describeAppTokens(state, app.id) });
  });

  router.post("/admin/apps/:app_id/socket-mode", async (ctx, params) => {
    const app = requireApp(state, params.app_id);
    const { enabled } = await body(ctx, SocketModeBody, parse);
    const manifest = structuredClone(app.manifest);
    manifest.settings = { ...manifest.settings, socket_mode_enabled: enabled };
    const { app: updated } = upsertApp(state, manifest, runtime.options, app.id);
    // The platform tells the app's open connections that Socket Mode is off for it; they must not reconnect.
    const told = enabled ? 0 : hubOf(state).disconnect(app.id, "link_disabled");
    return ok({ app_id: updated.id, socket_mode_enabled: usesSocketMode(updated), connections_disabled: told });
  });

  router.get("/admin/apps/:app_id/connections", (_ctx, params) => {
    const app = requireApp(state, params.app_id);
    return ok({ app_id: app.id, socket_mode_enabled: usesSocketMode(app), connections: hubOf(state).describe(app.id) });
  });

  router.post("/admin/apps/:app_id/connections/disconnect", async (ctx, params) => {
    const app = requireApp(state, params.app_id);
    const request = await body(ctx, DisconnectBody, parse);
    const told = hubOf(state).disconnect(app.id, request.reason, request.connection_id);
    if (request.connection_id !== undefined && told === 0) throw new WebApiError("connection_not_found", {}, { status: 404 });
    return ok({ app_id: app.id, reason: request.reason, connections: told });
  });
}
