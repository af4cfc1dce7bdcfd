import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RefreshLockTimeoutError, type Store } from "@/lib/store";
import { openStore } from "@/lib/store/store";
import { ADVISORY_NAMESPACE, MIGRATIONS_FOLDER, openBackend } from "@/lib/store/backend";
import { freePort } from "../support/redis";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { installation, storeContract, testKeys, token } from "./support/contract";

const MIGRATION_COUNT = (JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;

let server: TestPostgres;
let url: string;
beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase("contract");
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

storeContract("PostgreSQL", () => ({ openBackend: () => openBackend({ kind: "postgres", url }) }));

const keys = testKeys("current");

async function waitFor(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("the store on PostgreSQL, across instances", () => {
  let a: Store;
  let b: Store;
  let admin: pg.Client;

  beforeAll(async () => {
    [a, b] = await Promise.all([openStore({ kind: "postgres", url, keys }), openStore({ kind: "postgres", url, keys })]);
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  }, 60_000);
  afterAll(async () => {
    await Promise.allSettled([a?.close(), b?.close(), admin?.end()]);
  });

  it("keeps a refresh lock to one holder across two instances", async () => {
    const key = `lock-${randomBytes(4).toString("hex")}`;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = a.withRefreshLock(key, async () => {
      entered();
      await held;
      return "a";
    });
    await inside;
    await expect(b.withRefreshLock(key, async () => "b too early", { waitMs: 300 })).rejects.toBeInstanceOf(RefreshLockTimeoutError);
    const second = b.withRefreshLock(key, async () => "b", { waitMs: 10_000 });
    release();
    expect(await Promise.all([first, second])).toEqual(["a", "b"]);
  });

  it("lets a waiter take over the moment the holder's connection dies", async () => {
    const key = `lock-${randomBytes(4).toString("hex")}`;
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const holderHangs = new Promise<void>((resolve) => (release = resolve));
    const holder = a.withRefreshLock(key, async () => {
      entered();
      await holderHangs;
      return "holder";
    });
    await inside;
    let waiterRan = false;
    const waiter = b.withRefreshLock(
      key,
      async () => {
        waiterRan = true;
        return "waiter";
      },
      { waitMs: 10_000 },
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(waiterRan).toBe(false);
    // As if the holder's process were killed: the server ends its session, and with it the lock.
    const killed = await admin.query(
      "select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and granted and classid = $1::bigint::oid and objid = (hashtext($2)::bigint & 4294967295)::oid",
      [ADVISORY_NAMESPACE, key],
    );
    expect(killed.rowCount).toBe(1);
    expect(await waiter).toBe("waiter");
    release();
    expect(await holder).toBe("holder");
    // The holder's instance still takes the lock afterwards (its dead connection was not pooled again).
    expect(await a.withRefreshLock(key, async () => "again", { waitMs: 5_000 })).toBe("again");
  });

  it("drops another instance's cached installation when one writes it (NOTIFY)", async () => {
    const record = installation();
    await a.installations.put(record);
    expect((await b.installations.get(record.id))?.version).toBe(1);
    const hits = b.cacheStats().hits;
    expect((await b.installations.get(record.id))?.version).toBe(1);
    expect(b.cacheStats().hits).toBe(hits + 1);
    const newer = token({ issuedAt: record.bot!.issuedAt + 1 });
    await a.installations.put({ ...record, bot: newer });
    await waitFor(async () => (await b.installations.get(record.id))?.version === 2, "b to see version 2 without asking fresh");
    expect((await b.installations.get(record.id))?.bot).toEqual(newer);
    await a.installations.delete(record.id);
    await waitFor(async () => (await b.installations.get(record.id)) === null, "b to see the installation gone");
  });

  it("serves nothing from the cache while its LISTEN connection is down, and clears it once back", async () => {
    const record = installation();
    await a.installations.put(record);
    await b.installations.get(record.id);
    // Every listening connection names its channel, process and host (listen.ts).
    await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name like 'switchboard\\_%' and datname = current_database()");
    await waitFor(() => !b.cacheStats().active, "b's cache to stop serving");
    // Written while b cannot hear it:
    await a.installations.put({ ...record, appName: "Written unheard" });
    expect((await b.installations.get(record.id))?.appName).toBe("Written unheard");
    await waitFor(() => b.cacheStats().active, "b's listener to reconnect");
    expect((await b.installations.get(record.id))?.appName).toBe("Written unheard");
  });

  it("migrates a new database once when two instances start at the same moment", async () => {
    const fresh = await server.createDatabase(`twice_${randomBytes(3).toString("hex")}`);
    const both = await Promise.all([openStore({ kind: "postgres", url: fresh, keys }), openStore({ kind: "postgres", url: fresh, keys })]);
    try {
      const client = new pg.Client({ connectionString: fresh });
      await client.connect();
      const applied = await client.query("select count(*)::int as n from drizzle.__drizzle_migrations");
      await client.end();
      // Every migration once (the journal lists them), not once per instance.
      expect(applied.rows[0].n).toBe(MIGRATION_COUNT);
      const record = installation();
      await both[0].installations.put(record);
      expect((await both[1].installations.get(record.id))?.id).toBe(record.id);
    } finally {
      await Promise.all(both.map((s) => s.close()));
    }
  });

  it("answers 503 store_unavailable, naming DATABASE_URL but not its password, when the database cannot be reached at start", async () => {
    const port = await freePort();
    const password = `pw${randomBytes(8).toString("hex")}`;
    const opening = openStore({ kind: "postgres", url: `postgres://someone:${password}@127.0.0.1:${port}/switchboard`, keys });
    const error = await opening.then(
      () => undefined,
      (e: unknown) => e as { code?: string; status?: number; message: string },
    );
    expect(error).toMatchObject({ code: "store_unavailable", status: 503 });
    expect(error!.message).toContain(`PostgreSQL at 127.0.0.1:${port}/switchboard (DATABASE_URL)`);
    expect(error!.message).not.toContain(password);
  });
});

describe("the store on PostgreSQL, when the database goes away", () => {
  it("answers 503 store_unavailable for reads, writes and the refresh lock, and stops serving its cache", async () => {
    const own = await startPostgres();
    const store = await openStore({ kind: "postgres", url: own.url, keys });
    try {
      const record = installation();
      await store.installations.put(record);
      await store.installations.get(record.id);
      await own.stop();
      await expect(store.installations.get(record.id, { fresh: true })).rejects.toMatchObject({ code: "store_unavailable", status: 503 });
      // Once its LISTEN connection is gone the cache cannot know of changes, so it serves nothing.
      await waitFor(() => !store.cacheStats().active, "the cache to stop serving");
      await expect(store.installations.get(record.id)).rejects.toMatchObject({ code: "store_unavailable", status: 503 });
      await expect(store.installations.put({ ...record, appName: "lost" })).rejects.toMatchObject({ code: "store_unavailable", status: 503 });
      await expect(store.withRefreshLock("k", async () => 1)).rejects.toMatchObject({ code: "store_unavailable" });
    } finally {
      await store.close();
      await own.stop();
    }
  }, 60_000);
});
