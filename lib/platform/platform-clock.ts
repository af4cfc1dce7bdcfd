import { processSingleton } from "@/lib/process-singleton";

/**
 * A Date further than this from the server's clock is not a platform's time but a broken header: the
 * emulator's clock moves at most ten years ahead, and the real platform's is near the server's.
 */
const MAX_SANE_SKEW_MS = 20 * 365 * 24 * 3600 * 1000;

/** The skews an answer allows: the platform's time minus the server's, somewhere between min and max. */
export interface SkewRange {
  minMs: number;
  maxMs: number;
}

/**
 * The skews an answer's Date header allows. The platform wrote its time, truncated to the second (RFC 9110),
 * somewhere between the request leaving (sentAtMs) and the answer arriving (receivedAtMs) by the server's
 * clock. A missing or garbled header, or one decades away, allows nothing (undefined).
 */
export function skewRangeFromDate(date: string | null | undefined, sentAtMs: number, receivedAtMs: number): SkewRange | undefined {
  if (!date) return undefined;
  const platformMs = Date.parse(date);
  if (!Number.isFinite(platformMs)) return undefined;
  const range = { minMs: platformMs - receivedAtMs, maxMs: platformMs + 999 - sentAtMs };
  return Math.abs(range.minMs) > MAX_SANE_SKEW_MS ? undefined : range;
}

/**
 * The platform's time as the console's server knows it: the server's clock plus the skew read from the
 * platform's answers. The platform's Date header says its time to the second; the skew is kept as long as
 * each new answer allows it (so countdowns do not jitter by the header's rounding), and moved to the
 * middle of what the answer allows when it does not (the emulator's clock was moved, or the machine's).
 * Against the real platform the skew stays near zero.
 */
export class PlatformClock {
  private skew = 0;
  private observed: number | undefined;

  // Date.now read at each call, not captured: a test (or anything) that replaces Date.now moves this clock too.
  constructor(private readonly local: () => number = () => Date.now()) {}

  /** The platform's time now (epoch milliseconds). */
  now = (): number => this.local() + this.skew;

  /** The platform's time minus the server's, in milliseconds. */
  skewMs(): number {
    return this.skew;
  }

  /** When (by the server's clock) an answer last said the platform's time; undefined before any did. */
  lastObservedAt(): number | undefined {
    return this.observed;
  }

  /** Takes in an answer's Date header; returns whether the skew moved. A missing or garbled Date changes nothing. */
  observeDate(date: string | null | undefined, sentAtMs: number, receivedAtMs: number): boolean {
    const range = skewRangeFromDate(date, sentAtMs, receivedAtMs);
    return range ? this.fitSkew(range) : false;
  }

  /** Takes in the platform's time to the millisecond (the emulator's clock answers say it so). */
  observeTime(platformMs: number, sentAtMs: number, receivedAtMs: number): boolean {
    if (!Number.isFinite(platformMs) || Math.abs(platformMs - receivedAtMs) > MAX_SANE_SKEW_MS) return false;
    return this.fitSkew({ minMs: platformMs - receivedAtMs, maxMs: platformMs - sentAtMs });
  }

  private fitSkew({ minMs, maxMs }: SkewRange): boolean {
    this.observed = this.local();
    if (this.skew >= minMs && this.skew <= maxMs) return false;
    this.skew = Math.round((minMs + maxMs) / 2);
    return true;
  }
}

/**
 * The process's clock for the platform at `baseUrl`: every upstream answer (lib/platform/call-method.ts)
 * and every read of the emulator's clock feed it, and the session's expiry checks, refresh window,
 * countdowns and timelines read it (lib/installations/rotation/runtime.ts). One per upstream, shared by every route bundle.
 */
export function platformClockFor(baseUrl: string): PlatformClock {
  return processSingleton(`platformClock:${baseUrl.replace(/\/+$/, "")}`, () => new PlatformClock());
}
