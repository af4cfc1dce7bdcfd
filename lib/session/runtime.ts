import "server-only";
import { getConfig } from "@/lib/config";
import { defaultAppCredentials } from "@/lib/emulator/default-apps";
import { AppError } from "@/lib/http/app-error";
import type { ClientCredentials } from "@/lib/platform";
import type { AppKey } from "./installation";
import { getRefreshCoordinator, type RefreshCoordinator } from "./refresh-coordinator";

/** What token freshness needs from the outside world; tests build one with their own clock. */
export interface SessionRuntime {
  baseUrl: string;
  credentialsFor(appKey: AppKey): ClientCredentials;
  coordinator: RefreshCoordinator;
  now(): number;
  refreshWindowS: number;
  timeoutMs: number;
}

/**
 * The console's app, plus (with the embedded emulator) the emulator's legacy app, whose long-lived tokens
 * show what oauth.v2.exchange says about an app without token rotation.
 */
export function credentialsFor(appKey: AppKey): ClientCredentials {
  const config = getConfig();
  if (appKey === "console") return { clientId: config.clientId, clientSecret: config.clientSecret };
  if (config.upstream.kind !== "emulator") {
    throw new AppError("unknown_app", 400, "The emulator's legacy app only exists when the upstream is the embedded emulator.");
  }
  const legacy = defaultAppCredentials(config.emulator.seed, "legacy");
  return { clientId: legacy.clientId, clientSecret: legacy.clientSecret };
}

export function getSessionRuntime(): SessionRuntime {
  const config = getConfig();
  return {
    baseUrl: config.upstream.baseUrl,
    credentialsFor,
    coordinator: getRefreshCoordinator(),
    now: Date.now,
    refreshWindowS: config.refreshWindowS,
    timeoutMs: config.upstreamTimeoutMs,
  };
}
