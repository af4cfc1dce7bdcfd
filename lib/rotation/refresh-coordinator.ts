import "server-only";
import { createHash } from "node:crypto";
import { processSingleton } from "@/lib/process-singleton";

/**
 * Single-flight in this process, for the app configuration token's rotation (lib/app-config): concurrent
 * callers with one key share one execution of `fn`, and with `keepForMs` its result answers a caller a
 * moment late (never longer than the platform's grace period: lib/app-config/config-token.ts says why).
 * Installation tokens do not use it: their refreshes take the store's refresh lock and read the newest pair
 * from the store (lib/rotation/freshness.ts), so nothing needs keeping.
 */
export interface RefreshCoordinator {
  run<T>(refreshTokenKey: string, fn: () => Promise<T>, options?: RunOptions): Promise<T>;
}

export interface RunOptions {
  /** How long this result answers callers with the same key; none is kept without it. */
  keepForMs?: number;
}

/** The key of a refresh token: a hash, so the coordinator never holds the secret itself. */
export function refreshTokenKey(refreshToken: string): string {
  return createHash("sha256").update(refreshToken).digest("base64url");
}

/** Results kept at most (the oldest go first). */
export const MAX_KEPT_RESULTS = 10_000;

export class InMemoryRefreshCoordinator implements RefreshCoordinator {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly results = new Map<string, { value: unknown; expiresAt: number }>();

  constructor(
    /** The longest any result is kept, whatever keepForMs asks. */
    private readonly maxKeepMs = 24 * 3600 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  async run<T>(key: string, fn: () => Promise<T>, options: RunOptions = {}): Promise<T> {
    const kept = this.results.get(key);
    if (kept && kept.expiresAt > this.now()) return kept.value as T;
    if (kept) this.results.delete(key);
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const task = (async () => {
      try {
        const value = await fn();
        if (options.keepForMs && options.keepForMs > 0) {
          this.results.set(key, { value, expiresAt: this.now() + Math.min(options.keepForMs, this.maxKeepMs) });
          for (const oldest of this.results.keys()) {
            if (this.results.size <= MAX_KEPT_RESULTS) break;
            this.results.delete(oldest);
          }
        }
        return value;
      } finally {
        this.inFlight.delete(key);
      }
    })();
    this.inFlight.set(key, task);
    return task;
  }
}

/** The process's coordinator, shared by every route bundle. */
export function getRefreshCoordinator(): RefreshCoordinator {
  return processSingleton("refreshCoordinator", () => new InMemoryRefreshCoordinator());
}
