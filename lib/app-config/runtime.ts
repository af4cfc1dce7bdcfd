import "server-only";
import { getConfig, type Upstream } from "@/lib/config";
import { platformClockFor } from "@/lib/platform";
import { getRefreshCoordinator } from "@/lib/rotation/process-refresh-coordinator";
import { type RefreshCoordinator } from "@/lib/rotation/refresh-coordinator";

/** What lib/app-config needs from the outside world; tests build one with their own clock. */
export interface AppConfigRuntime {
  upstream: Upstream;
  now(): number;
  timeoutMs: number;
  /** Rotate the configuration token when it expires within this many seconds. */
  refreshWindowS: number;
  /**
   * The same coordinator as the installations' refresh tokens: a configuration refresh token is single use
   * too, so concurrent requests (other tabs, other instances with REDIS_URL) share one rotation, and a
   * request a moment late still holding the old refresh token gets the pair that replaced it.
   */
  coordinator: RefreshCoordinator;
  /** The platform's grace period for a used refresh token (REFRESH_GRACE_S): a kept rotation lives no longer. */
  refreshGraceS: number;
}

export function getAppConfigRuntime(): AppConfigRuntime {
  const config = getConfig();
  return {
    upstream: config.upstream,
    // The platform's time (lib/platform/platform-clock.ts): a configuration token expires by its clock.
    now: platformClockFor(config.upstream.baseUrl).now,
    timeoutMs: config.upstreamTimeoutMs,
    refreshWindowS: config.refreshWindowS,
    coordinator: getRefreshCoordinator(),
    refreshGraceS: config.refreshGraceS,
  };
}
