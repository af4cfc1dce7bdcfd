import { createServer, connect, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as sessionRoute } from "@/app/api/session/route";
import { getConfig } from "@/lib/config";
import { replayUnsettledRefreshes, stopStartUpReplay } from "@/lib/installations/rotation/start-up-replay";
import { shutDown } from "@/lib/ops/shutdown";
import { closeStore, type Store } from "@/lib/store";
import { passwordsNewestFirst, sealingKeys } from "@/lib/store/sealing";
import { openStore } from "@/lib/store/store";
import { emulatorState, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { freePort } from "../support/redis";

// Issue 38: a server that starts while its PostgreSQL is out of reach (not up yet) still replays a dead
// process's unsettled refresh, once the database answers. The console reaches PostgreSQL through a port this
// test opens and closes (a plain TCP relay): closed, a connection is refused as by a server not yet started.
let postgres: TestPostgres;
let testConsole: TestConsole;
let direct: Store;
let relayPort: number;
let relay: Server | undefined;
const relayed = new Set<Socket>();

function openRelay(): Promise<void> {
  relay = createServer((client) => {
    const server = connect(postgres.port, "127.0.0.1");
    for (const socket of [client, server]) {
      relayed.add(socket);
      socket.on("close", () => relayed.delete(socket));
      socket.on("error", () => {
        client.destroy();
        server.destroy();
      });
    }
    client.pipe(server).pipe(client);
  });
  return new Promise((resolve) => relay!.listen(relayPort, "127.0.0.1", resolve));
}

async function closeRelay(): Promise<void> {
  for (const socket of relayed) socket.destroy();
  await new Promise((resolve) => relay?.close(resolve));
  relay = undefined;
}

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await postgres.createDatabase("late_store");
  relayPort = await freePort();
  testConsole = await startTestConsole(
    { DATABASE_URL: url.replace(`:${postgres.port}/`, `:${relayPort}/`), BACKGROUND_REFRESH: "false" },
    { refreshGraceSeconds: 60 },
  );
  delete process.env.DATA_DIR;
  const config = getConfig();
  // Another instance's view of the same database, straight to it: what the test reads while the relay is closed.
  direct = await openStore({ kind: "postgres", url, keys: sealingKeys(config.encryptionKeys, passwordsNewestFirst(config.sessionPasswords)) });
}, 120_000);
afterAll(async () => {
  await stopStartUpReplay();
  await closeStore();
  await direct?.close();
  await closeRelay();
  await testConsole?.close();
  await postgres?.stop();
});

const grants = async () => (await emulatorState(testConsole.origin)).installations.reduce((sum, i) => sum + i.refresh_grants, 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A refresh a process recorded before asking the platform (refresh.ts) and never settled: it died. The store is then out of reach. */
async function deadProcessIntent(): Promise<{ id: string; spent: string }> {
  await openRelay();
  const browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser)).status).toBe(303);
  const views = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string; installedAt: number }[] }).installations;
  const id = views.sort((a, b) => b.installedAt - a.installedAt)[0]!.id;
  const spent = (await direct.installations.get(id, { fresh: true }))!.bot!.refreshToken!;
  await direct.intents.record({ installationId: id, kind: "bot", refreshToken: spent, startedAt: Date.now() });
  await closeStore();
  await closeRelay();
  return { id, spent };
}

const unsettled = async (refreshToken: string) => (await direct.intents.listUnsettled({ startedAfter: 0 })).filter((i) => i.refreshToken === refreshToken);

/** This process is done; what follows is a process started anew (its once-per-process replay not yet tried). */
function startAnotherProcess() {
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("switchboard.startUpReplay")];
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("switchboard.shutdown")];
}

describe("start-up replay with the store out of reach at start", () => {
  it("is tried again until PostgreSQL answers, then settles the dead process's refresh with the platform's new pair", async () => {
    const { id, spent } = await deadProcessIntent();

    // The new process starts with its PostgreSQL out of reach: start-up does not wait for it, nothing is replayed.
    expect(await replayUnsettledRefreshes()).toBe(false);
    await sleep(1_000);
    expect(await unsettled(spent)).toHaveLength(1);
    expect(await grants()).toBe(0);

    // PostgreSQL comes up: a retry reaches it and replays, with nothing else asking for the store.
    await openRelay();
    for (let waited = 0; (await unsettled(spent)).length > 0; waited += 200) {
      if (waited > 20_000) throw new Error("the unsettled refresh was never replayed once the store answered");
      await sleep(200);
    }
    expect((await direct.intents.findByRefreshToken(spent))?.outcome).toBe("refreshed");
    expect(await grants()).toBe(1);
    expect((await direct.installations.get(id, { fresh: true }))!.bot!.refreshToken).not.toBe(spent);
    expect(JSON.stringify((await direct.installations.pageTimeline(id)).entries)).toContain("a refresh replayed after its process stopped");
    // Once is enough: a later start-up call neither asks again nor replays anything more.
    expect(await replayUnsettledRefreshes()).toBe(false);
    expect(await grants()).toBe(1);
    await closeStore();
    await closeRelay();
  }, 90_000);

  it("stops trying at a graceful shutdown", async () => {
    startAnotherProcess();
    const { spent } = await deadProcessIntent();
    const grantsBefore = await grants();
    expect(await replayUnsettledRefreshes()).toBe(false);
    expect(await shutDown("SIGTERM")).toBe(true);

    // The store answers after the shutdown: the retries that would have reached it (0.5 s, then 1 s, 2 s) never come.
    await openRelay();
    await sleep(4_000);
    expect(await unsettled(spent)).toHaveLength(1);
    expect(await grants()).toBe(grantsBefore);
  }, 90_000);
});
