import "server-only";
import type pg from "pg";
import type { InstallationSummary, StoredInstallation } from "./types";

/**
 * The hot path's copy of installations (with their tokens): a point read costs about 0.8 ms on PGlite, and
 * /api/call may add at most 2 ms to a direct call. It stays correct this way:
 *
 * - Every write goes through the repository, which drops the entry after its transaction commits; with
 *   PGlite (one process per DATA_DIR) that is every write there is.
 * - With PostgreSQL, every write also sends NOTIFY on CHANGE_CHANNEL with the installation's new version
 *   and id, in its transaction (so it is delivered at commit), and each instance LISTENs on a dedicated
 *   connection and drops an entry older than that version (and will not keep a read older than it). While that connection is down nothing is cached (reads go to the database), and when
 *   it comes back the whole cache is cleared: a change made meanwhile was never heard.
 * - A read that began before an invalidation does not store what it read (a generation per entry).
 *
 * The rule for callers: anything that spends a refresh token reads the record with `fresh: true` under the
 * refresh lock, never from here; the cache only serves calls that use an access token as it stands.
 */

export const CHANGE_CHANNEL = "switchboard_installations";
const MAX_ENTRIES = 10_000;
const RECONNECT_MS = 1_000;

export class InstallationCache {
  private readonly entries = new Map<string, StoredInstallation | null>();
  private readonly generations = new Map<string, number>();
  /** The highest version other instances announced per id: a read older than it is not kept. */
  private readonly announced = new Map<string, number>();
  private generation = 0;
  /** Every installation's summary (lists), dropped by any change to any installation. */
  private summaries: InstallationSummary[] | undefined;
  /** Bumped by every change: a list read overtaken by one is not kept. */
  private listGeneration = 0;
  private listening: boolean;
  private listener: pg.Client | undefined;
  private reconnect: NodeJS.Timeout | undefined;
  private closed = false;
  readonly stats = { hits: 0, misses: 0, invalidations: 0 };

  /** `connect` makes a dedicated connection for LISTEN (PostgreSQL); without it every write is this process's. */
  constructor(private readonly connect?: () => pg.Client) {
    this.listening = connect === undefined;
  }

  /** Starts listening (PostgreSQL); resolves once the first LISTEN is in place or has failed (then retried). */
  async start(): Promise<void> {
    if (this.connect) await this.listen();
  }

  private async listen(): Promise<void> {
    if (this.closed || !this.connect) return;
    const client = this.connect();
    this.listener = client;
    const lost = () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.listening = false;
      this.clear();
      client.end().catch(() => {});
      if (!this.closed) this.reconnect = setTimeout(() => void this.listen(), RECONNECT_MS);
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (message) => {
      if (message.channel === CHANGE_CHANNEL && message.payload) this.heard(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (this.listener !== client) return;
      // Anything cached before now may have changed unheard.
      this.clear();
      this.listening = true;
    } catch {
      lost();
    }
  }

  /** Whether the cache may serve reads (always with PGlite; with PostgreSQL while LISTEN is up). */
  get active(): boolean {
    return this.listening && !this.closed;
  }

  /** The cached record (null: known absent), or undefined when not cached. A copy: callers may change it. */
  get(id: string): StoredInstallation | null | undefined {
    if (!this.active) return undefined;
    const hit = this.entries.get(id);
    if (hit === undefined) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    return hit === null ? null : structuredClone(hit);
  }

  /** Every installation's summary, as last read (a copy), or undefined when a change dropped it. */
  getSummaries(): InstallationSummary[] | undefined {
    if (!this.active || this.summaries === undefined) return undefined;
    return structuredClone(this.summaries);
  }

  /** The ticket a list reader takes before reading: putSummaries keeps the read only if nothing changed since. */
  summariesTicket(): number {
    return this.listGeneration;
  }

  putSummaries(summaries: InstallationSummary[], ticket: number): void {
    if (!this.active || ticket !== this.listGeneration) return;
    this.summaries = structuredClone(summaries);
  }

  private changed(): void {
    this.listGeneration++;
    this.summaries = undefined;
  }

  /** The token a reader takes before reading, so that a read overtaken by an invalidation is not stored. */
  ticket(id: string): number {
    return (this.generations.get(id) ?? 0) + this.generation * 1e9;
  }

  put(id: string, record: StoredInstallation | null, ticket: number): void {
    if (!this.active || this.ticket(id) !== ticket) return;
    if ((record?.version ?? 0) < (this.announced.get(id) ?? 0)) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, record === null ? null : structuredClone(record));
  }

  /**
   * A change announced by NOTIFY: `<version> <id>` after a write, `deleted <id>` after a delete. An entry at
   * that version or later (this instance's own write, read back) stays.
   */
  heard(payload: string): void {
    const space = payload.indexOf(" ");
    const id = payload.slice(space + 1);
    const version = Number(payload.slice(0, space));
    if (space < 0 || !Number.isInteger(version)) {
      this.invalidate(space < 0 ? payload : id);
      return;
    }
    this.announced.set(id, Math.max(version, this.announced.get(id) ?? 0));
    this.changed();
    const cached = this.entries.get(id);
    if (cached !== undefined && (cached?.version ?? 0) < version) {
      this.stats.invalidations++;
      this.entries.delete(id);
    }
  }

  invalidate(id: string): void {
    this.changed();
    this.stats.invalidations++;
    this.entries.delete(id);
    this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
  }

  clear(): void {
    this.changed();
    this.entries.clear();
    this.generations.clear();
    this.announced.clear();
    this.generation++;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnect);
    const client = this.listener;
    this.listener = undefined;
    this.clear();
    await client?.end().catch(() => {});
  }
}
