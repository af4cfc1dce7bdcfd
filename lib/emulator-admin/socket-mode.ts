import "server-only";
import { callEmulatorAdmin, type AdminTarget } from "./transport";
import {
  AppTokensAnswerWire,
  ConnectionsAnswerWire,
  DisconnectAnswerWire,
  NewAppTokenAnswerWire,
  SocketModeAnswerWire,
  type AppLevelTokenWire,
  type NewAppTokenAnswerWire as NewAppToken,
} from "./universal/schemas";

/**
 * The console's client of the emulator's Socket Mode admin routes (lib/emulator/socket-mode/admin-routes.ts),
 * as the platform's "Basic Information" (app-level tokens) and "Socket Mode" pages: one function per
 * operation, each answer parsed with its schema. A refusal is relayed with the emulator's own code.
 */

const appPath = (appId: string, rest: string) => `apps/${encodeURIComponent(appId)}/${rest}`;

/** GET /admin/apps/{app_id}/app-tokens: the app's app-level tokens, masked, revoked ones included. */
export async function listEmulatorAppTokens(target: AdminTarget, appId: string): Promise<AppLevelTokenWire[]> {
  return (await callEmulatorAdmin(target, appPath(appId, "app-tokens"), AppTokensAnswerWire)).tokens;
}

/** POST /admin/apps/{app_id}/app-tokens: a new app-level token, in clear this once (409 name_taken relayed). */
export function generateEmulatorAppToken(target: AdminTarget, appId: string, token: { name: string; scopes: string[] }): Promise<NewAppToken> {
  return callEmulatorAdmin(target, appPath(appId, "app-tokens"), NewAppTokenAnswerWire, token);
}

/** POST /admin/apps/{app_id}/app-tokens/revoke: the tokens after (404 token_not_found relayed). */
export async function revokeEmulatorAppToken(target: AdminTarget, appId: string, name: string): Promise<AppLevelTokenWire[]> {
  return (await callEmulatorAdmin(target, appPath(appId, "app-tokens/revoke"), AppTokensAnswerWire, { name })).tokens;
}

/** POST /admin/apps/{app_id}/socket-mode: HTTP or Socket Mode; off tells the open connections link_disabled. */
export async function switchEmulatorSocketMode(target: AdminTarget, appId: string, enabled: boolean): Promise<boolean> {
  return (await callEmulatorAdmin(target, appPath(appId, "socket-mode"), SocketModeAnswerWire, { enabled })).socket_mode_enabled;
}

/** GET /admin/apps/{app_id}/connections: the switch and the app's open connections. */
export function listEmulatorConnections(target: AdminTarget, appId: string) {
  return callEmulatorAdmin(target, appPath(appId, "connections"), ConnectionsAnswerWire);
}

/** POST /admin/apps/{app_id}/connections/disconnect: `disconnect` to one connection or each; how many were told. */
export async function disconnectEmulatorConnections(target: AdminTarget, appId: string, request: { reason: string; connection_id?: string }): Promise<number> {
  return (await callEmulatorAdmin(target, appPath(appId, "connections/disconnect"), DisconnectAnswerWire, request)).connections;
}
