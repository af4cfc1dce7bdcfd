import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as sessionRoute } from "@/app/api/session/route";
import { defaultAppCredentials } from "@/lib/emulator";
import { findInstallation, readTimeline } from "@/lib/installations/repository";
import { getStore } from "@/lib/store";
import { sendAlertToWebhook } from "@/lib/webhooks/alert";
import { refreshDueTokens, runRefresherPass } from "@/lib/installations/rotation/refresher";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import { describeUpstream } from "@/lib/platform/platform-time";
import { plannedRefreshAt } from "@/lib/installations/universal/refresh-schedule";
import { forgetAllInstallations, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { advanceEmulatorClock } from "../signin/support";

/**
 * Issue 27, the background refresher, against the emulator over HTTP and the console's store: a token
 * nobody uses is refreshed before it expires (the platform's clock moved past its horizon), once however
 * many instances run a pass at once; a token not yet due is left alone; a refresh the platform refuses for
 * good marks the installation and is announced in a channel; tokens issued together are spread.
 */
let testConsole: TestConsole;
const HORIZON_S = 7_200;
const SPREAD_S = 600;

beforeAll(async () => {
  testConsole = await startTestConsole(
    { REFRESH_HORIZON_S: String(HORIZON_S), REFRESH_SPREAD_S: String(SPREAD_S), BACKGROUND_REFRESH: "false" },
    { workspaces: 2 },
  );
});
afterAll(() => testConsole.close());
beforeEach(async () => {
  await forgetAllInstallations();
  await fetch(`${testConsole.origin}/emulator/admin/reset`, {
    method: "POST",
    headers: { origin: testConsole.origin, "content-type": "application/json" },
    body: "{}",
  });
});

const settings = { horizonS: HORIZON_S, spreadS: SPREAD_S, alert: null };
const emulatorInstallations = () => [...testConsole.emulator.emulator.state.installations.values()];

async function install(query = ""): Promise<string> {
  const browser = new TestBrowser(testConsole.origin);
  const done = await installIn(browser, query);
  expect(done.status).toBe(303);
  return new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!;
}

describe("the background refresher", () => {
  it("leaves tokens alone until their planned time, then refreshes each once, with nobody calling", async () => {
    const id = await install();
    const before = (await findInstallation(id, { fresh: true }))!;
    expect(await runRefresherPass()).toMatchObject({ due: 0, refreshed: 0 });
    expect(emulatorInstallations()[0]!.refreshGrants).toBe(0);
    expect(plannedRefreshAt({ installationId: id, kind: "bot" }, before.bot!.expiresAt!, HORIZON_S, SPREAD_S)).toBeGreaterThan(getRotationRuntime().now());

    // Not yet: 12 h less the horizon less the spread is before either token's planned time, at most.
    await advanceEmulatorClock(testConsole.origin, 43_200 - HORIZON_S - SPREAD_S - 60);
    expect(await runRefresherPass()).toMatchObject({ due: 0 });
    // Past the horizon (each token's planned time lies within the spread before it), a minute more.
    await advanceEmulatorClock(testConsole.origin, SPREAD_S + 120);
    const summary = await runRefresherPass();
    expect(summary).toMatchObject({ due: 2, refreshed: 2, failed: 0, needsReinstall: 0 });
    const after = (await findInstallation(id, { fresh: true }))!;
    expect(after.bot?.value).not.toBe(before.bot?.value);
    expect(after.user?.value).not.toBe(before.user?.value);
    // One refresh per token lifetime: the new tokens live 12 hours from now, so the next pass has nothing due.
    expect(await runRefresherPass()).toMatchObject({ due: 0 });
    expect(emulatorInstallations()[0]!.refreshGrants).toBe(2);
    const { entries } = await readTimeline(await getStore(), id);
    const refreshed = entries.filter((e) => e.type === "refreshed");
    expect(refreshed.map((e) => ("reason" in e ? e.reason : null))).toEqual(["scheduled", "scheduled"]);
    expect(refreshed[0]?.by).toBe("the background refresher");
  });

  it("refreshes a token once when several instances run a pass at the same moment (the store's lock)", async () => {
    await install();
    await advanceEmulatorClock(testConsole.origin, 43_200 - HORIZON_S + 60);
    await runRefresherPass();
    // Three passes at once stand for three instances: only one asks the platform for each token.
    await advanceEmulatorClock(testConsole.origin, 43_200 - HORIZON_S + 60);
    const runtime = getRotationRuntime();
    const passes = await Promise.all([refreshDueTokens(runtime, settings), refreshDueTokens(runtime, settings), refreshDueTokens(runtime, settings)]);
    expect(passes.reduce((n, p) => n + p.refreshed, 0)).toBe(2);
    expect(passes.reduce((n, p) => n + p.failed, 0)).toBe(0);
    expect(emulatorInstallations()[0]!.refreshGrants).toBe(4);
  });

  it("marks an installation whose refresh token the platform refuses, with the reason, and says so in a channel", async () => {
    const [one, two] = [...testConsole.emulator.emulator.state.workspaces.values()];
    const id = await install();
    // The alert goes to the incoming webhook of the app's installation in the other workspace.
    const alerting = await install(`?team=${two!.team.id}`);
    const hook = (await findInstallation(alerting, { fresh: true }))!.incomingWebhook!;
    // The app is uninstalled from the first workspace on the platform, behind the console's back: its refresh tokens die.
    const app = defaultAppCredentials("session-tests", "rotation");
    const uninstall = await fetch(`${testConsole.origin}/emulator/api/apps.uninstall`, {
      method: "POST",
      headers: { authorization: `Bearer ${(await findInstallation(id, { fresh: true }))!.bot!.value}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret }),
    });
    expect(((await uninstall.json()) as { ok: boolean }).ok).toBe(true);
    await advanceEmulatorClock(testConsole.origin, 43_200 - HORIZON_S + 60);
    const summary = await refreshDueTokens(getRotationRuntime(), { ...settings, alert: { kind: "webhook", url: hook.url }, sendAlert: sendAlertToWebhook });
    expect(summary.needsReinstall).toBeGreaterThanOrEqual(1);
    const marked = (await findInstallation(id, { fresh: true }))!;
    expect(marked.state).toBe("needs_reinstall");
    expect(marked.problem).toBe("invalid_refresh_token");
    const { entries } = await readTimeline(await getStore(), id);
    expect(entries.find((e) => e.type === "refresh_failed")).toMatchObject({ reinstall: true, error: "invalid_refresh_token", by: "the background refresher" });
    // The other workspace's channel was told, naming the workspace and never a token.
    const posted = [...two!.messages.values()].flat().map((m) => String(m.text));
    expect(posted.some((text) => text.includes(`needs to be installed again`) && text.includes(one!.team.name))).toBe(true);
    expect(posted.join("\n")).not.toMatch(/xox[bpe]/);
    // The dashboard says so too, and what the refresher is set to.
    const session = (await (await new TestBrowser(testConsole.origin).send(sessionRoute, "/api/session")).json()) as {
      installations: Array<{ id: string; state: string }>;
      refresher: { enabled: boolean; horizonS: number };
    };
    expect(session.installations.find((i) => i.id === id)?.state).toBe("needs_reinstall");
    expect(session.refresher).toMatchObject({ enabled: false, horizonS: HORIZON_S });
  });

  it("backs off a refresh that failed for a passing reason, and says so in the timeline once", async () => {
    const id = await install();
    await advanceEmulatorClock(testConsole.origin, 43_200 - HORIZON_S + 60);
    await describeUpstream(getRotationRuntime(), true);
    // The platform unreachable: nothing answers on port 1.
    const unreachable = { ...getRotationRuntime(), baseUrl: "http://127.0.0.1:1/emulator", transport: undefined, timeoutMs: 500 };
    const first = await refreshDueTokens(unreachable, settings);
    expect(first).toMatchObject({ due: 2, failed: 2, refreshed: 0 });
    // Backing off: the next pass does not try them again at once.
    expect(await refreshDueTokens(unreachable, settings)).toMatchObject({ due: 0 });
    const { entries } = await readTimeline(await getStore(), id);
    const failures = entries.filter((e) => e.type === "refresh_failed");
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatchObject({ reinstall: false, by: "the background refresher" });
    expect((await findInstallation(id, { fresh: true }))!.state).toBe("active");
  });

  it("spreads tokens issued together over the spread, the same way on every instance and in the browser", () => {
    const expiresAt = 1_900_000_000_000;
    const times = Array.from({ length: 200 }, (_, i) => plannedRefreshAt({ installationId: `T${i}-A1`, kind: "bot" }, expiresAt, HORIZON_S, SPREAD_S));
    for (const t of times) {
      expect(t).toBeLessThanOrEqual(expiresAt - HORIZON_S * 1000);
      expect(t).toBeGreaterThan(expiresAt - (HORIZON_S + SPREAD_S) * 1000);
    }
    // Spread across the window, not bunched: every tenth of it holds some.
    const tenths = new Set(times.map((t) => Math.floor((expiresAt - HORIZON_S * 1000 - t) / (SPREAD_S * 100))));
    expect(tenths.size).toBe(10);
    expect(plannedRefreshAt({ installationId: "T1-A1", kind: "user", userId: "U1" }, expiresAt, HORIZON_S, SPREAD_S)).toBe(
      plannedRefreshAt({ installationId: "T1-A1", kind: "user", userId: "U1" }, expiresAt, HORIZON_S, SPREAD_S),
    );
  });
});
