import { randomBytes } from "node:crypto";
import { connect, createServer, type Server, type Socket } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/lib/store";
import { postgresRefreshLock } from "@/lib/store/refresh-lock";
import { openStore } from "@/lib/store/store";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { freePort } from "../support/redis";
import { testKeys } from "./support/contract";

/**
 * The refresh lock's unlock runs after its holder's caller was answered. A connection dropped without a word
 * (a firewall's forgotten flow, a peer gone) answers that unlock never: the store reaches PostgreSQL through a
 * TCP relay here that can stop forwarding what its open connections carry, while new connections still pass.
 */
let postgres: TestPostgres;
let relay: Server;
let relayPort: number;
const pairs = new Set<{ client: Socket; server: Socket; silent: boolean }>();
let store: Store;
let url: string;

beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.createDatabase("unlock");
  relayPort = await freePort();
  relay = createServer((client) => {
    const server = connect(postgres.port, "127.0.0.1");
    const pair = { client, server, silent: false };
    pairs.add(pair);
    client.on("data", (chunk) => pair.silent || server.write(chunk));
    server.on("data", (chunk) => pair.silent || client.write(chunk));
    for (const socket of [client, server]) {
      socket.on("close", () => pairs.delete(pair));
      socket.on("error", () => {
        client.destroy();
        server.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => relay.listen(relayPort, "127.0.0.1", resolve));
  store = await openStore({ kind: "postgres", url: url.replace(`:${postgres.port}/`, `:${relayPort}/`), keys: testKeys("current") });
}, 120_000);
afterAll(async () => {
  for (const { client, server } of pairs) [client, server].forEach((s) => s.destroy());
  await new Promise((resolve) => relay?.close(resolve));
  await store?.close().catch(() => {});
  await postgres?.stop();
});

/** From now on, what the connections open now carry goes nowhere (nothing is closed); new connections still pass. */
const silenceOpenConnections = () => pairs.forEach((pair) => (pair.silent = true));

describe("the refresh lock on PostgreSQL, when the holder's connection goes silent", () => {
  it("gives the key back once the unlock goes unanswered, and the lock's next holder takes it", async () => {
    const key = `refresh:${randomBytes(4).toString("hex")}:bot`;
    // The holder's work is done and answered; its unlock is sent into a connection that no longer carries anything.
    expect(await store.withRefreshLock(key, async () => (silenceOpenConnections(), "refreshed"))).toBe("refreshed");
    const started = Date.now();
    // Before: the unlock waited for ever, the key stayed held in this process, and this waited its 15 s out (503 refresh_in_progress).
    expect(await store.withRefreshLock(key, async () => "refreshed again", { waitMs: 15_000 })).toBe("refreshed again");
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);

  it("ends the silent holder's session on the server even when every connection of the lock pool is taken", async () => {
    // One slot, held by the holder whose unlock goes unanswered: a terminate queued for a slot of that pool would
    // wait for the very connection it is meant to end (review finding), and the server would keep the lock.
    const pool = new pg.Pool({ connectionString: url.replace(`:${postgres.port}/`, `:${relayPort}/`), max: 1, connectionTimeoutMillis: 2_000 });
    pool.on("error", () => {});
    const direct = new pg.Client({ connectionString: url });
    await direct.connect();
    const advisoryLocks = async () => Number((await direct.query<{ n: string }>("select count(*) as n from pg_locks where locktype = 'advisory'")).rows[0]!.n);
    try {
      const lock = postgresRefreshLock(pool, undefined, 1_000);
      const key = `refresh:${randomBytes(4).toString("hex")}:bot`;
      expect(await lock(key, async () => (expect(await advisoryLocks()).toBe(1), silenceOpenConnections(), "refreshed"))).toBe("refreshed");
      // The server gives the lock up once its session is ended; before, nothing ended it (the relay keeps the socket open).
      await expect.poll(advisoryLocks, { timeout: 8_000, interval: 200 }).toBe(0);
    } finally {
      await direct.end();
      await pool.end().catch(() => {});
    }
  }, 60_000);
});
