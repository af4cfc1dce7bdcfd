import "server-only";
import { hostname } from "node:os";
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
 * connection, and what pg_stat_activity keeps showing for it), or with a presence channel sends its `alive`
 * there (the same round trip, which also tells the other instances it is there); an answer that takes more than
 * CHECK_TIMEOUT_MS counts as a lost connection. That is the bound on a notification never heard: a cache serves nothing older than
 * CHECK_EVERY_MS + CHECK_TIMEOUT_MS (3 s) after its connection stopped delivering.
 */

const RECONNECT_MS = 1_000;
const CHECK_EVERY_MS = 1_000;
const CHECK_TIMEOUT_MS = 2_000;

export interface ListenHandlers {
  /** A notification's payload on the channel. */
  heard(payload: string): void;
  /** A notification's payload on the presence channel (PresenceOptions), when there is one. */
  presence?(payload: string): void;
  /** LISTEN is in place (again): anything kept from before may have changed unheard. */
  listening(): void;
  /** The connection is gone: forget everything. */
  lost(): void;
}

/**
 * A second channel on the same connection, where instances say they are there: `hello` is sent on it once
 * LISTEN is in place (the others answer with their `alive` at once), `alive` as the connection's periodic check
 * (the round trip the check needs anyway), and `send` puts anything else there (an acknowledgement, a goodbye).
 */
export interface PresenceOptions {
  channel: string;
  hello: string;
  alive: string;
}

/** Each listening connection says whose it is in pg_stat_activity: the channel, the host and the process. */
export function listenerName(channel: string, pid = process.pid, host = hostname()): string {
  // PostgreSQL keeps 63 bytes of an application_name.
  return `${channel} ${pid}@${host}`.slice(0, 63);
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
    private readonly presenceOptions?: PresenceOptions,
  ) {}

  /** Resolves once the first LISTEN is in place or has failed (then retried). */
  async start(): Promise<void> {
    if (this.closed) return;
    const client = this.connect();
    this.client = client;
    const lost = () => this.drop(client);
    client.on("error", lost);
    client.on("end", lost);
    const presence = this.presenceOptions;
    client.on("notification", (message) => {
      if (!message.payload) return;
      if (message.channel === this.channel) this.handlers.heard(message.payload);
      else if (message.channel === presence?.channel) this.handlers.presence?.(message.payload);
    });
    try {
      await client.connect();
      await client.query("select set_config('application_name', $1, false)", [listenerName(this.channel)]);
      await client.query(`LISTEN ${this.channel}`);
      if (presence) await client.query(`LISTEN ${presence.channel}`);
      if (this.client !== client) return;
      this.handlers.listening();
      this.up = true;
      if (presence) void this.send(presence.hello);
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
    const presence = this.presenceOptions;
    const check = presence ? client.query("select pg_notify($1, $2)", [presence.channel, presence.alive]) : client.query(`LISTEN ${this.channel}`);
    const answer = await Promise.race([
      check.then(
        () => "ok" as const,
        () => "failed" as const,
      ),
      timeout,
    ]);
    clearTimeout(timer);
    if (answer !== "ok") this.drop(client);
  }

  /** Sends `payload` on the presence channel, if the connection is up; settles once sent or failed (a lost connection is found by the check). */
  async send(payload: string): Promise<void> {
    if (!this.up || !this.client || !this.presenceOptions) return;
    await this.client.query("select pg_notify($1, $2)", [this.presenceOptions.channel, payload]).catch(() => {});
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
