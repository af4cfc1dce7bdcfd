import "server-only";
import { createHash } from "node:crypto";
import { getConfig } from "@/lib/config";
import { RedisRefreshCoordinator } from "./redis-refresh-coordinator";

/**
 * Coordinates token refreshes so that one refresh token is spent once. `run` makes concurrent callers with
 * the same key share one execution of `fn`, and keeps its result for a while so a late caller still
 * holding the old refresh token gets the same new pair instead of spending it again. An implementation
 * over a shared store (a lock and a short-lived sealed result per key) coordinates several instances.
 */
export interface RefreshCoordinator {
  run<T>(refreshTokenKey: string, fn: () => Promise<T>): Promise<T>;
  /** The kept result for this key, if there is one: lets a caller follow a chain of refreshes. */
  lookup<T>(refreshTokenKey: string): Promise<T | undefined>;
}

/** The key of a refresh token: a hash, so the coordinator never holds the secret itself. */
export function refreshTokenKey(refreshToken: string): string {
  return createHash("sha256").update(refreshToken).digest("base64url");
}

/**
 * How long a refresh result is kept for late callers. Longer than the platform's grace period on purpose:
 * a browser whose cookie write was lost (a response that had already started streaming, a closed tab)
 * still comes back with the old refresh token, and gets the pair that replaced it instead of a dead end.
 */
export const REFRESH_RESULT_TTL_MS = 10 * 60_000;

export class InMemoryRefreshCoordinator implements RefreshCoordinator {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly results = new Map<string, { value: unknown; expiresAt: number }>();

  constructor(
    private readonly resultTtlMs = REFRESH_RESULT_TTL_MS,
    private readonly now: () => number = Date.now,
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

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const kept = await this.lookup<T>(key);
    if (kept !== undefined) return kept;
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const task = (async () => {
      try {
        const value = await fn();
        this.prune();
        this.results.set(key, { value, expiresAt: this.now() + this.resultTtlMs });
        return value;
      } finally {
        this.inFlight.delete(key);
      }
    })();
    this.inFlight.set(key, task);
    return task;
  }

  private prune() {
    const now = this.now();
    for (const [key, kept] of this.results) if (kept.expiresAt <= now) this.results.delete(key);
  }
}

const KEY = Symbol.for("switchboard.refreshCoordinator");
type GlobalWithCoordinator = typeof globalThis & { [KEY]?: RefreshCoordinator };

/**
 * The process's coordinator, shared by every route bundle (kept on globalThis like the embedded emulator):
 * Redis when REDIS_URL is set (several instances), otherwise in memory (one instance).
 */
export function getRefreshCoordinator(): RefreshCoordinator {
  const g = globalThis as GlobalWithCoordinator;
  g[KEY] ??= createRefreshCoordinator();
  return g[KEY];
}

function createRefreshCoordinator(): RefreshCoordinator {
  const config = getConfig();
  if (!config.redisUrl) return new InMemoryRefreshCoordinator();
  return new RedisRefreshCoordinator({
    url: config.redisUrl,
    passwords: config.sessionPasswords,
    resultTtlMs: REFRESH_RESULT_TTL_MS,
    // A refresh is one upstream call, bounded by the upstream timeout: the lock outlives it with room.
    lockTtlMs: 2 * config.upstreamTimeoutMs + 5_000,
  });
}
