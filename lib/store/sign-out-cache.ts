import "server-only";
import type pg from "pg";

/**
 * This process's copy of each person's sign-out count (sign-outs.ts), so that checking a sign-in cookie
 * costs no round trip to the database once a person has been seen: /api/call checks it on every call.
 *
 * A count only ever grows, so the cache keeps the highest it has seen and never goes back. It stays
 * correct as the installation cache does (installation-cache.ts):
 * - With PGlite, every sign-out is this process's and goes through the store, which records the new count here.
 * - With PostgreSQL, a sign-out sends NOTIFY on SIGN_OUT_CHANNEL (`<count> <person>`) in its transaction, and
 *   each instance LISTENs on a connection of its own. While that connection is down nothing is served from
 *   here (reads go to the database); when it comes back everything is forgotten, as a sign-out made
 *   meanwhile was never heard, and a read that began before that is not kept.
 */

export const SIGN_OUT_CHANNEL = "switchboard_sign_outs";
const MAX_ENTRIES = 10_000;
const RECONNECT_MS = 1_000;

export class SignOutCache {
  private readonly entries = new Map<string, number>();
  /** Bumped when everything is forgotten: a read that began before is not kept. */
  private epoch = 0;
  private listening: boolean;
  private listener: pg.Client | undefined;
  private reconnect: NodeJS.Timeout | undefined;
  private closed = false;

  /** `connect` makes a dedicated connection for LISTEN (PostgreSQL); without it every sign-out is this process's. */
  constructor(private readonly connect?: () => pg.Client) {
    this.listening = connect === undefined;
  }

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
      this.forgetAll();
      client.end().catch(() => {});
      if (!this.closed) this.reconnect = setTimeout(() => void this.listen(), RECONNECT_MS);
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (message) => {
      if (message.channel === SIGN_OUT_CHANNEL && message.payload) this.heard(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${SIGN_OUT_CHANNEL}`);
      if (this.listener !== client) return;
      this.forgetAll();
      this.listening = true;
    } catch {
      lost();
    }
  }

  private get active(): boolean {
    return this.listening && !this.closed;
  }

  /** The person's count as this process knows it, or undefined when it must be read. */
  get(person: string): number | undefined {
    return this.active ? this.entries.get(person) : undefined;
  }

  /** The ticket a reader takes before reading the database: `put` keeps the read only if nothing was forgotten since. */
  ticket(): number {
    return this.epoch;
  }

  /** Keeps a count read or written (the highest wins: counts only grow). */
  put(person: string, generation: number, ticket: number): void {
    if (!this.active || ticket !== this.epoch) return;
    const known = this.entries.get(person);
    if (known !== undefined && known >= generation) return;
    if (known === undefined && this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(person, generation);
  }

  /** A sign-out another instance announced: `<count> <person>`. */
  heard(payload: string): void {
    const space = payload.indexOf(" ");
    const generation = Number(payload.slice(0, space));
    const person = payload.slice(space + 1);
    if (space < 0 || !Number.isInteger(generation)) {
      this.forgetAll();
      return;
    }
    // Kept even when the person was not cached: a read already on its way with an older count must not win.
    const known = this.entries.get(person);
    if (known === undefined || known < generation) {
      if (known === undefined && this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(person, generation);
    }
  }

  private forgetAll(): void {
    this.entries.clear();
    this.epoch++;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnect);
    const client = this.listener;
    this.listener = undefined;
    this.forgetAll();
    await client?.end().catch(() => {});
  }
}
