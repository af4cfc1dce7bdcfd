import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { appKeySchema } from "@/lib/installations/record";
import type { AppKey } from "@/lib/installations/universal/view";
import { readSealedCookie, writeSealedCookie } from "@/lib/http/sealed-cookie";

export const OAUTH_STATE_COOKIE = "sb_oauth_state";
export const STATE_TTL_S = 600;
/** The cookie outlives its states, so a late callback is told "expired" or "replayed" rather than "missing". */
const COOKIE_TTL_S = 3 * STATE_TTL_S;
const REMEMBER_MS = (COOKIE_TTL_S - STATE_TTL_S) * 1000;
/** Installs started in other tabs that may still come back. */
const MAX_PENDING = 5;
const MAX_USED = 5;

interface PendingState {
  /** sha256 of the state: the cookie never needs the value itself. */
  hash: string;
  expiresAt: number;
  appKey: AppKey;
}

interface UsedState {
  hash: string;
  expiresAt: number;
}

export interface OAuthStateCookie {
  pending: PendingState[];
  used: UsedState[];
}

const oauthStateCookieSchema = z.object({
  pending: z.array(z.object({ hash: z.string(), expiresAt: z.number(), appKey: appKeySchema })),
  used: z.array(z.object({ hash: z.string(), expiresAt: z.number() })),
}) satisfies z.ZodType<OAuthStateCookie>;

export type StateProblem = "missing" | "mismatched" | "expired" | "replayed";

export type StateCheck = { ok: true; appKey: AppKey } | { ok: false; problem: StateProblem };

/** base64url rather than hex: ten hashes in the cookie take 210 bytes less, which the installations' timelines use. */
const hashState = (state: string) => createHash("sha256").update(state).digest("base64url");

/** A stored hash's bytes: base64url, or hex in a cookie written before (its 64 characters say which). */
const hashBytes = (hash: string) => Buffer.from(hash, /^[0-9a-f]{64}$/.test(hash) ? "hex" : "base64url");

function sameHash(a: string, b: string) {
  const x = hashBytes(a);
  const y = hashBytes(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function readStates(): Promise<OAuthStateCookie> {
  const stored = await readSealedCookie(OAUTH_STATE_COOKIE, oauthStateCookieSchema);
  return { pending: stored?.pending ?? [], used: stored?.used ?? [] };
}

/**
 * A new state for an install: 256 random bits, remembered (hashed) in a sealed HttpOnly cookie of this
 * browser for 10 minutes, so that only this browser can complete the install it started.
 */
export async function createOAuthState(appKey: AppKey, nowMs: number): Promise<string> {
  const state = randomBytes(32).toString("base64url");
  const current = await readStates();
  const pending = [
    ...current.pending.filter((p) => p.expiresAt + REMEMBER_MS > nowMs),
    { hash: hashState(state), expiresAt: nowMs + STATE_TTL_S * 1000, appKey },
  ].slice(-MAX_PENDING);
  const used = current.used.filter((u) => u.expiresAt + REMEMBER_MS > nowMs);
  await writeSealedCookie(OAUTH_STATE_COOKIE, { pending, used } satisfies OAuthStateCookie, COOKIE_TTL_S);
  return state;
}

/**
 * Checks the state a callback brought back against this browser's cookie and consumes it: a state is
 * good once. A used state is remembered for its remaining lifetime so a replay is named as one.
 */
export async function consumeOAuthState(state: string | null, nowMs: number): Promise<StateCheck> {
  if (!state) return { ok: false, problem: "missing" };
  const current = await readStates();
  if (current.pending.length === 0 && current.used.length === 0) return { ok: false, problem: "missing" };
  const hash = hashState(state);
  if (current.used.some((u) => sameHash(u.hash, hash))) return { ok: false, problem: "replayed" };
  const match = current.pending.find((p) => sameHash(p.hash, hash));
  if (!match) return { ok: false, problem: "mismatched" };
  const pending = current.pending.filter((p) => p !== match && p.expiresAt + REMEMBER_MS > nowMs);
  const used = [...current.used.filter((u) => u.expiresAt + REMEMBER_MS > nowMs), { hash, expiresAt: match.expiresAt }].slice(-MAX_USED);
  await writeSealedCookie(OAUTH_STATE_COOKIE, { pending, used } satisfies OAuthStateCookie, COOKIE_TTL_S);
  if (match.expiresAt <= nowMs) return { ok: false, problem: "expired" };
  return { ok: true, appKey: match.appKey };
}
