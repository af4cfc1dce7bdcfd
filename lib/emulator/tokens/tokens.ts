/**
 * Tokens: issue, look up, revoke, and mask. Values follow the platform's prefixes:
 * long-lived xoxb-… (bot) and xoxp-… (user); with rotation xoxe.xoxb-… / xoxe.xoxp-… access tokens
 * that expire after 43200 s and xoxe-… single-use refresh tokens; their states and limits are spec 3
 * and 8 (docs/spec/web-api.md).
 */
import { randomBytes } from "node:crypto";
import { WebApiError } from "../core/errors";
import type { EmulatorState, Installation, TokenRecord, TokenState } from "../types";
import { touch } from "../core/change-tracking";

/** Access token lifetime under rotation: 12 hours, always (spec 2.1, 8). */
export const EXPIRING_TOKEN_LIFETIME_S = 43_200;
/** Active access tokens per installation and kind when refreshing repeatedly (spec 3, 8). */
export const MAX_ACTIVE_ACCESS_TOKENS = 2;

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function randomAlphanumeric(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const byte of bytes) out += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  return out;
}

export function randomDigits(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const byte of bytes) out += String(byte % 10);
  return out.replace(/^0/, "1");
}

export function newTokenValue(kind: TokenRecord["kind"], family: "bot" | "user", rotating: boolean): string {
  if (kind === "refresh") return `xoxe-1-${randomAlphanumeric(96)}`;
  if (rotating) return `xoxe.${family === "bot" ? "xoxb" : "xoxp"}-1-${randomAlphanumeric(96)}`;
  if (family === "bot") return `xoxb-${randomDigits(12)}-${randomDigits(13)}-${randomAlphanumeric(24)}`;
  return `xoxp-${randomDigits(12)}-${randomDigits(12)}-${randomDigits(13)}-${randomBytes(16).toString("hex")}`;
}

/** The state a token is in now: stored state, unless time has run out. */
export function tokenState(record: TokenRecord, now: number): TokenState {
  if (record.state !== "active") return record.state;
  if (record.expiresAt !== undefined && now >= record.expiresAt) return "expired";
  return "active";
}

/** Whether a used refresh token's grace period is over (it then counts as revoked). */
export function isRefreshGraceOver(record: Pick<TokenRecord, "usedAt">, now: number, graceSeconds: number): boolean {
  return record.usedAt !== undefined && now - record.usedAt > graceSeconds * 1000;
}

/** What the admin surface shows for a token's state. */
export function displayedTokenState(record: TokenRecord, now: number, graceSeconds: number): TokenState {
  if (record.kind === "refresh" && record.state === "active" && isRefreshGraceOver(record, now, graceSeconds)) {
    return "revoked";
  }
  return tokenState(record, now);
}

export interface IssueOptions {
  kind: TokenRecord["kind"];
  family: "bot" | "user";
  rotating: boolean;
  now: number;
  /** The user family's member; the installation's latest installer by default. */
  userId?: string;
}

export function issueToken(state: EmulatorState, installation: Installation, options: IssueOptions): TokenRecord {
  const { kind, family, rotating, now } = options;
  const userId = family === "user" ? (options.userId ?? installation.authedUserId) : undefined;
  let value = newTokenValue(kind, family, rotating);
  while (state.tokens.has(value)) value = newTokenValue(kind, family, rotating);
  const record: TokenRecord = {
    value,
    kind,
    family,
    installationId: installation.id,
    appId: installation.appId,
    teamId: installation.teamId,
    ...(userId ? { userId } : {}),
    rotating,
    state: "active",
    issuedAt: now,
    ...(kind !== "refresh" && rotating ? { expiresAt: now + EXPIRING_TOKEN_LIFETIME_S * 1000 } : {}),
  };
  state.tokens.set(value, record);
  indexIssued(state, record);
  return record;
}

/**
 * Each installation's tokens, beside the state's token map: what a refresh looks at (the active-token limit)
 * without walking every token of the platform. At 100,000 installations that walk was 400,000 tokens and more
 * per refresh, the emulator's whole cost of a refresh drain. Kept per token map (a reset or a load makes a new
 * one, indexed anew when first asked), grown by issueToken; a token put in the map another way shows as a size
 * the index did not count, and the index is built again.
 */
interface TokenIndex {
  size: number;
  byInstallation: Map<string, TokenRecord[]>;
}
const tokenIndexes = new WeakMap<Map<string, TokenRecord>, TokenIndex>();

