import "server-only";
import type { Viewer } from "@/lib/viewer";
import { ownerOf } from "@/lib/access/viewer";
import { getConfig, type Upstream } from "@/lib/config";
import { AppError } from "@/lib/http/app-error";
import { platformClockFor } from "@/lib/platform";

/** What lib/app-config needs from the outside world; tests build one with their own clock. */
export interface AppConfigRuntime {
  upstream: Upstream;
  now(): number;
  timeoutMs: number;
  /** Rotate the configuration token when it expires within this many seconds. */
  refreshWindowS: number;
  /**
   * Who asks (lib/access, resolved once by the route): whose configuration token is used, which apps they see.
   * Null: nobody signed in (an install from outside the team), who has no token.
   */
  viewer: Viewer | null;
}

export function getAppConfigRuntime(viewer: Viewer | null): AppConfigRuntime {
  const config = getConfig();
  return {
    upstream: config.upstream,
    // The platform's time (lib/platform/platform-clock.ts): a configuration token expires by its clock.
    now: platformClockFor(config.upstream.baseUrl).now,
    timeoutMs: config.upstreamTimeoutMs,
    refreshWindowS: config.refreshWindowS,
    viewer,
  };
}

/** Who asks, where only a person may ask: 401 sign_in_required when nobody is signed in. */
export function viewerOf(runtime: AppConfigRuntime): Viewer {
  if (!runtime.viewer) throw new AppError("sign_in_required");
  return runtime.viewer;
}

/** Whose configuration token pair the runtime's is (lib/access ownerOf); 401 when nobody is signed in. */
export function configTokenOwner(runtime: AppConfigRuntime): string | null {
  return ownerOf(viewerOf(runtime));
}
