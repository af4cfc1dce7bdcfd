import "server-only";
import { getConfig } from "@/lib/config";
import { defaultAppCredentials } from "@/lib/emulator";
import { findEmbeddedEmulator } from "@/lib/embedded-emulator";
import { AppError } from "@/lib/http/app-error";
import { inProcessTransport, platformClockFor, type ClientCredentials, type PlatformTransport } from "@/lib/platform";
import type { AppKey } from "@/lib/installations/universal/view";
import { getStore, type Store } from "@/lib/store";

/** What token freshness needs from the outside world; tests build one with their own clock. */
export interface RotationRuntime {
  baseUrl: string;
  credentialsFor(appKey: AppKey): ClientCredentials;
  /** The store that keeps the tokens and holds the refresh lock (lib/store). */
  store(): Promise<Store>;
  now(): number;
  refreshWindowS: number;
  timeoutMs: number;
  /** The platform's grace period for a spent refresh token: an unsettled refresh younger than it is replayed. */
  refreshGraceS: number;
  /** Method calls go here instead of over the network when the upstream lives in this process. */
  transport?: PlatformTransport;
}

/**
 * The console's app, plus (with the embedded emulator) the emulator's legacy app, whose long-lived tokens
 * show what oauth.v2.exchange says about an app without token rotation.
 */
export function credentialsFor(appKey: AppKey): ClientCredentials {
  const config = getConfig();
  if (appKey === "console") return { clientId: config.clientId, clientSecret: config.clientSecret };
  if (config.upstream.kind !== "emulator") throw new AppError("unknown_app");
  const legacy = defaultAppCredentials(config.emulator.seed, "legacy");
  return { clientId: legacy.clientId, clientSecret: legacy.clientSecret };
}

/**
 * The embedded emulator's own fetch, when the upstream is the emulator this process serves at /emulator.
 * Calling it over loopback HTTP sent every call through Next.js a second time (the request, routing, the
 * emulator's route, the answer back through the socket): 2.5 ms of the 3.7 ms that /api/call added to a
 * 210 KB users.list page. The same instance answers either way, with the same answer. It exists once the
 * /emulator route has served a request (an install's consent page always has); until then, and in tests
 * that serve an emulator of their own over HTTP, calls go over the network. Each call is started in an
 * event-loop turn of its own (inProcessTransport), so that walks of many pages leave room for every other
 * request.
 */
function embeddedEmulatorTransport(): PlatformTransport | undefined {
  if (getConfig().upstream.kind !== "emulator") return undefined;
  const emulator = findEmbeddedEmulator();
  return emulator ? inProcessTransport((request) => emulator.fetch(request)) : undefined;
}

export function getRotationRuntime(): RotationRuntime {
  const config = getConfig();
  const transport = embeddedEmulatorTransport();
  return {
    baseUrl: config.upstream.baseUrl,
    credentialsFor,
    store: getStore,
    // The platform's time, not the server's: expiry, the refresh window and timelines follow the clock that
    // decides them (a moved emulator clock included), read from the upstream's answers (platform-clock.ts).
    now: platformClockFor(config.upstream.baseUrl).now,
    refreshWindowS: config.refreshWindowS,
    timeoutMs: config.upstreamTimeoutMs,
    refreshGraceS: config.refreshGraceS,
    ...(transport ? { transport } : {}),
  };
}
