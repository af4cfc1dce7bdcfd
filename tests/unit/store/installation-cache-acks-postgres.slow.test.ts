import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredInstallation } from "@/lib/store";
import { CHANGE_CHANNEL, InstallationCache } from "@/lib/store/installation-cache";
import { listenerName } from "@/lib/store/listen";
import { startPostgres, type TestPostgres } from "../support/postgres";

/**
 * A write on one instance answers once every other instance has dropped what it changed (installation-cache.ts,
 * echo): two caches on one PostgreSQL, as two instances' are, the other's listening backend paused as a busy
 * machine may leave it. The writer's wait is 10 s here, so an acknowledgement is told from the wait running out.
 */
const WAIT_MS = 10_000;
let postgres: TestPostgres;
let url: string;
let admin: pg.Client;
let writer: InstallationCache;
let other: InstallationCache;
let otherBackend: number;

const record = (id: string, version: number): StoredInstallation =>
  ({ id, appKey: "console", team: { id: "T1", name: "Acme" }, state: "active", installedAt: 1, updatedAt: 1, version }) as StoredInstallation;

/** The listening backends of this process, by pid. */
async function listeners(): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1", [listenerName(CHANGE_CHANNEL)]);
  return rows.map((r) => r.pid);
}

/** A write's announcement as the store makes it: expected by its writer, sent in a transaction, then waited for. */
async function announce(payload: string): Promise<number> {
  writer.expectEcho(payload);
  await admin.query("begin");
  await admin.query("select pg_notify($1, $2)", [CHANGE_CHANNEL, payload]);
  await admin.query("commit");
  const started = performance.now();
  await writer.echo(payload);
  return performance.now() - started;
}

async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.createDatabase("cache_acks");
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const connect = () => new pg.Client({ connectionString: url });
  writer = new InstallationCache(connect, WAIT_MS);
  await writer.start();
  const [writerBackend] = await listeners();
  other = new InstallationCache(connect);
  await other.start();
  otherBackend = (await listeners()).find((pid) => pid !== writerBackend)!;
  expect(otherBackend).toBeDefined();
  // The writer knows the other instance once it has heard it say it is there (at its start, then every second).
  const peers = (writer as unknown as { peers: Map<string, number> }).peers;
  await until(() => peers.size === 1, "the writer to hear the other instance");
}, 60_000);
afterAll(async () => {
  await other?.close();
  await writer?.close();
  await admin?.end();
  await postgres?.stop();
});

describe("a write heard on every instance before it answers", () => {
  it("waits for another instance that hears the change late, and answers once it has dropped what changed", async () => {
    other.put("T1-A1", record("T1-A1", 1), other.ticket("T1-A1"));
    expect(other.get("T1-A1")?.version).toBe(1);
    process.kill(otherBackend, "SIGSTOP");
    const resume = setTimeout(() => process.kill(otherBackend, "SIGCONT"), 400);
    let waited: number;
    try {
      waited = await announce("2 T1-A1");
    } finally {
      clearTimeout(resume);
      process.kill(otherBackend, "SIGCONT");
    }
    // Not before the other instance could hear it (its own echo came at once), nor at the wait's end.
    expect(waited).toBeGreaterThanOrEqual(350);
    expect(waited).toBeLessThan(WAIT_MS / 2);
    expect(other.get("T1-A1")).toBeUndefined();
  });

  it("does not wait for an instance that has left (it says goodbye as it closes)", async () => {
    const peers = (writer as unknown as { peers: Map<string, number> }).peers;
    expect(peers.size).toBe(1);
    await other.close();
    await until(() => peers.size === 0, "the writer to hear the other leave");
    // Before goodbyes, a write waited here until the other had been silent for 3 s (its whole wait, 10 s here).
    expect(await announce("3 T1-A1")).toBeLessThan(1_000);
  });
});
