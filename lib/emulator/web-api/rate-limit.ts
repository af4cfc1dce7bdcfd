/**
 * Rate limits per method tier, per workspace and app: numbers that spec 8 (docs/spec/web-api.md) leaves
 * "not shown". Off by default; POST /admin/rate-limits or the rateLimits option turns them on. The
 * platform publishes each tier as "N+ per minute", applied "per API method per workspace/team per app"
 * (https://docs.slack.dev/apis/web-api/rate-limits); the emulator allows exactly N calls in any 60-second
 * window, so a client that ignores Retry-After is caught. Each method's tier is the catalog's
 * (tests/unit/emulator/registry-catalog.test.ts).
 *
 * chat.postMessage is "special": "chat.postMessage generally allows posting one message per second per
 * channel, while also maintaining a workspace-wide limit", and "Posting messages: 1 per second. Short bursts
 * >1 allowed" (the same page). The emulator keeps the special tier's per-minute count for the workspace and
 * app, and per channel lets a burst of CHANNEL_BURST messages through, then one a second.
 *
 * The non-Marketplace profile (the nonMarketplaceRateLimits option, or `non_marketplace` on POST
 * /admin/rate-limits; off by default) applies the platform's 2025 limits for commercially distributed apps
 * outside its Marketplace to conversations.history and conversations.replies: "As of May 29, 2025, for new
 * applications and installation commercially distributed outside of the Marketplace, this method is rate
 * limited to 1 request per minute. The maximum and default values for the limit parameter have both been
 * reduced to 15 objects." (https://docs.slack.dev/reference/methods/conversations.history, and the changelog
 * https://docs.slack.dev/changelog/2025/05/29/rate-limit-changes-for-non-marketplace-apps). Its page size
 * applies whenever the profile is on; its request rate, like every limit, only while rate limits are on.
 */
import { WebApiError } from "../core/errors";
import { resolveLimit } from "../pagination/pagination";
import type { EmulatorState, RateTier } from "../types";

const WINDOW_MS = 60_000;

/** Calls per minute per tier. "special" methods (auth.test, oauth.v2.access, chat.postMessage) allow hundreds. */
export const TIER_LIMITS_PER_MINUTE: Record<`${RateTier}`, number> = {
  "1": 1,
  "2": 20,
  "3": 50,
  "4": 100,
  special: 600,
};

/** chat.postMessage per channel: one message a second, after a short burst of this many. */
export const CHANNEL_BURST = 3;
const CHANNEL_INTERVAL_MS = 1000;

/** The methods the non-Marketplace profile limits, to one call a minute and pages of at most NON_MARKETPLACE_PAGE_LIMIT. */
export const NON_MARKETPLACE_METHODS: ReadonlySet<string> = new Set(["conversations.history", "conversations.replies"]);
export const NON_MARKETPLACE_PAGE_LIMIT = 15;
const NON_MARKETPLACE_PER_MINUTE = 1;

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
 * One message a second with a burst of CHANNEL_BURST, as a generic cell rate: `key` keeps the theoretical
 * time of the next message; a message is allowed while that time is at most (burst - 1) intervals ahead of
 * now. Returns 0 when allowed (and records it), otherwise the seconds to wait.
 */
function consumeChannelRate(state: EmulatorState, key: string, now: number): number {
  const next = Math.max(state.rateWindows.get(key)?.[0] ?? now, now);
  const earliest = next - (CHANNEL_BURST - 1) * CHANNEL_INTERVAL_MS;
  if (earliest > now) return Math.max(1, Math.ceil((earliest - now) / 1000));
  state.rateWindows.set(key, [next + CHANNEL_INTERVAL_MS]);
  return 0;
}

function ratelimited(retryAfter: number): WebApiError {
  return new WebApiError("ratelimited", {}, { status: 429, headers: { "retry-after": String(retryAfter) } });
}

/**
 * Throws the platform's rate-limit answer (HTTP 429, Retry-After, {"ok":false,"error":"ratelimited"})
 * when a Web API method is over its tier for this workspace and app (or, for chat.postMessage, over its
 * rate for the channel). A no-op while limits are off.
 */
export function enforceMethodRateLimit(
  state: EmulatorState,
  method: { name: string; tier: RateTier },
  scope: { teamId: string; appId: string },
  now: number,
  params: Readonly<Record<string, string>> = {},
): void {
  if (!state.rateLimitsEnabled) return;
  const key = `${method.name}:${scope.teamId}:${scope.appId}`;
  const perMinute =
    state.nonMarketplaceLimits && NON_MARKETPLACE_METHODS.has(method.name) ? NON_MARKETPLACE_PER_MINUTE : TIER_LIMITS_PER_MINUTE[`${method.tier}`];
  // The channel is checked first and recorded only if the workspace-wide count allows the call too.
  const channelKey = method.name === "chat.postMessage" && params.channel ? `${key}:channel:${params.channel}` : undefined;
  const saved = channelKey === undefined ? undefined : state.rateWindows.get(channelKey);
  if (channelKey !== undefined) {
    const retryAfter = consumeChannelRate(state, channelKey, now);
    if (retryAfter > 0) throw ratelimited(retryAfter);
  }
  const retryAfter = consumeRateLimit(state, key, perMinute, now);
  if (retryAfter > 0) {
    if (channelKey !== undefined) {
      if (saved === undefined) state.rateWindows.delete(channelKey);
      else state.rateWindows.set(channelKey, saved);
    }
    throw ratelimited(retryAfter);
  }
}

/**
 * The parameters a method's handler reads, under the non-Marketplace profile: conversations.history and
 * conversations.replies page at most NON_MARKETPLACE_PAGE_LIMIT objects, which is also their default.
 * Unchanged otherwise.
 */
export function applyRateLimitProfile(state: EmulatorState, methodName: string, params: Record<string, string>): Record<string, string> {
  if (!state.nonMarketplaceLimits || !NON_MARKETPLACE_METHODS.has(methodName)) return params;
  const limit = Math.min(resolveLimit(params.limit, NON_MARKETPLACE_PAGE_LIMIT), NON_MARKETPLACE_PAGE_LIMIT);
  return { ...params, limit: String(limit) };
}
