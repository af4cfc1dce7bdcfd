import "server-only";
import { getConfig, type Upstream } from "@/lib/config";
import { platformClockFor } from "@/lib/platform";

/** What lib/app-config needs from the outside world; tests build one with their own clock. */
export interface AppConfigRuntime {
  upstream: Upstream;
  now(): number;
  timeoutMs: number;
  /** Rotate the configuration token when it expires within this many seconds. */
  refreshWindowS: number;
}

export function getAppConfigRuntime(): AppConfigRuntime {
  const config = getConfig();
  return {
    upstream: config.upstream,
    // The platform's time (lib/platform/platform-clock.ts): a configuration token expires by its clock.
    now: platformClockFor(config.upstream.baseUrl).now,
    timeoutMs: config.upstreamTimeoutMs,
    refreshWindowS: config.refreshWindowS,
  };
}
