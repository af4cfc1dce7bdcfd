/**
 * Rate limits per method tier, per workspace and app: numbers that spec 8 (docs/spec/web-api.md) leaves
 * "not shown". Off by default; POST /admin/rate-limits or the rateLimits option turns them on. The
 * platform publishes each tier as "N+ per minute"; the emulator allows exactly N calls in any 60-second
 * window, so a client that ignores Retry-After is caught.
 */
import { WebApiError } from "../core/errors";
import type { EmulatorState, RateTier } from "../types";

const WINDOW_MS = 60_000;

/** Calls per minute per tier. "special" methods (auth.test, oauth.v2.access) allow hundreds. */
export const TIER_LIMITS_PER_MINUTE: Record<`${RateTier}`, number> = {
  "1": 1,
  "2": 20,
  "3": 50,
  "4": 100,
  special: 600,
};

/**
 * Records one call under `key`. Returns 0 when it is allowed, otherwise the seconds to wait
 * (Retry-After), without recording the refused call.
 */
export function consumeRateLimit(state: EmulatorState, key: string, perMinute: number, now: number): number {
  const recent = (state.rateWindows.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
  if (recent.length >= perMinute) {
    state.rateWindows.set(key, recent);
    const oldest = recent[0] ?? now;
    return Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
  }
  recent.push(now);
  state.rateWindows.set(key, recent);
  return 0;
}

/**
 * Throws the platform's rate-limit answer (HTTP 429, Retry-After, {"ok":false,"error":"ratelimited"})
 * when a Web API method is over its tier for this workspace and app. A no-op while limits are off.
 */
export function enforceMethodRateLimit(
  state: EmulatorState,
  method: { name: string; tier: RateTier },
  scope: { teamId: string; appId: string },
  now: number,
): void {
  if (!state.rateLimitsEnabled) return;
  const key = `${method.name}:${scope.teamId}:${scope.appId}`;
  const retryAfter = consumeRateLimit(state, key, TIER_LIMITS_PER_MINUTE[`${method.tier}`], now);
  if (retryAfter > 0) {
    throw new WebApiError("ratelimited", {}, { status: 429, headers: { "retry-after": String(retryAfter) } });
  }
}
