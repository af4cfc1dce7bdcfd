import "server-only";
import { requireAdmin } from "@/lib/access/viewer";
import {
  disconnectEmulatorConnections,
  generateEmulatorAppToken,
  listEmulatorAppTokens,
  listEmulatorConnections,
  revokeEmulatorAppToken,
  switchEmulatorSocketMode,
} from "@/lib/emulator-admin/socket-mode";
import { AppError, isRelayedError } from "@/lib/http/app-error";
import { appNotFound } from "./backend";
import { adminTargetOf } from "./emulator-admin-backend";
import { viewerOf, type AppConfigRuntime } from "./runtime";
import { requireAppReader } from "./service";
import type { DisconnectReason, NewAppTokenAnswer, SocketModeView } from "./universal/socket-mode";

/**
 * The settings page's Socket Mode panel, as the platform's "Basic Information" (app-level tokens) and
 * "Socket Mode" pages: through the emulator's admin surface only. The platform's API has no method for
 * either, so against it the panel says where to make them instead. Read by whoever reads the app's
 * settings; changed by admins only, as every other setting of an app shared by every workspace.
 */

function emulatorOnly(runtime: AppConfigRuntime): boolean {
  return runtime.upstream.kind === "emulator";
}

/** The admin surface's app_not_found, as app settings say it; any other refusal as it came. */
function relayed(appId: string): (error: unknown) => never {
  return (error) => {
    throw isRelayedError(error, "app_not_found") ? appNotFound(appId, "in the emulator") : error;
  };
}

async function viewOf(appId: string, runtime: AppConfigRuntime): Promise<SocketModeView> {
  const target = adminTargetOf(runtime);
  const [tokens, open] = await Promise.all([listEmulatorAppTokens(target, appId), listEmulatorConnections(target, appId)]).catch(relayed(appId));
  return {
    available: true,
    appId,
    socketModeEnabled: open.socket_mode_enabled,
    tokens: tokens.map((t) => ({ name: t.name, scopes: t.scopes, masked: t.masked, createdAt: t.created_at, revokedAt: t.revoked_at })),
    connections: open.connections.map((c) => ({
      id: c.id,
      openedAt: c.opened_at,
      disconnectSent: c.disconnect_sent,
      envelopesSent: c.envelopes_sent,
      awaitingAck: c.awaiting_ack,
    })),
  };
}

/** GET /api/app-config/apps/{appId}/socket-mode */
export async function getSocketMode(appId: string, runtime: AppConfigRuntime): Promise<SocketModeView> {
  await requireAppReader(appId, runtime);
  if (!emulatorOnly(runtime)) return { available: false, appId };
  return viewOf(appId, runtime);
}

/** Admins only, and only against the emulator: the platform's own pages are where these are changed. */
function requireChange(action: string, runtime: AppConfigRuntime): void {
  requireAdmin(viewerOf(runtime), action);
  if (!emulatorOnly(runtime)) throw new AppError("not_emulator");
}

/**
 * POST /api/app-config/apps/{appId}/app-tokens: a new app-level token. Its value is in this one answer to the
 * admin who asked, never stored by the console nor listed again (the emulator lists it masked).
 */
export async function generateAppToken(appId: string, request: { name: string; scopes: string[] }, runtime: AppConfigRuntime): Promise<NewAppTokenAnswer> {
  requireChange("generate an app-level token", runtime);
  const made = await generateEmulatorAppToken(adminTargetOf(runtime), appId, request).catch(relayed(appId));
  return { ok: true, name: made.name, scopes: made.scopes, token: made.token, socketMode: await viewOf(appId, runtime) };
}

/** POST /api/app-config/apps/{appId}/app-tokens/revoke */
export async function revokeAppToken(appId: string, name: string, runtime: AppConfigRuntime): Promise<SocketModeView> {
  requireChange("revoke an app-level token", runtime);
  await revokeEmulatorAppToken(adminTargetOf(runtime), appId, name).catch(relayed(appId));
  return viewOf(appId, runtime);
}

/** POST /api/app-config/apps/{appId}/socket-mode: HTTP or Socket Mode for every event and interaction. */
export async function switchSocketMode(appId: string, enabled: boolean, runtime: AppConfigRuntime): Promise<SocketModeView> {
  requireChange("switch an app's Socket Mode", runtime);
  await switchEmulatorSocketMode(adminTargetOf(runtime), appId, enabled).catch(relayed(appId));
  return viewOf(appId, runtime);
}

/** POST /api/app-config/apps/{appId}/connections/disconnect: `disconnect` to one connection or each, to test reconnects. */
export async function disconnectConnections(
  appId: string,
  request: { reason: DisconnectReason; connectionId?: string },
  runtime: AppConfigRuntime,
): Promise<SocketModeView> {
  requireChange("disconnect an app's Socket Mode connections", runtime);
  const body = { reason: request.reason, ...(request.connectionId ? { connection_id: request.connectionId } : {}) };
  await disconnectEmulatorConnections(adminTargetOf(runtime), appId, body).catch(relayed(appId));
  return viewOf(appId, runtime);
}
