import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callGet } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { POST as refreshRoute } from "@/app/api/tokens/refresh/route";
import { POST as testRoute } from "@/app/api/tokens/test/route";
import { emulatorOverHttp } from "@/lib/ops/seed/emulator-seeder";
import { seedInstallations, type SeedResult } from "@/lib/ops/seed/seed-installations";
import { getStore } from "@/lib/store";
import { emulatorState, startTestConsole, TestBrowser, type TestConsole } from "../support/console";

/**
 * Issue 43, seeding: installations made without the OAuth flow are, for the console and for the emulated
 * platform, what an install would have made. The console lists them and finds one by its workspace's name,
 * opens their sealed tokens, tests and refreshes them; the emulator answers auth.test for those tokens in
 * the seeded workspace, and counts the refresh as its grant.
 */
let testConsole: TestConsole;
let browser: TestBrowser;
let result: SeedResult;
const COUNT = 40;

interface View {
  id: string;
  team: { id: string; name: string };
  bot: { rotating: boolean; expiresAt: number | null } | null;
  user: { rotating: boolean } | null;
}
async function list(query: string): Promise<{ installations: View[]; page: { matched: number; counts: Record<string, number> } }> {
  const response = await browser.send(sessionRoute, `/api/session${query}`);
  expect(response.status, query).toBe(200);
  return (await response.json()) as never;
}

beforeAll(async () => {
  testConsole = await startTestConsole();
  browser = new TestBrowser(testConsole.origin);
  result = await seedInstallations({
    store: await getStore(),
    emulator: emulatorOverHttp(`${testConsole.origin}/emulator`, process.env.EMULATOR_ADMIN_TOKEN),
    installations: COUNT,
    rotatingShare: 0.5,
    userShare: 0.25,
    // Batches of 16: the last one short, and the next asked while one is stored.
    batchSize: 16,
  });
}, 60_000);
afterAll(() => testConsole.close());

