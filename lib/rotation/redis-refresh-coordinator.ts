import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { AppError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import type { RefreshCoordinator, RunOptions } from "./refresh-coordinator";
import { sealValue, unsealValue, type PasswordMap } from "@/lib/session/sealed-cookie";

/** Deletes the lock only while it still holds our owner token: never another instance's newer lock. */
const RELEASE_LOCK = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`;

/**
 * Keeps the sealed result and releases our lock in one step, so a waiter never sees the lock gone
 * before the result is there.
 */
const KEEP_AND_RELEASE = `redis.call("set", KEYS[2], ARGV[2], "PX", ARGV[3])
if redis.call("get", KEYS[1]) == ARGV[1] then redis.call("del", KEYS[1]) end
return 1`;

const FIRST_POLL_MS = 10;
const MAX_POLL_MS = 200;

export interface RedisRefreshCoordinatorOptions {
  /** redis://[user:password@]host:port[/db], or rediss:// for TLS. */
  url: string;
  /** The session password map: a kept result holds tokens, so it sits in Redis sealed, never in clear. */
  passwords: PasswordMap;
  /** How long a refresh result is kept for late callers (on any instance). */
  resultTtlMs: number;
  /** How long a lock outlives a crashed holder: longer than one upstream refresh can take. */
  lockTtlMs: number;
  /** Separates deployments (or tests) that share one Redis. */
  keyPrefix?: string;
  /** Gives up on an unreachable Redis after this long, per command. */
  commandTimeoutMs?: number;
}

function coordinationUnavailable(why: string): AppError {
  return new AppError("refresh_coordination_unavailable", {
    message: `refresh coordination unavailable: ${why}, so the token was not refreshed. The stored tokens are unchanged; try again shortly.`,
    headers: { "Retry-After": "5" },
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Single-flight refresh across several server instances that share one Redis: a lock per refresh token
 * (SET NX PX with a random owner token, released by compare-and-delete), and the result kept, sealed,
 * for late callers. Callers on the same instance first share one promise, so Redis sees one caller per
 * instance. Waiters poll with backoff until the result appears, or the lock is gone (the holder failed
 * or crashed and its lock expired) and they take it themselves.
 *
 * When Redis cannot be reached, `run` fails with a 503 instead of refreshing on its own. A refresh
 * token is spent by its first use: an uncoordinated refresh here while another instance refreshes the
 * same token leaves one of them with a spent token, and the installation then needs a reinstall, which
 * is permanent. A 503 is temporary, and the tokens in the cookie stay as they were.
 */
export class RedisRefreshCoordinator implements RefreshCoordinator {
  private readonly redis: Redis;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly keyPrefix: string;
  private reportedDown = false;

  constructor(private readonly options: RedisRefreshCoordinatorOptions) {
    this.keyPrefix = options.keyPrefix ?? "switchboard:refresh:";
    const commandTimeout = options.commandTimeoutMs ?? 2000;
    this.redis = new Redis(options.url, {
      // Fail a command after one reconnection attempt, instead of queueing it for a long time.
      maxRetriesPerRequest: 1,
      connectTimeout: commandTimeout,
      commandTimeout,
      retryStrategy: (times) => Math.min(times * 100, 2000),
    });
    this.redis.on("ready", () => {
      if (this.reportedDown) logger.info("refresh coordination: Redis reachable again");
      this.reportedDown = false;
    });
    this.redis.on("error", (error: Error) => {
      if (this.reportedDown) return;
      this.reportedDown = true;
      logger.warn({ error: error.message }, "refresh coordination: Redis unreachable");
    });
  }

  async lookup<T>(key: string): Promise<T | undefined> {
    const seal = await this.command(() => this.redis.get(this.resultKey(key)));
    if (seal === null) return undefined;
    const kept = await unsealValue<{ value: T }>(seal, this.options.passwords, this.sealTtlS());
    if (!kept) {
      // A seal made with a password this instance lacks (or a damaged one): instances must share SESSION_PASSWORD.
      logger.warn("refresh coordination: a kept refresh result does not unseal; do all instances share SESSION_PASSWORD?");
      return undefined;
    }
    return kept.value;
  }

  run<T>(key: string, fn: () => Promise<T>, options: RunOptions = {}): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const keepForMs = Math.min(options.keepForMs ?? this.options.resultTtlMs, this.options.resultTtlMs);
    const task = this.runAcrossInstances(key, fn, keepForMs).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, task);
    return task;
  }

  /** Closes the connection (tests, and servers shutting down). */
  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private async runAcrossInstances<T>(key: string, fn: () => Promise<T>, keepForMs: number): Promise<T> {
    const lockKey = this.lockKey(key);
    const owner = randomBytes(16).toString("base64url");
    // A holder can spend at most one lock lifetime; after that the lock expires and a waiter takes over.
    const deadline = Date.now() + 2 * this.options.lockTtlMs + 1000;
    let pollMs = FIRST_POLL_MS;
    while (Date.now() < deadline) {
      const kept = await this.lookup<T>(key);
      if (kept !== undefined) return kept;
      const locked = await this.command(() => this.redis.set(lockKey, owner, "PX", this.options.lockTtlMs, "NX"));
      if (locked === "OK") return this.runHoldingLock(key, owner, fn, keepForMs);
      await sleep(pollMs);
      pollMs = Math.min(pollMs * 2, MAX_POLL_MS);
    }
    throw coordinationUnavailable("another server instance held this refresh token's lock for too long");
  }

  private async runHoldingLock<T>(key: string, owner: string, fn: () => Promise<T>, keepForMs: number): Promise<T> {
    const lockKey = this.lockKey(key);
    // Between our last look and taking the lock, the previous holder may have kept its result.
    const kept = await this.lookup<T>(key).catch(async (error: unknown) => {
      await this.releaseLock(lockKey, owner);
      throw error;
    });
    if (kept !== undefined) {
      await this.releaseLock(lockKey, owner);
      return kept;
    }
    let value: T;
    try {
      value = await fn();
    } catch (error) {
      // A failure is not kept: the lock goes, and the next caller (here or elsewhere) tries again.
      await this.releaseLock(lockKey, owner);
      throw error;
    }
    try {
      const seal = await sealValue({ value }, this.options.passwords, Math.max(1, Math.ceil(keepForMs / 1000)));
      // PX takes at least 1 ms: a result kept for no time at all still releases the lock.
      await this.redis.eval(KEEP_AND_RELEASE, 2, lockKey, this.resultKey(key), owner, seal, Math.max(1, keepForMs));
    } catch (error) {
      // The refresh itself succeeded and its old refresh token is spent: the caller must get the new
      // pair. The lock expires on its own; another instance's caller could only refresh again.
      logger.warn({ error: error instanceof Error ? error.message : String(error) }, "refresh coordination: could not keep a refresh result");
    }
    return value;
  }

  private async releaseLock(lockKey: string, owner: string): Promise<void> {
    try {
      await this.redis.eval(RELEASE_LOCK, 1, lockKey, owner);
    } catch (error) {
      logger.warn({ error: error instanceof Error ? error.message : String(error) }, "refresh coordination: could not release a lock; it expires on its own");
    }
  }

  private async command<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      logger.warn({ error: error instanceof Error ? error.message : String(error) }, "refresh coordination: Redis command failed");
      throw coordinationUnavailable("Redis cannot be reached");
    }
  }

  /**
   * The interface's key is already a hash of the refresh token; hashing it again with a purpose label
   * means Redis never holds a refresh token even if a caller passed one by mistake.
   */
  private hashed(key: string): string {
    return createHash("sha256").update(`switchboard refresh coordination\0${key}`).digest("base64url");
  }

  private lockKey(key: string): string {
    return `${this.keyPrefix}lock:${this.hashed(key)}`;
  }

  private resultKey(key: string): string {
    return `${this.keyPrefix}result:${this.hashed(key)}`;
  }

  private sealTtlS(): number {
    return Math.ceil(this.options.resultTtlMs / 1000);
  }
}
