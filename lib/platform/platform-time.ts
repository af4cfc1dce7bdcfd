import type { PlatformTransport } from "./call-method";
import { upstreamAbout, type UpstreamAbout } from "./upstream-about";

/** What the browser learns of the upstream's clock: whether it can be moved, and how far. */
export type PlatformClockView = { emulator: false } | { emulator: true; offsetS: number; maxOffsetS: number };

/** Where the upstream answers, and how long a call to it may take: the rotation runtime is one. */
export interface UpstreamRoute {
  baseUrl: string;
  timeoutMs: number;
  /** Set when the upstream lives in this process (the embedded emulator). */
  transport?: PlatformTransport;
}

/** A read of the upstream's self-description waits no longer than this: a session read must not hang on it. */
const ABOUT_TIMEOUT_MS = 3_000;

/**
 * What the console's upstream says it is, asked at most every 30 s (upstream-about.ts) or now (`fresh`);
 * the read also brings the platform clock up to date. The caller says which upstream (its rotation runtime):
 * the wire knows no configuration.
 */
export function describeUpstream(upstream: UpstreamRoute, fresh = false): Promise<UpstreamAbout> {
  return upstreamAbout(upstream.baseUrl, {
    timeoutMs: Math.min(upstream.timeoutMs, ABOUT_TIMEOUT_MS),
    fresh,
    ...(upstream.transport ? { transport: upstream.transport } : {}),
  });
}

export function toPlatformClockView(about: UpstreamAbout): PlatformClockView {
  return about.emulator ? { emulator: true, offsetS: about.offsetS, maxOffsetS: about.maxOffsetS } : { emulator: false };
}
