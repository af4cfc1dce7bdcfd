/**
 * App-level tokens (`xapp-1-…`): made per app on its settings page (here, the admin surface), not by OAuth.
 * They belong to the app, not to an installation, and carry their own scopes: `connections:write` opens Socket
 * Mode connections (apps.connections.open). Kept in the state by value (`state.appTokens`), so the journal
 * saves them like every other token. A token's name is unique per app, as on the platform's page.
 */
import { randomBytes } from "node:crypto";
import { WebApiError } from "../core/errors";
import { touch } from "../core/change-tracking";
import { maskToken, randomDigits } from "../tokens/tokens";
import type { App, AppTokenRecord, EmulatorState } from "../types";

/** The scopes an app-level token may carry (the platform's page offers these three). */
export const APP_TOKEN_SCOPES = ["connections:write", "authorizations:read", "app_configurations:write"] as const;

/** The app-level token a value names, if it is one (active or revoked). */
export function findAppToken(state: EmulatorState, value: string | undefined): AppTokenRecord | undefined {
  return value?.startsWith("xapp-") ? state.appTokens.get(value) : undefined;
}

export interface NewAppToken {
  name: string;
  scopes: string[];
}

/** Makes an app-level token; a name the app already uses for an active token is refused (409). */
export function issueAppToken(state: EmulatorState, app: App, request: NewAppToken, now: number): AppTokenRecord {
  const name = request.name.trim();
  if (name === "") throw new WebApiError("invalid_name", { message: "An app-level token needs a name." }, { status: 400 });
  const unknown = request.scopes.filter((s) => !(APP_TOKEN_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0 || request.scopes.length === 0) {
    throw new WebApiError(
      "invalid_scope",
      { message: `An app-level token's scopes are among ${APP_TOKEN_SCOPES.join(", ")}.`, invalid: unknown },
      { status: 400 },
    );
  }
  for (const token of state.appTokens.values()) {
    if (token.appId === app.id && token.name === name && token.revokedAt === undefined) {
      throw new WebApiError("name_taken", { message: `This app already has a token named "${name}".` }, { status: 409 });
    }
  }
  const record: AppTokenRecord = {
    value: `xapp-1-${app.id}-${randomDigits(13)}-${randomBytes(32).toString("hex")}`,
    appId: app.id,
    name,
    scopes: [...new Set(request.scopes)],
    createdAt: now,
  };
  state.appTokens.set(record.value, record);
  return record;
}

/** Revokes the app's active token of that name; false when there is none. */
export function revokeAppToken(state: EmulatorState, appId: string, name: string, now: number): AppTokenRecord | undefined {
  for (const token of state.appTokens.values()) {
    if (token.appId === appId && token.name === name && token.revokedAt === undefined) {
      token.revokedAt = now;
      touch(token);
      return token;
    }
  }
  return undefined;
}

/** The app's tokens as its settings page lists them: masked, newest last. */
export function describeAppTokens(state: EmulatorState, appId: string) {
  return [...state.appTokens.values()]
    .filter((t) => t.appId === appId)
    .map((t) => ({
      name: t.name,
      scopes: t.scopes,
      masked: maskToken(t.value),
      created_at: new Date(t.createdAt).toISOString(),
      revoked_at: t.revokedAt === undefined ? null : new Date(t.revokedAt).toISOString(),
    }));
}
