import { OPERATOR } from "@/lib/viewer";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { callWithFreshToken, needsProactiveRefresh } from "@/lib/installations/rotation/freshness";
import { refreshInstallationToken } from "@/lib/installations/rotation/refresh";
import { findInstallation, saveInstallation } from "@/lib/installations/repository";
import { refreshAccessToken } from "@/lib/platform";
import { getSessionInstallations } from "@/lib/installations/actions/list-installations";
import type { InstallationRecord } from "@/lib/installations/record";
import { getRotationRuntime, type RotationRuntime } from "@/lib/installations/rotation/runtime";
import { emulatorState, startTestConsole, TestBrowser, type TestConsole, forgetAllInstallations } from "../support/console";
import { installIn } from "../support/install";

const HOUR_MS = 3600_000;
let testConsole: TestConsole;
beforeAll(async () => {
  // No grace period upstream: a second use of a refresh token fails at once, so only real single-flight passes.
  testConsole = await startTestConsole({}, { refreshGraceSeconds: 0 });
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

async function installedBrowser() {
  const browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser)).status).toBe(303);
  const session = (await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] };
  const id = session.installations[0]?.id ?? "";
  return { browser, id };
}

/** The installation as the store holds it (the browser holds none of it). */
async function storedIn(_browser: TestBrowser): Promise<InstallationRecord> {
  const [installation] = await getSessionInstallations({ viewer: OPERATOR });
  if (!installation) throw new Error("no installation");
  return installation;
}

async function refreshGrants(): Promise<number> {
  const state = await emulatorState(testConsole.origin);
  return state.installations.reduce((sum, i) => sum + i.refresh_grants, 0);
}

const authTest = (browser: TestBrowser, id: string) =>
  browser.send(callRoute, `/api/call/auth.test?installation=${id}&token=bot`, { params: { method: "auth.test" } });

describe("freshness", () => {
  it("decides a proactive refresh by the window", () => {
    const token = { value: "x", refreshToken: "r", expiresAt: 1_000_000, scopes: [] };
    expect(needsProactiveRefresh(token, 1_000_000 - 601_000, 600)).toBe(false);
    expect(needsProactiveRefresh(token, 1_000_000 - 600_000, 600)).toBe(true);
    expect(needsProactiveRefresh({ value: "x", scopes: [] }, 1_000_000, 600)).toBe(false);
  });

  it("refreshes proactively when the token expires within the window, before calling", async () => {
    const { browser } = await installedBrowser();
    const installation = await storedIn(browser);
    // Our clock says the token has 5 minutes left: the call must not even try the old token.
    const runtime: RotationRuntime = {
      ...getRotationRuntime(),
      now: () => (installation.bot?.expiresAt ?? 0) - 5 * 60_000,
    };
    const outcome = await callWithFreshToken(installation, { tokenKind: "bot", method: "auth.test" }, runtime);
    expect(outcome.refreshed).toBe(true);
    expect(outcome.result.ok).toBe(true);
    expect(outcome.installation.bot?.value).not.toBe(installation.bot?.value);
    expect(outcome.installation.bot?.refreshToken).not.toBe(installation.bot?.refreshToken);
    expect(await refreshGrants()).toBe(1);
  });

  it("does not refresh a token outside the window", async () => {
    const { browser } = await installedBrowser();
    const installation = await storedIn(browser);
    const outcome = await callWithFreshToken(installation, { tokenKind: "bot", method: "auth.test" }, { ...getRotationRuntime() });
    expect(outcome.refreshed).toBe(false);
    expect(outcome.installation).toBe(installation);
    expect(await refreshGrants()).toBe(0);
  });

  it("refreshes reactively, once, when the platform answers token_expired", async () => {
    const { browser, id } = await installedBrowser();
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);
    const response = await authTest(browser, id);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-token-refreshed")).toBe("1");
    expect(((await response.json()) as { ok: boolean }).ok).toBe(true);
    expect(await refreshGrants()).toBe(1);
    const again = await authTest(browser, id);
    expect(again.headers.get("x-token-refreshed")).toBe("0");
    expect(await refreshGrants()).toBe(1);
  });
});

describe("the user token", () => {
  it("is refreshed with its own refresh token, leaving the bot token as it was", async () => {
    const { browser, id } = await installedBrowser();
    const before = await storedIn(browser);
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);
    const response = await browser.send(callRoute, `/api/call/auth.test?installation=${id}&token=user`, { params: { method: "auth.test" } });
    expect(response.headers.get("x-token-refreshed")).toBe("1");
    expect(((await response.json()) as { ok: boolean; user_id: string }).ok).toBe(true);
    const after = await storedIn(browser);
    expect(after.user?.value).not.toBe(before.user?.value);
    expect(after.user?.value).toMatch(/^xoxe\.xoxp-/);
    expect(after.bot).toEqual(before.bot);
  });
});