function indexIssued(state: EmulatorState, record: TokenRecord): void {
  const index = tokenIndexes.get(state.tokens);
  if (!index || index.size !== state.tokens.size - 1) return;
  index.size++;
  const list = index.byInstallation.get(record.installationId);
  if (list) list.push(record);
  else index.byInstallation.set(record.installationId, [record]);
}

/** The tokens of one installation (of every kind and state), in the order they were issued. */
export function installationTokens(state: EmulatorState, installationId: string): readonly TokenRecord[] {
  let index = tokenIndexes.get(state.tokens);
  if (!index || index.size !== state.tokens.size) {
    index = { size: state.tokens.size, byInstallation: new Map() };
    for (const record of state.tokens.values()) {
      const list = index.byInstallation.get(record.installationId);
      if (list) list.push(record);
      else index.byInstallation.set(record.installationId, [record]);
    }
    tokenIndexes.set(state.tokens, index);
  }
  return index.byInstallation.get(installationId) ?? [];
}

/** An expiring access token and its refresh token. */
export interface TokenPair {
  access: TokenRecord;
  refresh: TokenRecord;
}

/** A pair for the installation's bot, or for a member (userId: the installation's latest installer by default). */
export function issueRotatingPair(state: EmulatorState, installation: Installation, family: "bot" | "user", now: number, userId?: string): TokenPair {
  const whose = userId ? { userId } : {};
  return {
    access: issueToken(state, installation, { kind: family, family, rotating: true, now, ...whose }),
    refresh: issueToken(state, installation, { kind: "refresh", family, rotating: true, now, ...whose }),
  };
}

export function revokeToken(record: TokenRecord, now: number): void {
  if (record.state === "revoked") return;
  record.state = "revoked";
  record.revokedAt = now;
  touch(record);
}

/** Revokes every token of an installation (auth.revoke without rotation, apps.uninstall). */
export function revokeInstallationTokens(state: EmulatorState, installationId: string, now: number): void {
  for (const record of installationTokens(state, installationId)) {
    if (record.state !== "revoked") revokeToken(record, now);
  }
}

/**
 * Keeps at most MAX_ACTIVE_ACCESS_TOKENS usable expiring access tokens of one kind in an installation (of
 * one member, for user tokens: each member's are theirs) by revoking the oldest extra ones. A long-lived
 * token is not counted: after rotation is turned on it must stay usable until it is exchanged (spec section 3, row 1).
 */
export function enforceActiveTokenLimit(state: EmulatorState, installationId: string, family: "bot" | "user", now: number, userId?: string): void {
  const active = installationTokens(state, installationId)
    .filter((t) => t.kind === family && (family === "bot" || t.userId === userId) && t.rotating && tokenState(t, now) === "active")
    .sort((a, b) => a.issuedAt - b.issuedAt);
  for (const extra of active.slice(0, Math.max(0, active.length - MAX_ACTIVE_ACCESS_TOKENS))) {
    revokeToken(extra, now);
  }
}

/**
 * Resolves the token of a Web API call, with the platform's errors: none → not_authed, unknown →
 * invalid_auth, expired → token_expired, revoked → token_revoked. A long-lived token that was
 * exchanged "expires" (spec section 3), so it answers token_expired. Refresh tokens are not access
 * tokens: invalid_auth.
 */
export function requireAccessToken(state: EmulatorState, value: string | undefined, now: number): TokenRecord {
  if (!value) throw new WebApiError("not_authed");
  const record = state.tokens.get(value);
  if (!record || record.kind === "refresh") throw new WebApiError("invalid_auth");
  const current = tokenState(record, now);
  if (current === "revoked") throw new WebApiError("token_revoked");
  if (current === "expired" || current === "exchanged") throw new WebApiError("token_expired");
  return record;
}

/** Seconds until an expiring token expires (rounded down, never negative). */
export function secondsUntilExpiry(record: TokenRecord, now: number): number | undefined {
  if (record.expiresAt === undefined) return undefined;
  // Rounded up: a token issued a few milliseconds before the response is read still says 43200 (spec 2.1).
  return Math.max(0, Math.ceil((record.expiresAt - now) / 1000));
}

/** "xoxe.xoxb-…K3f9": the prefix and the last four characters, never more. */
export function maskToken(value: string): string {
  const prefix = /^(xoxe\.xox[bp]-|xox[a-z]-|xoxe-|xapp-1-)/.exec(value)?.[0] ?? "";
  return `${prefix}…${value.slice(-4)}`;
}
