import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createKeyRoute } from "@/app/api/api-keys/route";
import { DELETE as revokeKeyRoute } from "@/app/api/api-keys/[id]/route";
import { findInstallation } from "@/lib/installations/repository";
import { refreshInstallationToken } from "@/lib/installations/rotation/refresh";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import { getStore } from "@/lib/store";
import { CHANGE_CHANNEL } from "@/lib/store/installation-cache";
import { listenerName } from "@/lib/store/listen";
import { flushAudit } from "@/lib/token-api/audit";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { startTokenApiInstance, type TokenApiInstance } from "./support/instance";

// Issue 43: the token API answers from each instance's caches (the key, the workspace's installation, the
// token), and a change made on one instance holds on every other: a revoked key refused within a second, a
// refreshed token served at once. This process is one instance (its routes called directly); the other is a
// process of its own on the same PostgreSQL.
let postgres: TestPostgres;
let testConsole: TestConsole;
let other: TokenApiInstance;
let operator: TestBrowser;
let teamId: string;
let installationId: string;

beforeAll(async () => {
  postgres = await startPostgres();
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "false", DATABASE_URL: await postgres.createDatabase("token_api_two") });
  delete process.env.DATA_DIR;
  operator = new TestBrowser(testConsole.origin);
  const done = await installIn(operator);
  expect(done.status).toBe(303);
  installationId = new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!;
  teamId = installationId.split("-")[0]!;
  other = await startTokenApiInstance();
}, 120_000);
afterAll(async () => {
  await other?.close();
  await flushAudit();
  await (await getStore()).close();
  await testConsole?.close();
  await postgres?.stop();
});

async function createKey(name: string, app: "console" | "legacy" = "console"): Promise<{ key: string; id: string }> {
  const response = await operator.send(createKeyRoute, "/api/api-keys", { method: "POST", json: { name, app } });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { key: string; apiKey: { id: string } };
  return { key: body.key, id: body.apiKey.id };
}

/** The other instance's answer to a backend asking for the bot token. */
async function askOther(key: string): Promise<{ status: number; body: { access_token?: string; error?: string; installation_id?: string } }> {
  const response = await fetch(`${other.origin}/api/v1/installations/${teamId}/token?kind=bot`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: (await response.json()) as { access_token?: string; error?: string } };
}

describe("the token API on two instances of one PostgreSQL", () => {
  it("refuses a key revoked on one instance on the other within a second, though the other had it cached", async () => {
    const backend = await createKey("backend");
    // Warm: the other instance has read the key and the installation.
    for (let i = 0; i < 3; i++) expect((await askOther(backend.key)).status).toBe(200);
    const revoked = await operator.send(revokeKeyRoute, `/api/api-keys/${backend.id}`, { method: "DELETE", params: { id: backend.id } });
    expect(revoked.status).toBe(200);
    const revokedAt = performance.now();
    let answer = await askOther(backend.key);
    while (answer.status === 200 && performance.now() - revokedAt < 1_000) answer = await askOther(backend.key);
    expect(answer).toMatchObject({ status: 403, body: { error: "api_key_revoked" } });
    expect(performance.now() - revokedAt).toBeLessThan(1_000);
    // And it stays refused.
    expect((await askOther(backend.key)).status).toBe(403);
  });

  it("serves a token refreshed on one instance from the other at once, every time", async () => {
    const backend = await createKey("refreshing backend");
    let served = (await askOther(backend.key)).body.access_token;
    expect(served).toBe((await findInstallation(installationId, { fresh: true }))!.bot!.value);
    for (let round = 0; round < 5; round++) {
      const before = (await findInstallation(installationId, { fresh: true }))!;
      const outcome = await refreshInstallationToken(before, "bot", getRotationRuntime(), { reason: "requested", by: "the two-instance test" });
      expect(outcome.outcome).toBe("refreshed");
      // The very next request to the other instance, with no wait: the newest token, never the one it had cached.
      served = (await askOther(backend.key)).body.access_token;
      const newest = (await findInstallation(installationId, { fresh: true }))!.bot!.value;
      expect(outcome.installation.bot!.value).toBe(newest);
      expect(served).toBe(newest);
    }
  });

  it("serves a refreshed token from the other instance at once though that instance hears of the refresh late", async () => {
    // On a loaded machine each listener's backend delivers a notification in its own time: the other
    // instance may hear of a refresh after this one has answered and its client has asked the other. Here its
    // backend is paused for 300 ms at the commit (as a busy machine might): the refresh must not answer before
    // the other instance has dropped the token it had cached.
    const backend = await createKey("late-hearing backend");
    expect((await askOther(backend.key)).status).toBe(200);
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1", [
        listenerName(CHANGE_CHANNEL, other.pid),
      ]);
      expect(rows).toHaveLength(1);
      const listenerBackend = rows[0]!.pid;
      const before = (await findInstallation(installationId, { fresh: true }))!;
      process.kill(listenerBackend, "SIGSTOP");
      const resume = setTimeout(() => process.kill(listenerBackend, "SIGCONT"), 300);
      try {
        const outcome = await refreshInstallationToken(before, "bot", getRotationRuntime(), { reason: "requested", by: "the two-instance test" });
        expect(outcome.outcome).toBe("refreshed");
        expect((await askOther(backend.key)).body.access_token).toBe(outcome.installation.bot!.value);
      } finally {
        clearTimeout(resume);
        process.kill(listenerBackend, "SIGCONT");
      }
    } finally {
      await admin.end();
    }
  });

  it("finds an installation made on one instance within a second on the other, which had been told the workspace had none of that app", async () => {
    const backend = await createKey("legacy backend", "legacy");
    expect(await askOther(backend.key)).toMatchObject({ status: 404, body: { error: "unknown_installation" } });
    expect((await installIn(operator, "?app=legacy")).status).toBe(303);
    const madeAt = performance.now();
    let after = await askOther(backend.key);
    while (after.status === 404 && performance.now() - madeAt < 1_000) after = await askOther(backend.key);
    expect(after.status).toBe(200);
    expect(after.body.installation_id).not.toBe(installationId);
  });

  it("finds an installation in its new workspace on the other instance within a second of a save that moved it there", async () => {
    const backend = await createKey("moving backend");
    const ask = async (team: string) => {
      const response = await fetch(`${other.origin}/api/v1/installations/${team}/token?kind=bot`, { headers: { authorization: `Bearer ${backend.key}` } });
      return { status: response.status, body: (await response.json()) as { error?: string; installation_id?: string } };
    };
    // The other instance has been told the new workspace has none.
    expect(await ask("T0MOVED")).toMatchObject({ status: 404, body: { error: "unknown_installation" } });
    const store = await getStore();
    const stored = (await store.installations.get(installationId, { fresh: true }))!;
    await store.installations.put({ ...stored, team: { ...stored.team, id: "T0MOVED" } }, { expectVersion: stored.version });
    const movedAt = performance.now();
    let after = await ask("T0MOVED");
    while (after.status === 404 && performance.now() - movedAt < 1_000) after = await ask("T0MOVED");
    expect(after).toMatchObject({ status: 200, body: { installation_id: installationId } });
  });
});
