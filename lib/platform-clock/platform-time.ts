import "server-only";
import { upstreamAbout, type UpstreamAbout } from "@/lib/platform";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";

/** What the browser learns of the upstream's clock: whether it can be moved, and how far. */
export type PlatformClockView = { emulator: false } | { emulator: true; offsetS: number; maxOffsetS: number };

/** A read of the upstream's self-description waits no longer than this: a session read must not hang on it. */
const ABOUT_TIMEOUT_MS = 3_000;

/**
 * What the console's upstream says it is, asked at most every 30 s (upstream-about.ts) or now (`fresh`);
 * the read also brings the platform clock up to date. In process with the embedded emulator.
 */
export function describeUpstream(fresh = false): Promise<UpstreamAbout> {
  const runtime = getRotationRuntime();
  return upstreamAbout(runtime.baseUrl, {
    timeoutMs: Math.min(runtime.timeoutMs, ABOUT_TIMEOUT_MS),
    fresh,
    ...(runtime.transport ? { transport: runtime.transport } : {}),
  });
}

export function toPlatformClockView(about: UpstreamAbout): PlatformClockView {
  return about.emulator ? { emulator: true, offsetS: about.offsetS, maxOffsetS: about.maxOffsetS } : { emulator: false };
}
