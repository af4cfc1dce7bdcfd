import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { isAppError } from "@/lib/http/app-error";
import { deleteCookie, readSealedCookie, writeSealedCookie } from "@/lib/http/sealed-cookie";

export const SIGN_IN_STATE_COOKIE = "sb_signin_state";
/** A sign-in must come back within this long, as an install must. */
export const SIGN_IN_STATE_TTL_S = 600;
/** The cookie outlives its states, so a late callback is told "expired" or "replayed" rather than "missing". */
const COOKIE_TTL_S = 3 * SIGN_IN_STATE_TTL_S;
const REMEMBER_MS = (COOKIE_TTL_S - SIGN_IN_STATE_TTL_S) * 1000;
/** Sign-ins started in other tabs that may still come back. */
const MAX_PENDING = 5;
const MAX_USED = 5;

const cookieSchema = z.object({
  pending: z.array(
    z.object({
      hash: z.string(),
      /** Sealed with the cookie, so only this server reads it; the ID token must carry it back. */
      nonce: z.string(),
      expiresAt: z.number(),
      /** The console page the person was on when sent to sign in. */
      returnTo: z.string(),
    }),
  ),
  used: z.array(z.object({ hash: z.string(), expiresAt: z.number() })),
});
type SignInStateCookie = z.infer<typeof cookieSchema>;

export type SignInStateProblem = "missing" | "mismatched" | "expired" | "replayed";
export type SignInStateCheck = { ok: true; nonce: string; returnTo: string } | { ok: false; problem: SignInStateProblem };

const hashOf = (value: string) => createHash("sha256").update(value).digest("base64url");

function sameHash(a: string, b: string) {
  const x = Buffer.from(a, "base64url");
  const y = Buffer.from(b, "base64url");
  return x.length === y.length && timingSafeEqual(x, y);
}

async function readStates(): Promise<SignInStateCookie> {
  const stored = await readSealedCookie(SIGN_IN_STATE_COOKIE, cookieSchema);
  return { pending: stored?.pending ?? [], used: stored?.used ?? [] };
}

/**
 * A new sign-in's state and nonce: 256 random bits each, remembered in a sealed HttpOnly cookie of this
 * browser (the state hashed) for 10 minutes, so only this browser can complete the sign-in it started.
 */
export async function createSignInState(returnTo: string, nowMs: number): Promise<{ state: string; nonce: string }> {
  const state = randomBytes(32).toString("base64url");
  const nonce = randomBytes(32).toString("base64url");
  const current = await readStates();
  const pending = [
    ...current.pending.filter((p) => p.expiresAt + REMEMBER_MS > nowMs),
    { hash: hashOf(state), nonce, expiresAt: nowMs + SIGN_IN_STATE_TTL_S * 1000, returnTo },
  ].slice(-MAX_PENDING);
  const used = current.used.filter((u) => u.expiresAt + REMEMBER_MS > nowMs);
  await writeFitting({ pending, used });
  return { state, nonce };
}

/**
 * Writes the states, making room when they do not fit in one cookie (long return paths, from links anyone
 * can send): the oldest pending sign-ins go first, then the memory of used states, and last the new
 * sign-in's return path becomes the dashboard. A sign-in always starts; it never answers cookie_too_large.
 */
async function writeFitting(states: SignInStateCookie): Promise<void> {
  let { pending, used } = states;
  for (;;) {
    try {
      await writeSealedCookie(SIGN_IN_STATE_COOKIE, { pending, used } satisfies SignInStateCookie, COOKIE_TTL_S);
      return;
    } catch (error) {
      if (!isAppError(error) || error.code !== "cookie_too_large") throw error;
      if (pending.length > 1) pending = pending.slice(1);
      else if (used.length > 0) used = [];
      else if (pending[0] && pending[0].returnTo !== "/") pending = [{ ...pending[0], returnTo: "/" }];
      else throw error;
    }
  }
}

/** Forgets every sign-in this browser started (sign-out). */
export async function clearSignInStates(): Promise<void> {
  await deleteCookie(SIGN_IN_STATE_COOKIE);
}

/** Checks the state a callback brought back against this browser's cookie and consumes it: a state is good once. */
export async function consumeSignInState(state: string | null, nowMs: number): Promise<SignInStateCheck> {
  if (!state) return { ok: false, problem: "missing" };
  const current = await readStates();
  if (current.pending.length === 0 && current.used.length === 0) return { ok: false, problem: "missing" };
  const hash = hashOf(state);
  if (current.used.some((u) => sameHash(u.hash, hash))) return { ok: false, problem: "replayed" };
  const match = current.pending.find((p) => sameHash(p.hash, hash));
  if (!match) return { ok: false, problem: "mismatched" };
  const pending = current.pending.filter((p) => p !== match && p.expiresAt + REMEMBER_MS > nowMs);
  const used = [...current.used.filter((u) => u.expiresAt + REMEMBER_MS > nowMs), { hash, expiresAt: match.expiresAt }].slice(-MAX_USED);
  await writeFitting({ pending, used });
  if (match.expiresAt <= nowMs) return { ok: false, problem: "expired" };
  return { ok: true, nonce: match.nonce, returnTo: match.returnTo };
}
