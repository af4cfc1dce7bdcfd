import "server-only";
import { createHash } from "node:crypto";
import { INSTALLATION_MAX_AGE_S } from "@/lib/installations/store";

/**
 * Coordinates token refreshes so that one refresh token is spent once. `run` makes concurrent callers with
 * the same key share one execution of `fn`, and keeps its result for a while so a late caller still
 * holding the old refresh token gets the same new pair instead of spending it again. An implementation
 * over a shared store (a lock and a short-lived sealed result per key) coordinates several instances
 * (redis-refresh-coordinator.ts); process-refresh-coordinator.ts chooses one by configuration.
 */
export interface RefreshCoordinator {
  run<T>(refreshTokenKey: string, fn: () => Promise<T>, options?: RunOptions): Promise<T>;
  /** The kept result for this key, if there is one: lets a caller follow a chain of refreshes. */
  lookup<T>(refreshTokenKey: string): Promise<T | undefined>;
}

export interface RunOptions {
  /**
   * How long this result is kept for late callers, when it must be shorter than the coordinator's own
   * lifetime: an app configuration token's rotation is kept no longer than the platform's grace period
   * (lib/app-config/config-token.ts says why).
   */
  keepForMs?: number;
}

/** The key of a refresh token: a hash, so the coordinator never holds the secret itself. */
export function refreshTokenKey(refreshToken: string): string {
  return createHash("sha256").update(refreshToken).digest("base64url");
}

/**
 * How long a refresh result is kept for late callers: as long as a cookie holding the refresh token it
 * replaced can come back, which is as long as an installation cookie lives (it is renewed on every write).
 * A browser can keep a stale cookie: a response that had already started streaming, a closed tab, or
 * two responses that crossed (the one written before the other's refresh landing last). It then comes
 * back with the old refresh token, and gets the pair that replaced it instead of a dead end.
 */
export const REFRESH_RESULT_TTL_MS = INSTALLATION_MAX_AGE_S * 1000;
/**
 * After a refresh whose answer was lost (a timeout, a dropped connection, a 5xx), the platform may well
 * have spent the refresh token. Within its grace period the same refresh token answers again with the
 * same pair, so the refresh goes on asking, in the background, for this long after its first attempt
 * (freshness.ts); the coordinator keeps the pair it gets for the next request, as any refresh result.
 */
export const REFRESH_RECOVERY_WINDOW_MS = 40_000;

/** Results kept in one process at most (the oldest go first): about a kilobyte each. */
export const MAX_KEPT_RESULTS = 100_000;

export class InMemoryRefreshCoordinator implements RefreshCoordinator {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly results = new Map<string, { value: unknown; expiresAt: number }>();

  constructor(
    private readonly resultTtlMs = REFRESH_RESULT_TTL_MS,
    private readonly now: () => number = Date.now,
    private readonly maxResults = MAX_KEPT_RESULTS,
  ) {}

  async lookup<T>(key: string): Promise<T | undefined> {
    const kept = this.results.get(key);
    if (!kept) return undefined;
    if (kept.expiresAt <= this.now()) {
      this.results.delete(key);
      return undefined;
    }
    return kept.value as T;
  }

  async run<T>(key: string, fn: () => Promise<T>, options: RunOptions = {}): Promise<T> {
    const kept = await this.lookup<T>(key);
    if (kept !== undefined) return kept;
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const task = (async () => {
      try {
        const value = await fn();
        this.prune();
        this.results.set(key, { value, expiresAt: this.now() + Math.min(options.keepForMs ?? this.resultTtlMs, this.resultTtlMs) });
        // A Map iterates in insertion order: the first entries are the oldest.
        for (const oldest of this.results.keys()) {
          if (this.results.size <= this.maxResults) break;
          this.results.delete(oldest);
        }
        return value;
      } finally {
        this.inFlight.delete(key);
      }
    })();
    this.inFlight.set(key, task);
    return task;
  }

  /**
   * Most results live as long, so the expired ones are the first in insertion order. A shorter-lived one
   * (keepForMs) behind a longer one stays until it is looked up or the cap evicts it: never found after
   * its time, since lookup checks every expiry.
   */
  private prune() {
    const now = this.now();
    for (const [key, kept] of this.results) {
      if (kept.expiresAt > now) break;
      this.results.delete(key);
    }
  }
}
