import "server-only";
import pg from "pg";
import { ADVISORY_NAMESPACE } from "./backend";
import { RefreshLockTimeoutError } from "./errors";

/**
 * The refresh lock: one holder per key (an installation's token kind) at a time, across every instance.
 *
 * - In this process, a queue per key: the first caller runs, the next wait their turn. This is all there
 *   is with PGlite (one process per DATA_DIR).
 * - With PostgreSQL, the holder then takes a session advisory lock, pg_advisory_lock(namespace,
 *   hashtext(key)), on a connection of its own (a small pool apart from the query pool, so a waiting lock
 *   never holds up a query). Advisory locks are re-entrant within one session, which is why the in-process
 *   step comes first: it is what keeps two holders of one process apart. The server releases the lock the
 *   moment the holder's connection dies (a killed process), so a waiter of another instance takes over.
 * - The wait is bounded (`waitMs`): past it, RefreshLockTimeoutError, which the caller answers as 503
 *   refresh_in_progress. With PostgreSQL the bound is the session's lock_timeout.
 *
 * What runs under the lock must keep its transactions short: read the record fresh, record the intent,
 * call the platform with no transaction open, then settle in one transaction.
 */

export const DEFAULT_LOCK_WAIT_MS = 30_000;

export interface RefreshLockOptions {
  /** How long to wait for the lock before RefreshLockTimeoutError (default 30 s). */
  waitMs?: number;
}

export type WithRefreshLock = <T>(key: string, fn: () => Promise<T>, options?: RefreshLockOptions) => Promise<T>;

/** The in-process queue per key. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  /** Waits for the key (at most waitMs) and answers the function that releases it. */
  async acquire(key: string, waitMs: number): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    const done = () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        previous,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new RefreshLockTimeoutError(key, waitMs)), waitMs);
        }),
      ]);
    } catch (error) {
      // Giving up keeps the queue's order: whoever waits behind this caller goes once the holder is done.
      done();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return done;
  }

  /** Whether a key is held or waited for (tests). */
  busy(key: string): boolean {
    return this.tails.has(key);
  }
}

/** The lock with PGlite: the in-process queue alone. */
export function processRefreshLock(mutex = new KeyedMutex()): WithRefreshLock {
  return async (key, fn, options = {}) => {
    const release = await mutex.acquire(key, options.waitMs ?? DEFAULT_LOCK_WAIT_MS);
    try {
      return await fn();
    } finally {
      release();
    }
  };
}

/** How long an unlock may go unanswered before its connection is taken for dead. */
const UNLOCK_TIMEOUT_MS = 5_000;

/** The lock with PostgreSQL: the in-process queue, then a session advisory lock on a connection of `lockPool`. */
export function postgresRefreshLock(lockPool: pg.Pool, mutex = new KeyedMutex(), unlockTimeoutMs = UNLOCK_TIMEOUT_MS): WithRefreshLock {
  return async (key, fn, options = {}) => {
    const waitMs = options.waitMs ?? DEFAULT_LOCK_WAIT_MS;
    const started = Date.now();
    const release = await mutex.acquire(key, waitMs);
    let client: pg.PoolClient | undefined;
    let broken = false;
    const onError = () => (broken = true);
    // A connection whose state is unknown is closed rather than pooled: closing it releases any lock it held.
    const giveBack = () => {
      client?.off("error", onError);
      client?.release(broken ? true : undefined);
      release();
    };
    try {
      client = await lockPool.connect();
      client.on("error", onError);
      // Most refreshes meet nobody at their lock (a backlog's claims keep instances on different tokens): one
      // round trip takes it then. Only a lock another instance holds is waited for, bounded by lock_timeout.
      const tried = await client.query<{ taken: boolean }>("select pg_try_advisory_lock($1, hashtext($2)) as taken", [ADVISORY_NAMESPACE, key]);
      if (tried.rows[0]?.taken !== true) {
        const left = Math.max(1, waitMs - (Date.now() - started));
        await client.query(`set lock_timeout = ${Math.ceil(left)}`);
        try {
          await client.query("select pg_advisory_lock($1, hashtext($2))", [ADVISORY_NAMESPACE, key]);
        } catch (error) {
          // 55P03 lock_not_available: lock_timeout passed while another instance held the lock.
          if ((error as { code?: unknown }).code === "55P03") throw new RefreshLockTimeoutError(key, waitMs);
          throw error;
        }
      }
    } catch (error) {
      if (!(error instanceof RefreshLockTimeoutError)) broken = true;
      giveBack();
      throw error;
    }
    const holder = client;
    try {
      return await fn();
    } finally {
      // What ran under the lock has committed its writes: its caller is answered now, and the unlock's round trip
      // follows on its own (a request waiting for a refreshed token need not wait for it too). This process's next
      // holder of the key waits for it in the queue; another instance's waiter is woken by it.
      void unlock(lockPool, holder, key, unlockTimeoutMs)
        .then((unlocked) => {
          if (!unlocked) broken = true;
        })
        .finally(giveBack);
    }
  };
}

/**
 * Unlocks `key` on the holder's connection; false when the connection cannot be trusted any more. An unlock
 * that has no answer within `timeoutMs` (a connection dropped without a word answers nothing, ever) would keep
 * the key held in this process for good, every refresh of that token answering 503 refresh_in_progress: the
 * connection is given up instead, and its session ended from another connection, since the server would hold
 * the lock for that session until it noticed the connection gone (which can take hours).
 */
async function unlock(lockPool: pg.Pool, holder: pg.PoolClient, key: string, timeoutMs: number): Promise<boolean> {
  try {
    await holder.query(bounded("select pg_advisory_unlock($1, hashtext($2))", [ADVISORY_NAMESPACE, key], timeoutMs));
    return true;
  } catch (error) {
    // Otherwise the connection died: the server released the lock with it.
    const pid = (holder as unknown as { processID?: number | null }).processID;
    if (error instanceof Error && error.message === QUERY_READ_TIMEOUT && pid) await terminate(lockPool, pid, timeoutMs);
    return false;
  }
}

/**
 * Ends session `pid` from a connection of its own, not one of the lock pool's: when every connection went
 * silent at once, every slot of the pool is held by an unlock waiting here, and a terminate queued for a slot
 * would wait for them (review finding). A direct connection to the server is assumed: behind a pooler the pid is
 * the pooler's session, not the lock holder's.
 */
async function terminate(lockPool: pg.Pool, pid: number, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ ...lockPool.options, connectionTimeoutMillis: timeoutMs });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query(bounded("select pg_terminate_backend($1)", [pid], timeoutMs));
  } catch {
    // The server unreachable too: it drops the session itself once it notices the connection gone.
  } finally {
    await client.end().catch(() => {});
  }
}

/** node-postgres's error for a query past its query_timeout. */
const QUERY_READ_TIMEOUT = "Query read timeout";

/** A query that node-postgres fails with QUERY_READ_TIMEOUT when no answer came within `timeoutMs` (not in @types/pg's QueryConfig). */
const bounded = (text: string, values: unknown[], timeoutMs: number) => ({ text, values, query_timeout: timeoutMs }) as pg.QueryConfig;
