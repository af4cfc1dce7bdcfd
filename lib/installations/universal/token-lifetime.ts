/**
 * How long the platform lets a rotating access token live: 12 hours (spec 3). No answer of the console
 * claims a token lives longer, whatever its stored expiry says (an expiry read against a platform clock
 * that has since gone back would otherwise show "expires in 37h").
 */
export const PLATFORM_TOKEN_LIFETIME_MS = 12 * 3600 * 1000;

/** The expiry to show or serve: the stored one, never more than the platform's lifetime after `nowMs`. */
export function cappedExpiry(expiresAt: number, nowMs: number): number {
  return Math.min(expiresAt, nowMs + PLATFORM_TOKEN_LIFETIME_MS);
}
