import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createKeyRoute } from "@/app/api/api-keys/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { GET as tokenRoute } from "@/app/api/v1/installations/[teamId]/token/route";
import { findInstallation, readTimeline } from "@/lib/installations/repository";
import { getStore } from "@/lib/store";
import { describeUpstream } from "@/lib/platform/platform-time";
import { refreshDueTokens } from "@/lib/installations/rotation/refresher";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import type { InstallationView } from "@/lib/installations/universal/view";
import { emulatorState, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

/**
 * Issue 36, item 1, the console's side: the emulator names its state (instance_id at /.well-known/emulator,
 * new after POST /admin/reset); the console keeps it with each installation and compares. An installation
 * made on an emulator that was since reset or replaced is said as such on the dashboard, and neither the
 * token API nor the background refresher treats its tokens as alive. No answer claims a token lives longer
 * than the platform's 12 hours.
 */
let testConsole: TestConsole;
let operator: TestBrowser;
let apiKey: string;

beforeAll(async () => {
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "false" });
  operator = new TestBrowser(testConsole.origin);
  expect((await installIn(operator)).status).toBe(303);
  const created = await operator.send(createKeyRoute, "/api/api-keys", { method: "POST", json: { name: "backend" } });
  apiKey = ((await created.json()) as { key: string }).key;
});
afterAll(() => testConsole.close());

async function install(): Promise<string> {
  const done = await installIn(operator);
  expect(done.status).toBe(303);
  return new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!;
}

async function instanceId(): Promise<string> {
  return ((await (await fetch(`${testConsole.origin}/emulator/.well-known/emulator`)).json()) as { instance_id: string }).instance_id;
}

async function resetEmulator(): Promise<void> {
  const response = await fetch(`${testConsole.origin}/emulator/admin/reset`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${process.env.EMULATOR_ADMIN_TOKEN}` },
    body: "{}",
  });
  expect(response.status).toBe(200);
}

async function askToken(teamId: string): Promise<Response> {
  const request = new Request(`${testConsole.origin}/api/v1/installations/${teamId}/token`, { headers: { authorization: `Bearer ${apiKey}` } });
  return tokenRoute(request, { params: Promise.resolve({ teamId }) });
}

async function dashboard(): Promise<{ installations: InstallationView[]; serverTime: number }> {
  const response = await operator.send(sessionRoute, "/api/session");
  expect(response.status).toBe(200);
  return (await response.json()) as { installations: InstallationView[]; serverTime: number };
}

const grants = async () => (await emulatorState(testConsole.origin)).installations.reduce((n, i) => n + i.refresh_grants, 0);

describe("an emulator that was reset or replaced", () => {
  it("keeps the emulator's instance with each installation it makes", async () => {
    const id = await install();
    expect((await findInstallation(id, { fresh: true }))!.upstreamInstanceId).toBe(await instanceId());
  });

  it("is not refreshed by the background refresher, and said on the dashboard: the emulator was reset, reinstall", async () => {
    const id = await install();
    const installedOn = await instanceId();
    await resetEmulator();
    // Every rotating token is due (a horizon past its 12 hours): the refresher would refresh it if it took it for alive.
    const summary = await refreshDueTokens(getRotationRuntime(), { horizonS: 13 * 3600, spreadS: 0, alert: null });
    expect(summary).toMatchObject({ refreshed: 0, failed: 0 });
    expect(summary.needsReinstall).toBeGreaterThanOrEqual(1);
    expect(await grants()).toBe(0);
    const { installations } = await dashboard();
    const card = installations.find((i) => i.id === id)!;
    expect(card).toMatchObject({ state: "needs_reinstall", problem: "emulator_replaced" });
    expect(card.timeline[0]).toMatchObject({ type: "upstream_replaced", was: installedOn, now: await instanceId() });
    // Said once, however often it is read.
    await dashboard();
    const { entries } = await readTimeline(await getStore(), id);
    expect(entries.filter((e) => e.type === "upstream_replaced")).toHaveLength(1);
  });

  it("is not handed out by the token API: 409 needs_reinstall, and the dashboard says why", async () => {
    const id = await install();
    const teamId = (await findInstallation(id))!.team.id;
    expect((await askToken(teamId)).status).toBe(200);
    await resetEmulator();
    // The console asks the upstream what it is at most every 30 s (upstream-about.ts): here, now.
    await describeUpstream(getRotationRuntime(), true);
    const refused = await askToken(teamId);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: "needs_reinstall" });
    expect((await dashboard()).installations.find((i) => i.id === id)).toMatchObject({ state: "needs_reinstall", problem: "emulator_replaced" });
    // A reinstall on the emulator answering now makes it live again.
    expect(await install()).toBe(id);
    expect((await askToken(teamId)).status).toBe(200);
  });

  it("fills in the instance of an installation stored before the console kept it, on its next read", async () => {
    const id = await install();
    const store = await getStore();
    const { version, upstreamInstanceId: _kept, ...older } = (await store.installations.get(id, { fresh: true }))!;
    await store.installations.put(older, { expectVersion: version });
    expect((await findInstallation(id, { fresh: true }))!.upstreamInstanceId).toBeUndefined();
    const card = (await dashboard()).installations.find((i) => i.id === id)!;
    expect(card.state).toBe("active");
    expect((await findInstallation(id, { fresh: true }))!.upstreamInstanceId).toBe(await instanceId());
  });
});

describe("a token's expiry", () => {
  it("is never said to be more than the platform's 12 hours away, whatever the store holds", async () => {
    const id = await install();
    const store = await getStore();
    const stored = (await store.installations.get(id, { fresh: true }))!;
    // What a platform clock that went back leaves behind: an expiry 37 h 56 min ahead of the platform's now.
    const now = getRotationRuntime().now();
    const { version, ...record } = stored;
    await store.installations.put({ ...record, bot: { ...record.bot!, expiresAt: now + (37 * 60 + 56) * 60_000 } }, { expectVersion: version });
    await describeUpstream(getRotationRuntime(), true);
    const answer = (await (await askToken(record.team.id)).json()) as { expires_in: number; expires_at: number };
    expect(answer.expires_in).toBeLessThanOrEqual(43_200);
    expect(answer.expires_at * 1000).toBeLessThanOrEqual(getRotationRuntime().now() + 43_200_000);
    const { installations, serverTime } = await dashboard();
    const card = installations.find((i) => i.id === id)!;
    expect(card.bot!.expiresAt! - serverTime).toBeLessThanOrEqual(43_200_000);
  });
});
