import "server-only";
import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";
import { processSingleton } from "@/lib/process-singleton";

/**
 * How many refreshes the background refresher may have under way at this moment. A backlog of every token
 * at once (a clock jump, an instance that was down for hours) would otherwise take as much of the process as
 * its bound lets it (REFRESHER_CONCURRENCY refreshes, each a platform call and some fifteen statements), and
 * the console's own requests (a page, /api/health, the token API) would wait behind it: the event loop is
 * where they meet. So the gate watches the event loop's delay (perf_hooks.monitorEventLoopDelay) and, every
 * window, sets how many refreshes may be under way: while the loop lags beyond its target it halves that
 * number (never below `floor`, which keeps a backlog draining at a known pace), and while it keeps up it
 * lets one more (never above the bound). A refresher's worker takes a turn before each refresh and gives
 * it back after; a turn is never taken away from a refresh already under way.
 *
 * A refresh that a request waits for (the token API's, a call's: its token was due and the refresher had not
 * reached it) goes first: each under way in this process takes one of the refresher's turns (down to its
 * floor), so the refresher starts fewer of its own until the request has its token.
 */

export interface LoadGateOptions {
  /** REFRESHER_CONCURRENCY: never more at once than this. */
  bound: number;
  /** Never fewer allowed than this (at most `bound`). */
  floor: number;
  /** The event loop's delay (99th percentile over a window, beyond its timer's own resolution) above which the refresher makes room. */
  targetMs: number;
}

/** The refreshes requests wait for, under way in this process, and the gates that make room for them. */
interface RequestRefreshes {
  underWay: number;
  gates: Set<LoadGate>;
}
const requestRefreshes = (): RequestRefreshes => processSingleton("requestRefreshes", () => ({ underWay: 0, gates: new Set<LoadGate>() }));

/** Runs a refresh that a request waits for: while it is under way, the refresher of this process starts fewer of its own. */
export async function asRequestRefresh<T>(work: () => Promise<T>): Promise<T> {
  const requests = requestRefreshes();
  requests.underWay++;
  try {
    return await work();
  } finally {
    requests.underWay--;
    for (const gate of requests.gates) gate.wake();
  }
}

export class LoadGate {
  private allowedNow: number;
  private underWay = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly options: LoadGateOptions) {
    this.allowedNow = options.bound;
    // Told when a request's refresh ends (a process has one, its refresher's, made again only for a new bound).
    requestRefreshes().gates.add(this);
  }

  /** The most ever allowed at once. */
  get bound(): number {
    return this.options.bound;
  }

  /** How many may be under way now (the loop's delay says). */
  get allowed(): number {
    return this.allowedNow;
  }

  /** How many of the refresher's own may start now: the turns allowed less the requests' refreshes under way, down to the floor. */
  private get room(): number {
    const { bound, floor } = this.options;
    return Math.max(Math.min(bound, Math.max(1, floor), this.allowedNow), this.allowedNow - requestRefreshes().underWay);
  }

  /** How many are under way now. */
  get inFlight(): number {
    return this.underWay;
  }

  /** Waits for a turn (in the order asked). */
  acquire(): Promise<void> {
    if (this.underWay < this.room && this.queue.length === 0) {
      this.underWay++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  /** Gives a turn back: the next waiter takes it if the number allowed still has room. */
  release(): void {
    this.underWay--;
    this.admit();
  }

  /** One window's reading of the event loop's delay: fewer turns while it lags, one more while it keeps up. */
  adjust(lagP99Ms: number): void {
    const { bound, floor, targetMs } = this.options;
    const least = Math.min(bound, Math.max(1, floor));
    this.allowedNow = lagP99Ms > targetMs ? Math.max(least, Math.floor(this.allowedNow / 2)) : Math.min(bound, this.allowedNow + 1);
    this.admit();
  }

  /** A request's refresh ended: its turn may go to a waiter. */
  wake(): void {
    this.admit();
  }

  private admit(): void {
    while (this.underWay < this.room && this.queue.length > 0) {
      this.underWay++;
      this.queue.shift()!();
    }
  }
}

/** The resolution of the delay histogram: a sample every 10 ms (what Node's timers resolve well). */
const RESOLUTION_MS = 10;

/**
 * The event loop's delay beyond its timer's resolution, read and reset every `windowMs`: `onWindow` is told
 * the 99th percentile in ms. Answers the function that stops it. The timer does not keep the process alive.
 */
export function watchEventLoopDelay(windowMs: number, onWindow: (lagP99Ms: number) => void): () => void {
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const timer = setInterval(() => {
    // Each sample is the time between two ticks of a RESOLUTION_MS timer: what exceeds it is the lag.
    const p99 = histogram.count > 0 ? Math.max(0, histogram.percentile(99) / 1e6 - RESOLUTION_MS) : 0;
    histogram.reset();
    onWindow(p99);
  }, windowMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    histogram.disable();
  };
}