describe("single-flight", () => {
  it("refreshes once for fifty concurrent calls that find the token expired", async () => {
    const { browser, id } = await installedBrowser();
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);
    const responses = await Promise.all(Array.from({ length: 50 }, () => authTest(browser.fork(), id)));
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as { ok: boolean }[];
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(bodies.every((b) => b.ok)).toBe(true);
    expect(await refreshGrants()).toBe(1);
  });

  it("gives a late request with the old refresh token the same new pair instead of a second refresh", async () => {
    const { browser, id } = await installedBrowser();
    const stale = browser.fork();
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);
    expect((await authTest(browser, id)).headers.get("x-token-refreshed")).toBe("1");
    const late = await authTest(stale, id);
    expect(late.status).toBe(200);
    expect(((await late.json()) as { ok: boolean }).ok).toBe(true);
    expect(await refreshGrants()).toBe(1);
    expect((await storedIn(stale)).bot?.value).toBe((await storedIn(browser)).bot?.value);
  });
});

describe("write-on-change", () => {
  it("writes nothing (no cookie, no store write) when a call changed no token", async () => {
    const { browser, id } = await installedBrowser();
    const before = (await findInstallation(id, { fresh: true }))!.version;
    const response = await authTest(browser, id);
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect((await findInstallation(id, { fresh: true }))!.version).toBe(before);
  });

  it("stores a refresh's new pair on the server, and sends the browser no cookie", async () => {
    const { browser, id } = await installedBrowser();
    const before = (await findInstallation(id, { fresh: true }))!;
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);
    const response = await authTest(browser, id);
    expect(response.headers.getSetCookie()).toEqual([]);
    const after = (await findInstallation(id, { fresh: true }))!;
    expect(after.bot!.value).not.toBe(before.bot!.value);
    expect(after.version).toBeGreaterThan(before.version!);
  });

  it("never puts back older tokens from a slow request that refreshed nothing", async () => {
    const { browser, id } = await installedBrowser();
    const slow = browser.fork();
    // A newer request refreshes (a forced refresh), while the old access token still works upstream.
    const installation = await storedIn(browser);
    const runtime = { ...getRotationRuntime() };
    const outcome = await refreshInstallationToken(installation, "bot", runtime);
    expect(outcome.outcome).toBe("refreshed");
    const response = await authTest(slow, id);
    expect(((await response.json()) as { ok: boolean }).ok).toBe(true);
    expect(response.headers.getSetCookie()).toEqual([]);
  });
});

describe("failed refresh", () => {
  it("marks the installation as needing reinstall when the refresh token is spent beyond its grace period", async () => {
    const { browser, id } = await installedBrowser();
    const installation = await storedIn(browser);
    const first = await refreshInstallationToken(installation, "bot", { ...getRotationRuntime() });
    expect(first.outcome).toBe("refreshed");
    testConsole.emulator.emulator.clock.advance(5 * 60_000);
    // A request still holding the old refresh token gets the stored pair: another refresh won, nothing is spent.
    const late = await refreshInstallationToken(installation, "bot", { ...getRotationRuntime() });
    expect(late.outcome).toBe("refreshed");
    expect(late.installation.bot?.value).toBe(first.installation.bot?.value);
    expect(await refreshGrants()).toBe(1);
    // The stored refresh token is then spent outside the console, past the grace period: the platform refuses it.
    const runtime = getRotationRuntime();
    const current = (await findInstallation(id, { fresh: true }))!;
    await refreshAccessToken({
      baseUrl: runtime.baseUrl,
      credentials: runtime.credentialsFor("console"),
      refreshToken: current.bot!.refreshToken!,
      timeoutMs: 5_000,
    });
    testConsole.emulator.emulator.clock.advance(5 * 60_000);
    const refused = await refreshInstallationToken(current, "bot", { ...getRotationRuntime() });
    expect(refused.outcome).toBe("needs_reinstall");
    const marked = refused.installation;
    await saveInstallation(marked);
    expect(marked.state).toBe("needs_reinstall");
    expect(marked.problem).toBe("invalid_refresh_token");

    // Through the routes: the expired token's refresh is rejected, the state is stored and shown.
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);
    const stale = browser.fork();
    const call = await stale.send(callRoute, `/api/call/auth.test?installation=${id}&token=bot`, { params: { method: "auth.test" } });
    expect(call.status).toBe(409);
    expect(((await call.json()) as { error: string }).error).toBe("needs_reinstall");
    const session = (await (await stale.send(sessionRoute, "/api/session")).json()) as { installations: { state: string; problem: string }[] };
    expect(session.installations[0]).toMatchObject({ state: "needs_reinstall", problem: "invalid_refresh_token" });
  });
});