describe("npm run seed's library", () => {
  it("makes the installations asked for, about half rotating and a quarter with a user token", () => {
    expect(result.installations).toBe(COUNT);
    // Shares are spread by an additive recurrence, not drawn: within one of the exact share.
    expect(Math.abs(result.rotating - COUNT / 2)).toBeLessThanOrEqual(1);
    expect(Math.abs(result.withUserToken - COUNT / 4)).toBeLessThanOrEqual(1);
  });

  it("lists them in the console, each filter counted, one found by its workspace's name", async () => {
    const all = await list("?limit=100");
    expect(all.page.counts).toMatchObject({ all: COUNT, rotating: result.rotating, legacy: COUNT - result.rotating, needs_reinstall: 0 });
    const found = await list(`?q=${encodeURIComponent("Acme 00017")}`);
    expect(found.installations.map((i) => i.team.name)).toEqual(["Acme 00017"]);
  });

  it("staggers the rotating tokens' expiries over the next 12 hours", async () => {
    const now = Date.now();
    const expiries = (await list("?state=rotating&limit=100")).installations.map((i) => i.bot!.expiresAt!);
    expect(expiries).toHaveLength(result.rotating);
    expect(Math.min(...expiries)).toBeGreaterThan(now);
    expect(Math.max(...expiries)).toBeLessThanOrEqual(now + 12 * 3600_000);
    // Spread, not all at once: the earliest and the latest at least 8 hours apart.
    expect(Math.max(...expiries) - Math.min(...expiries)).toBeGreaterThan(8 * 3600_000);
  });

  it("stores tokens the console opens and the emulator answers auth.test for, in the seeded workspace", async () => {
    const [target] = (await list(`?q=${encodeURIComponent("Acme 00005")}`)).installations;
    const record = await (await getStore()).installations.get(target!.id);
    const answer = (await (
      await fetch(`${testConsole.origin}/emulator/api/auth.test`, { method: "POST", headers: { authorization: `Bearer ${record!.bot!.value}` } })
    ).json()) as { ok: boolean; team: string; team_id: string; user_id: string; bot_id: string };
    expect(answer).toMatchObject({ ok: true, team: "Acme 00005", team_id: target!.team.id, user_id: record!.botUserId, bot_id: record!.botId });
    // The console's own call route, with the token it opens from the store.
    const viaConsole = await browser.send(callGet, `/api/call/auth.test?installation=${target!.id}&token=bot`, { params: { method: "auth.test" } });
    expect(((await viaConsole.json()) as { team: string }).team).toBe("Acme 00005");
  });

  it("tests a user token and refreshes a rotating one, which the emulator counts as one grant", async () => {
    const withUser = (await list("?limit=100")).installations.find((i) => i.user !== null)!;
    const tested = await browser.send(testRoute, "/api/tokens/test", { method: "POST", json: { installation: withUser.id, token: "user" } });
    expect(((await tested.json()) as { ok: boolean }).ok).toBe(true);

    const [rotating] = (await list("?state=rotating&limit=1")).installations;
    const before = (await (await getStore()).installations.get(rotating!.id))!.bot!;
    const refreshed = await browser.send(refreshRoute, "/api/tokens/refresh", { method: "POST", json: { installation: rotating!.id, token: "bot" } });
    expect(refreshed.status).toBe(200);
    const after = (await (await getStore()).installations.get(rotating!.id, { fresh: true }))!.bot!;
    expect(after.value).not.toBe(before.value);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    const state = await emulatorState(testConsole.origin);
    const grants = state.installations.filter((i) => i.refresh_grants > 0);
    expect(grants).toHaveLength(1);
    expect(grants[0]!.refresh_grants).toBe(1);
  });

  it("refuses a batch it cannot make, saying why, and makes nothing", async () => {
    const seed = (body: unknown) =>
      fetch(`${testConsole.origin}/emulator/admin/installations/seed`, {
        method: "POST",
        headers: { authorization: `Bearer ${process.env.EMULATOR_ADMIN_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const apps = (await (await fetch(`${testConsole.origin}/emulator/admin/apps`)).json()) as {
      apps: Array<{ app_id: string; token_rotation_enabled: boolean }>;
    };
    const legacy = apps.apps.find((a) => !a.token_rotation_enabled)!;
    const workspacesBefore = (await emulatorState(testConsole.origin)).installations.length;
    const refused = [
      await seed({ count: 5_001 }),
      await seed({ count: 2, app_id: legacy.app_id, rotating_share: 0.5 }),
      await seed({ count: 2, app_id: "A0NOSUCHAPP" }),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 400, 404]);
    expect(((await refused[1]!.json()) as { detail: string }).detail).toMatch(/^rotating_share: .* has token rotation off/);
    expect((await emulatorState(testConsole.origin)).installations.length).toBe(workspacesBefore);
  });

  it("stops at a batch the store refuses, saying which --first to resume from", async () => {
    const store = await getStore();
    let batches = 0;
    // The store fails its second batch (a disk full, a lost connection): the first stays stored; the emulator
    // has made that batch and the next (asked while the second was stored).
    const failing = {
      ...store,
      installations: {
        ...store.installations,
        insertMany: async (rows: Parameters<typeof store.installations.insertMany>[0]) => {
          if (++batches === 2) throw new Error("the disk is full");
          return store.installations.insertMany(rows);
        },
      },
    };
    const seeding = seedInstallations({
      store: failing,
      emulator: emulatorOverHttp(`${testConsole.origin}/emulator`, process.env.EMULATOR_ADMIN_TOKEN),
      installations: 30,
      first: 1_000,
      namePrefix: "Broken",
      batchSize: 10,
    });
    await expect(seeding).rejects.toThrow(
      /^Seeding stopped at installation 1010: the disk is full\. Those before it are stored\. The emulator holds installations 1010 to 1029 .*Resume with --first 1010 --installations 20\.$/,
    );
    expect((await list(`?q=Broken&limit=100`)).installations).toHaveLength(10);
  });
});
