import "server-only";
import type pg from "pg";

/**
 * A PostgreSQL LISTEN on a connection of its own, for a cache that other instances' writes invalidate
 * (NOTIFY is sent in the writing transaction, so it is delivered at commit). The cache serves reads only
 * while `up`; when the connection is lost the cache is told (`lost`: forget everything, as a change made
 * meanwhile was never heard) and it is opened again after RECONNECT_MS.
 *
 * A connection can also die without saying so (a half-open TCP connection after a network failure): no
 * error, no `end`, and no notification ever again, while the cache would go on serving what it holds. So the
 * listener says LISTEN again on it every CHECK_EVERY_MS (a no-op for the server, a round trip for the
 * connection, and what pg_stat_activity keeps showing for it); an answer that takes more than
 * CHECK_TIMEOUT_MS counts as a lost connection. That is the bound on a notification never heard: a cache serves nothing older than
 * CHECK_EVERY_MS + CHECK_TIMEOUT_MS (3 s) after its connection stopped delivering.
 */

const RECONNECT_MS = 1_000;
const CHECK_EVERY_MS = 1_000;
const CHECK_TIMEOUT_MS = 2_000;

export interface ListenHandlers {
  /** A notification's payload on the channel. */
  heard(payload: string): void;
  /** LISTEN is in place (again): anything kept from before may have changed unheard. */
  listening(): void;
  /** The connection is gone: forget everything. */
  lost(): void;
}

export class ChannelListener {
  private client: pg.Client | undefined;
  private reconnect: NodeJS.Timeout | undefined;
  private check: NodeJS.Timeout | undefined;
  private closed = false;
  up = false;

  constructor(
    private readonly channel: string,
    private readonly connect: () => pg.Client,
    private readonly handlers: ListenHandlers,
  ) {}

  /** Resolves once the first LISTEN is in place or has failed (then retried). */
  async start(): Promise<void> {
    if (this.closed) return;
    const client = this.connect();
    this.client = client;
    const lost = () => this.drop(client);
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (message) => {
      if (message.channel === this.channel && message.payload) this.handlers.heard(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      if (this.client !== client) return;
      this.handlers.listening();
      this.up = true;
      this.check = setInterval(() => void this.alive(client), CHECK_EVERY_MS);
      this.check.unref();
    } catch {
      lost();
    }
  }

  /** Asks the connection for an answer; no answer within CHECK_TIMEOUT_MS and it counts as lost. */
  private async alive(client: pg.Client): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), CHECK_TIMEOUT_MS);
    });
    const answer = await Promise.race([
      client.query(`LISTEN ${this.channel}`).then(
        () => "ok" as const,
        () => "failed" as const,
      ),
      timeout,
    ]);
    clearTimeout(timer);
    if (answer !== "ok") this.drop(client);
  }

  private drop(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.up = false;
    clearInterval(this.check);
    this.handlers.lost();
    client.end().catch(() => {});
    if (!this.closed) this.reconnect = setTimeout(() => void this.start(), RECONNECT_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.up = false;
    clearTimeout(this.reconnect);
    clearInterval(this.check);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
