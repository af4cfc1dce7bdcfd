import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as sessionRoute } from "@/app/api/session/route";
import { getConfig } from "@/lib/config";
import { findInstallation } from "@/lib/installations/repository";
import { maskToken } from "@/lib/platform";
import { refreshInstallationToken } from "@/lib/installations/rotation/refresh";
import { refreshDueTokens } from "@/lib/installations/rotation/refresher";
import { describeUpstream } from "@/lib/platform/platform-time";
import { advanceEmulatorClock } from "../signin/support";
import { getRotationRuntime, type RotationRuntime } from "@/lib/installations/rotation/runtime";
import { getStore, type Store } from "@/lib/store";
import { passwordsNewestFirst, sealingKeys } from "@/lib/store/sealing";
import { openStore } from "@/lib/store/store";
import { emulatorState, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { startPostgres, type TestPostgres } from "../support/postgres";

// Two console instances on one PostgreSQL (issue 25, item 4): each refresh runs with its own instance's store
// (its own connections, its own in-process lock queue and cache), as two processes behind a load balancer.
let postgres: TestPostgres;
let testConsole: TestConsole;
let instances: Store[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await postgres.createDatabase("two_instances");
  testConsole = await startTestConsole({ DATABASE_URL: url, UPSTREAM_TIMEOUT_MS: "10000" }, { refreshGraceSeconds: 60 });
  delete process.env.DATA_DIR;
  const config = getConfig();
  const keys = sealingKeys(config.encryptionKeys, passwordsNewestFirst(config.sessionPasswords));
  instances = await Promise.all([openStore({ kind: "postgres", url, keys }), openStore({ kind: "postgres", url, keys })]);
}, 120_000);
afterAll(async () => {
  await Promise.all(instances.map((s) => s.close()));
  await (await getStore()).close();
  await testConsole?.close();
  await postgres?.stop();
});

async function admin(path: string, body: unknown) {
  const response = await fetch(`${testConsole.origin}/emulator/admin/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: testConsole.origin },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`admin/${path}: ${response.status}`);
}

const on = (store: Store): RotationRuntime => ({ ...getRotationRuntime(), store: async () => store });
const grants = async () => (await emulatorState(testConsole.origin)).installations.reduce((sum, i) => sum + i.refresh_grants, 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function installed(): Promise<string> {
  await admin("reset", {});
  const browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser)).status).toBe(303);
  const views = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string; installedAt: number }[] }).installations;
  return views.sort((a, b) => b.installedAt - a.installedAt)[0]!.id;
}

describe("two instances on one PostgreSQL", () => {
  it("crossed bot and user refreshes, each kind raced on both instances: one grant per kind, and only unspent refresh tokens stored", async () => {
    const id = await installed();
    const read = (await findInstallation(id, { fresh: true }))!;
    const [a, b] = instances;
    // Both instances hold the record as read before any refresh; each refreshes both kinds at once.
    const outcomes = await Promise.all([
      refreshInstallationToken(read, "bot", on(a!)),
      refreshInstallationToken(read, "user", on(b!)),
      refreshInstallationToken(read, "bot", on(b!)),
      refreshInstallationToken(read, "user", on(a!)),
    ]);
    expect(outcomes.map((o) => o.outcome)).toEqual(["refreshed", "refreshed", "refreshed", "refreshed"]);
    expect(await grants()).toBe(2);
    const stored = (await findInstallation(id, { fresh: true }))!;
    const state = (await (await fetch(`${testConsole.origin}/emulator/admin/state`)).json()) as {
      tokens: { kind: string; masked: string; used_at: string | null }[];
    };
    const spent = new Set(state.tokens.filter((t) => t.kind === "refresh" && t.used_at !== null).map((t) => t.masked));
    expect(spent.has(maskToken(stored.bot!.refreshToken!))).toBe(false);
    expect(spent.has(maskToken(stored.user!.refreshToken!))).toBe(false);
    // Every request answers with the pair the store kept, whichever instance refreshed.
    const kinds = ["bot", "user", "bot", "user"] as const;
    outcomes.forEach((o, i) => expect(o.installation[kinds[i]!]?.value).toBe(stored[kinds[i]!]?.value));
  });

  it("background refreshers on both instances, passing at the same moment after the clock moved: one grant per token", async () => {
    await installed();
    const before = await grants();
    await advanceEmulatorClock(testConsole.origin, 11 * 3600);
    await describeUpstream(getRotationRuntime(), true);
    const [a, b] = instances;
    const settings = { horizonS: 7200, spreadS: 600, alert: null };
    const passes = await Promise.all([refreshDueTokens(on(a!), settings), refreshDueTokens(on(b!), settings)]);
    expect(passes.reduce((n, p) => n + p.failed, 0)).toBe(0);
    expect(passes.reduce((n, p) => n + p.refreshed, 0)).toBe(2);
    expect((await grants()) - before).toBe(2);
  });

  it("a waiter takes over when the holder's connection dies mid-refresh, and replays its intent: one grant, the pair stored", async () => {
    const id = await installed();
    const read = (await findInstallation(id, { fresh: true }))!;
    const [a, b] = instances;
    await admin("faults", { latency_ms: 4_000, methods: ["oauth.v2.access"] });
    // Instance A takes the lock, records its intent and asks the platform, which spends the token and answers late.
    const holder = refreshInstallationToken(read, "bot", on(a!)).catch((e: unknown) => e);
    for (let waited = 0; (await grants()) === 0; waited += 100) {
      if (waited > 20_000) throw new Error("the holder never reached the platform");
      await sleep(100);
    }
    await admin("faults", { latency_ms: 0, methods: [] });
    // Instance B wants the same refresh and waits on the advisory lock.
    const waiter = refreshInstallationToken(read, "bot", on(b!));
    await sleep(300);
    // A's process dies: the server drops its connections, and with them the advisory lock.
    const { default: pg } = await import("pg");
    const killer = new pg.Client({ connectionString: (getConfig().store as { url: string }).url });
    await killer.connect();
    await killer.query("select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and granted and pid <> pg_backend_pid()");
    await killer.end();
    const taken = await waiter;
    expect(taken.outcome).toBe("refreshed");
    expect(await grants()).toBe(1);
    const stored = (await findInstallation(id, { fresh: true }))!;
    expect(stored.bot!.refreshToken).not.toBe(read.bot!.refreshToken);
    expect(taken.installation.bot!.value).toBe(stored.bot!.value);
    await holder;
  }, 60_000);
});
