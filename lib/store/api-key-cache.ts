import "server-only";
import type pg from "pg";
import { deepFreeze } from "./deep-freeze";
import { ChannelListener } from "./listen";
import type { StoreApiKey } from "./types";

/**
 * This process's copy of the token API's keys, by hash, so that checking a key costs no round trip to the
 * database once it has been seen. A key changes only when it is revoked, and a revoke must hold everywhere
 * within a second:
 * - With PGlite, every revoke is this process's and goes through the store, which drops the key here after
 *   its write.
 * - With PostgreSQL, a revoke also sends NOTIFY on KEY_CHANNEL (the key's id) in its transaction, and each
 *   instance LISTENs on a connection of its own (listen.ts) and drops the key: the next request reads it
 *   revoked. While that connection is down nothing is served from here; when it comes back everything is
 *   forgotten, and a connection that dies silently is found within 3 s.
 * - A read that began before a revoke was heard is not kept (an epoch).
 * Unknown keys are never kept (a guesser must not fill the cache); at most MAX_ENTRIES keys are, the least
 * recently used dropped first. What is kept says nothing of a key's last use (the audit writes that).
 */

export const KEY_CHANNEL = "switchboard_api_keys";
/** At most this many keys are kept, the least recently used dropped first. @internal exported for its test */
export const MAX_ENTRIES = 10_000;

export class ApiKeyCache {
  private readonly entries = new Map<string, StoreApiKey>();
  private epoch = 0;
  private readonly listener: ChannelListener | undefined;
  private closed = false;

  /** `connect` makes a dedicated connection for LISTEN (PostgreSQL); without it every revoke is this process's. */
  constructor(connect?: () => pg.Client) {
    this.listener = connect
      ? new ChannelListener(KEY_CHANNEL, connect, {
          heard: (id) => this.forget(id),
          listening: () => this.forgetAll(),
          lost: () => this.forgetAll(),
        })
      : undefined;
  }

  async start(): Promise<void> {
    await this.listener?.start();
  }

  private get active(): boolean {
    return (this.listener?.up ?? true) && !this.closed;
  }

  /**
   * The key with this hash, or undefined when it must be read: the cache's own, deeply frozen (no copy per
   * request: the token API only reads it), so a caller cannot change what the next one reads.
   */
  get(hash: string): StoreApiKey | undefined {
    if (!this.active) return undefined;
    const hit = this.entries.get(hash);
    if (hit === undefined) return undefined;
    this.entries.delete(hash);
    this.entries.set(hash, hit);
    return hit;
  }

  /** The ticket a reader takes before reading the database: `put` keeps the read only if no revoke was heard since. */
  ticket(): number {
    return this.epoch;
  }

  put(hash: string, key: StoreApiKey, ticket: number): void {
    if (!this.active || ticket !== this.epoch) return;
    this.entries.delete(hash);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, deepFreeze(structuredClone(key)));
  }

  /** A key revoked (here, or announced by another instance): its next use reads it again. */
  forget(id: string): void {
    this.epoch++;
    for (const [hash, key] of this.entries) if (key.id === id) this.entries.delete(hash);
  }

  private forgetAll(): void {
    this.epoch++;
    this.entries.clear();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.forgetAll();
    await this.listener?.close();
  }
}
