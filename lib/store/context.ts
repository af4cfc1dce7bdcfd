import "server-only";
import { sql } from "drizzle-orm";
import type { Db, Tx } from "./backend";
import { CHANGE_CHANNEL, type InstallationCache } from "./installation-cache";
import type { Sealer } from "./sealing";

/** What each repository module works with: the database, the sealer, the cache and how to announce a change. */
export interface StoreContext {
  db: Db;
  sealer: Sealer;
  cache: InstallationCache;
  /** PostgreSQL: other instances hear of each installation write (NOTIFY); PGlite: only this process writes. */
  notifies: boolean;
  /**
   * PGlite: one connection in this process runs one statement at a time, so what only keeps concurrent
   * connections apart (an advisory lock) guards against nothing there and costs a statement in the queue.
   */
  oneConnection: boolean;
}

/**
 * Announces, inside the writing transaction, that an installation changed: NOTIFY is delivered when the
 * transaction commits (never for one rolled back). This process's cache is dropped by the caller after commit.
 */
export async function announceChange(ctx: StoreContext, tx: Tx, installationId: string, version: number | "deleted" | "moved"): Promise<void> {
  if (!ctx.notifies) return;
  const payload = `${version} ${installationId}`;
  // "moved" (its team or app changed) goes before the write's own version, whose echo the writer waits for.
  if (version !== "moved") ctx.cache.expectEcho(payload);
  await tx.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${payload})`);
}

/**
 * After the commit of a write that announced this change: waits until this instance hears it back and every
 * other instance has acknowledged it, so that each has heard it before the writer answers (installation-cache.ts, echo).
 */
export function heardEverywhere(ctx: StoreContext, installationId: string, version: number | "deleted"): Promise<void> {
  return ctx.cache.echo(`${version} ${installationId}`);
}
