/**
 * App configuration tokens: what a developer generates per workspace on the platform's "Your Apps" page
 * to call the App Manifest API. A pair: an access token `xoxe.xoxp-1-…` that expires 12 hours after it
 * was issued, and a refresh token `xoxe-1-…` that tooling.tokens.rotate exchanges once for a new pair.
 * They belong to a member of a workspace, not to an app or an installation, so they are kept apart from
 * the OAuth tokens (state.configTokens), and each kind of token is refused where the other is expected.
 */
import { WebApiError } from "../core/errors";
import { isRefreshGraceOver, maskToken, randomAlphanumeric, requireAccessToken } from "./tokens";
import type { ConfigTokenRecord, EmulatorState } from "../types";
import { touch } from "../core/change-tracking";

/** The platform's lifetime of an app configuration token: 12 hours. */
export const CONFIG_TOKEN_LIFETIME_S = 43_200;

export interface ConfigTokenPair {
  access: ConfigTokenRecord;
  refresh: ConfigTokenRecord;
}

function newValue(state: EmulatorState, kind: ConfigTokenRecord["kind"]): string {
  const make = () => (kind === "access" ? `xoxe.xoxp-1-${randomAlphanumeric(96)}` : `xoxe-1-${randomAlphanumeric(96)}`);
  let value = make();
  while (state.configTokens.has(value) || state.tokens.has(value)) value = make();
  return value;
}

/** Issues a pair to a member of a workspace, as "Generate Token" on the platform's "Your Apps" page does. */
export function issueConfigTokens(state: EmulatorState, owner: { teamId: string; userId: string }, now: number): ConfigTokenPair {
  const access: ConfigTokenRecord = {
    value: newValue(state, "access"),
    kind: "access",
    ...owner,
    issuedAt: now,
    expiresAt: now + CONFIG_TOKEN_LIFETIME_S * 1000,
  };
  const refresh: ConfigTokenRecord = { value: newValue(state, "refresh"), kind: "refresh", ...owner, issuedAt: now };
  state.configTokens.set(access.value, access);
  state.configTokens.set(refresh.value, refresh);
  return { access, refresh };
}

/**
 * tooling.tokens.rotate: a refresh token for a new pair. The refresh token is single use; as with the
 * OAuth refresh tokens, a second use within the grace period replays the same new pair (a client that lost
 * the answer keeps its tokens), afterwards, or once that pair's refresh token was used, invalid_refresh_token.
 * The old access token is left alone: it works until its own 12 hours are over.
 */
export function rotateConfigToken(state: EmulatorState, refreshToken: string | undefined, now: number, graceSeconds: number): ConfigTokenPair {
  const record = refreshToken ? state.configTokens.get(refreshToken) : undefined;
  if (!record || record.kind !== "refresh") throw new WebApiError("invalid_refresh_token");
  if (record.usedAt !== undefined) {
    const replayed = record.replacement && pairOf(state, record.replacement);
    if (!replayed || isRefreshGraceOver(record, now, graceSeconds) || replayed.refresh.usedAt !== undefined) {
      throw new WebApiError("invalid_refresh_token");
    }
    return replayed;
  }
  const pair = issueConfigTokens(state, { teamId: record.teamId, userId: record.userId }, now);
  record.usedAt = now;
  record.replacement = { token: pair.access.value, refreshToken: pair.refresh.value };
  touch(record);
  return pair;
}

function pairOf(state: EmulatorState, replacement: { token: string; refreshToken: string }): ConfigTokenPair | undefined {
  const access = state.configTokens.get(replacement.token);
  const refresh = state.configTokens.get(replacement.refreshToken);
  return access && refresh ? { access, refresh } : undefined;
}

/** The platform's answer for a pair (tooling.tokens.rotate, and the admin route that issues one): times in epoch seconds. */
export function configTokenAnswer(pair: ConfigTokenPair) {
  return {
    token: pair.access.value,
    refresh_token: pair.refresh.value,
    team_id: pair.access.teamId,
    user_id: pair.access.userId,
    iat: Math.floor(pair.access.issuedAt / 1000),
    exp: Math.floor((pair.access.expiresAt ?? pair.access.issuedAt) / 1000),
  };
}

function isExpired(record: ConfigTokenRecord, now: number): boolean {
  return record.expiresAt !== undefined && now >= record.expiresAt;
}

/**
 * The app configuration token of an apps.manifest.* call, with the platform's errors: none → not_authed;
 * unknown, or a refresh token → invalid_auth; expired → token_expired; a bot or user token (which is no
 * developer's) → its own error if it is dead, else not_allowed_token_type.
 */
export function requireConfigToken(state: EmulatorState, value: string | undefined, now: number): ConfigTokenRecord {
  if (!value) throw new WebApiError("not_authed");
  const record = state.configTokens.get(value);
  if (!record) {
    requireAccessToken(state, value, now);
    throw new WebApiError("not_allowed_token_type");
  }
  if (record.kind !== "access") throw new WebApiError("invalid_auth");
  if (isExpired(record, now)) throw new WebApiError("token_expired");
  return record;
}

/**
 * Refuses an app configuration token where an access token of an installation is expected (every method
 * but apps.manifest.*): token_expired once it expired, else not_allowed_token_type. A configuration
 * refresh token is no access token at all, and is left to answer invalid_auth like any unknown token.
 */
export function refuseConfigToken(state: EmulatorState, value: string | undefined, now: number): void {
  const record = value ? state.configTokens.get(value) : undefined;
  if (record?.kind !== "access") return;
  throw new WebApiError(isExpired(record, now) ? "token_expired" : "not_allowed_token_type");
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/** As for the OAuth tokens: a used refresh token shows as revoked once its grace period is over. */
function displayedState(record: ConfigTokenRecord, now: number, graceSeconds: number): "active" | "expired" | "revoked" {
  if (record.kind === "access") return isExpired(record, now) ? "expired" : "active";
  return isRefreshGraceOver(record, now, graceSeconds) ? "revoked" : "active";
}

/** What GET /admin/state shows of the app configuration tokens: masked, with their owner and times. */
export function describeConfigTokens(state: EmulatorState, now: number, graceSeconds: number) {
  return [...state.configTokens.values()].map((t) => ({
    kind: t.kind,
    masked: maskToken(t.value),
    state: displayedState(t, now, graceSeconds),
    team_id: t.teamId,
    user_id: t.userId,
    issued_at: iso(t.issuedAt),
    expires_at: iso(t.expiresAt),
    used_at: iso(t.usedAt),
  }));
}
