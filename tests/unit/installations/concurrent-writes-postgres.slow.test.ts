import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as refreshRoute } from "@/app/api/tokens/refresh/route";
import { POST as testRoute } from "@/app/api/tokens/test/route";
import { getConfig } from "@/lib/config";
import { findInstallation } from "@/lib/installations/repository";
import { getStore, VersionConflictError, type Store } from "@/lib/store";
import { passwordsNewestFirst, sealingKeys } from "@/lib/store/sealing";
import { openStore } from "@/lib/store/store";
import { emulatorState, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { startPostgres, type TestPostgres } from "../support/postgres";

/**
 * Issue 37, item 3: on PostgreSQL, presses that land on one installation at the same moment each answer
 * and each leave their timeline entry, whether they come from one console instance or from two (here the
 * second instance is a second store on the same database, with its own connections and cache, writing the
 * installation while the first answers the presses).
 */
let postgres: TestPostgres;
let testConsole: TestConsole;
let operator: TestBrowser;
let id: string;
let second: Store;

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await postgres.createDatabase("concurrent_writes");
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "false", DATABASE_URL: url, UPSTREAM_TIMEOUT_MS: "10000" });
  delete process.env.DATA_DIR;
  operator = new TestBrowser(testConsole.origin);
  const done = await installIn(operator);
  expect(done.status).toBe(303);
  id = new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!;
  const config = getConfig();
  second = await openStore({ kind: "postgres", url, keys: sealingKeys(config.encryptionKeys, passwordsNewestFirst(config.sessionPasswords)) });
}, 120_000);
afterAll(async () => {
  await second?.close();
  await (await getStore()).close();
  await testConsole?.close();
  await postgres?.stop();
});

const press = (route: typeof testRoute, path: string, kind: "bot" | "user" = "bot") =>
  operator.fork().send(route, path, { method: "POST", json: { installation: id, token: kind } });

async function entries(): Promise<Array<Record<string, unknown>>> {
  const page = await (await getStore()).installations.pageTimeline(id, { limit: 200 });
  return page.entries.map((e) => e.entry);
}

describe("concurrent writes to one installation on PostgreSQL", () => {
  it("answers 30 concurrent Test presses, each with its 'tested' entry", async () => {
    const before = (await entries()).filter((e) => e.type === "tested").length;
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => press(testRoute, "/api/tokens/test", i % 2 ? "bot" : "user")));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    expect((await entries()).filter((e) => e.type === "tested").length - before).toBe(30);
  });

  it("answers Test presses while a second instance writes the installation, and loses no entry of either", async () => {
    const before = await entries();
    const stored = (await second.installations.get(id, { fresh: true }))!;
    // The second instance: a real change of the record (a rename, version bumped) and its own timeline entries, over and over.
    const writes = (async () => {
      let current = stored;
      for (let i = 0; i < 10; i++) {
        const { version, ...record } = current;
        current = await second.installations.put({ ...record, appName: `Renamed ${i}` }, { expectVersion: version }).catch(async (error: unknown) => {
          // A refresh on the first instance wrote meanwhile: read again and rename that (as the console's save merges).
          if (!(error instanceof VersionConflictError)) throw error;
          const { version: latest, ...again } = (await second.installations.get(id, { fresh: true }))!;
          return second.installations.put({ ...again, appName: `Renamed ${i}` }, { expectVersion: latest });
        });
        await second.installations.appendTimeline(id, [
          { at: Date.now(), type: "tested", token: "bot", masked: "xoxe.xoxb-1-…", ok: true, by: `other instance ${i}` },
        ]);
      }
    })();
    const answers = await Promise.all(Array.from({ length: 30 }, () => press(testRoute, "/api/tokens/test")));
    await writes;
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    const added = (await entries()).length - before.length;
    expect(added).toBe(40);
  });

  it("answers 20 concurrent Refresh presses with one grant, each answered, never a 500", async () => {
    const grants = async () => (await emulatorState(testConsole.origin)).installations.reduce((sum, i) => sum + i.refresh_grants, 0);
    const before = await grants();
    const answers = await Promise.all(Array.from({ length: 20 }, () => press(refreshRoute, "/api/tokens/refresh")));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(await grants()).toBe(before + 1);
    expect((await findInstallation(id, { fresh: true }))!.state).toBe("active");
  });
});
