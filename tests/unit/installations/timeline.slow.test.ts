import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { POST as uninstallRoute } from "@/app/api/installations/[id]/uninstall/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { POST as exchangeRoute } from "@/app/api/tokens/exchange/route";
import { POST as refreshRoute } from "@/app/api/tokens/refresh/route";
import { POST as revokeRoute } from "@/app/api/tokens/revoke/route";
import { POST as testRoute } from "@/app/api/tokens/test/route";
import { type TimelineEntry } from "@/lib/installations/universal/timeline";
import { findInstallation, saveInstallation } from "@/lib/installations/repository";
import { MAX_TIMELINE_ENTRIES, timelineSchema } from "@/lib/installations/universal/timeline";
import { getStore } from "@/lib/store";
import { forgetAllInstallations, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

const HOUR_MS = 3600_000;
let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
});
afterAll(() => testConsole.close());
beforeEach(async () => {
  await forgetAllInstallations();
  await admin("reset", {});
});

const admin = (path: string, body: unknown) =>
  fetch(`${testConsole.origin}/emulator/admin/${path}`, {
    method: "POST",
    headers: { origin: testConsole.origin, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

interface TokenView {
  masked: string;
  maskedRefreshToken?: string;
  revoked: boolean;
}
interface View {
  id: string;
  name: string;
  state: string;
  problem: string | null;
  bot: TokenView | null;
  user: TokenView | null;
  timeline: TimelineEntry[];
}

async function session(browser: TestBrowser): Promise<View[]> {
  return ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: View[] }).installations;
}

async function installed(query = "") {
  const browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser, query)).status).toBe(303);
  const [view] = await session(browser);
  return { browser, id: view?.id ?? "" };
}

const action = (browser: TestBrowser, route: typeof testRoute, path: string, json: unknown) => browser.send(route, path, { method: "POST", json });

/** Every secret the emulator holds: each token and refresh token it ever issued, and each webhook URL's secret. */
function emulatorSecrets(): string[] {
  const state = testConsole.emulator.emulator.state;
  return [...state.tokens.keys(), ...[...state.installations.values()].flatMap((i) => (i.incomingWebhook ? [i.incomingWebhook.secret] : []))];
}

/** Every entry the store keeps for the installation, newest first (every page). */
async function storedTimeline(id: string): Promise<TimelineEntry[]> {
  const store = await getStore();
  const entries: TimelineEntry[] = [];
  let before: number | undefined;
  do {
    const page = await store.installations.pageTimeline(id, { limit: 10, ...(before !== undefined ? { before } : {}) });
    entries.push(...page.entries.map((e) => e.entry as unknown as TimelineEntry));
    before = page.nextBefore;
  } while (before !== undefined);
  return entries;
}

describe("an installation's timeline", () => {
  it("tells a token's life newest first, with times: installed, tested, refreshed (old → new, why, by which request), revoked, expired and refreshed on expiry, uninstalled", async () => {
    const { browser, id } = await installed();
    const target = { installation: id, token: "bot" };
    const [installedView] = await session(browser);
    const firstToken = installedView!.bot!.masked;

    expect((await action(browser, testRoute, "/api/tokens/test", target)).status).toBe(200);
    const refreshed = (await (await action(browser, refreshRoute, "/api/tokens/refresh", target)).json()) as { installation: View };
    const secondToken = refreshed.installation.bot!.masked;
    expect((await action(browser, revokeRoute, "/api/tokens/revoke", target)).status).toBe(200);
    const deadTest = (await (await action(browser, testRoute, "/api/tokens/test", target)).json()) as { ok: boolean; installation: View };
    expect(deadTest.ok).toBe(false);
    await action(browser, refreshRoute, "/api/tokens/refresh", target);
    // The platform's clock passes the 12 hours: an explorer call finds the token expired and refreshes it.
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);
    const call = await browser.send(callRoute, `/api/call/users.list?installation=${id}&token=bot&limit=5`, { params: { method: "users.list" } });
    expect(call.headers.get("x-token-refreshed")).toBe("1");
    expect((await browser.send(uninstallRoute, `/api/installations/${id}/uninstall`, { method: "POST", params: { id } })).status).toBe(200);

    const [view] = await session(browser);
    const timeline = view!.timeline;
    expect(timeline.map((e) => `${e.type}${"token" in e ? ` ${e.token}` : ""}`)).toEqual([
      "uninstalled",
      "refreshed bot",
      "expired bot",
      "refreshed bot",
      "tested bot",
      "revoked bot",
      "refreshed bot",
      "tested bot",
      "installed",
    ]);
    const times = timeline.map((e) => e.at);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(timeline[8]).toMatchObject({ type: "installed", by: "OAuth install" });
    expect((timeline[8] as { tokens: string[] }).tokens).toContain(firstToken);
    expect(timeline[7]).toMatchObject({ type: "tested", ok: true, masked: firstToken, by: "Test button" });
    expect(timeline[6]).toMatchObject({ type: "refreshed", from: firstToken, to: secondToken, reason: "requested", by: "Refresh button" });
    expect(timeline[5]).toMatchObject({ type: "revoked", masked: secondToken, scope: "token", by: "Revoke button" });
    expect(timeline[4]).toMatchObject({ type: "tested", ok: false, error: "token_revoked", verdict: "token_revoked" });
    expect(timeline[3]).toMatchObject({ type: "refreshed", from: secondToken, reason: "requested" });
    expect(timeline[2]).toMatchObject({ type: "expired", noticed: "platform", by: "GET /api/call/users.list" });
    expect(timeline[1]).toMatchObject({ type: "refreshed", reason: "on_expiry", by: "GET /api/call/users.list" });
    expect(timeline[0]).toMatchObject({ type: "uninstalled", by: "Uninstall button" });
    expect((timeline[0] as { tokens: string[] }).tokens).toHaveLength(4);
  });

  it("holds no secret: every entry, in the answer and as the store keeps it, checked against every token the emulator issued", async () => {
    const { browser, id } = await installed();
    for (const token of ["bot", "user"]) {
      await action(browser, testRoute, "/api/tokens/test", { installation: id, token });
      await action(browser, refreshRoute, "/api/tokens/refresh", { installation: id, token });
      await action(browser, revokeRoute, "/api/tokens/revoke", { installation: id, token });
      await action(browser, testRoute, "/api/tokens/test", { installation: id, token });
    }
    const [view] = await session(browser);
    const kept = await storedTimeline(id);
    const secrets = emulatorSecrets();
    expect(secrets.length).toBeGreaterThan(8);
    expect(view!.timeline.length).toBeGreaterThan(8);
    expect(kept.length).toBeGreaterThanOrEqual(view!.timeline.length);
    for (const entry of [...view!.timeline, ...kept]) {
      const text = JSON.stringify(entry);
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/xox[abpe][.-][A-Za-z0-9-]{10,}/);
    }
  });

  it("drops, on read, an entry that carries anything but a masked token", () => {
    // An unmasked token's shape (made up, and put together here so that no token-like literal is committed).
    const raw = `xoxe.xoxb-1-${"abcdefghijklmnopqrstuvwxyz"}${"0123456789"}`;
    const entries = timelineSchema.parse([
      { at: 1, type: "tested", token: "bot", masked: raw, ok: true },
      { at: 2, type: "refreshed", token: "bot", from: "xoxe.xoxb-…ab12", to: raw, reason: "proactive" },
      { at: 3, type: "tested", token: "bot", masked: "xoxe.xoxb-…ab12", ok: true },
      { at: 4, type: "a kind this version does not know" },
    ]);
    expect(entries).toEqual([{ at: 3, type: "tested", token: "bot", masked: "xoxe.xoxb-…ab12", ok: true }]);
  });

  it("lives on the server: another browser, with no cookie at all, reads the same timeline", async () => {
    const { browser, id } = await installed();
    await action(browser, testRoute, "/api/tokens/test", { installation: id, token: "bot" });
    await action(browser, refreshRoute, "/api/tokens/refresh", { installation: id, token: "user" });
    const [before] = await session(browser);
    expect([...browser.cookies.keys()].filter((name) => name.startsWith("sb_inst_"))).toEqual([]);
    const [after] = await session(new TestBrowser(testConsole.origin));
    expect(after!.timeline).toEqual(before!.timeline);
    expect(after!.timeline.map((e) => e.type)).toEqual(["refreshed", "tested", "installed"]);
  });

  it(`is kept in full: the view shows the newest ${MAX_TIMELINE_ENTRIES} and says there are more, the store keeps every entry, appended`, async () => {
    const { browser, id } = await installed();
    for (let i = 0; i < 26; i++) {
      await action(browser, i % 2 ? refreshRoute : testRoute, i % 2 ? "/api/tokens/refresh" : "/api/tokens/test", {
        installation: id,
        token: i % 4 < 2 ? "bot" : "user",
      });
    }
    const [view] = (await session(browser)) as (View & { timelineMore: boolean })[];
    expect(view!.timeline).toHaveLength(MAX_TIMELINE_ENTRIES);
    expect(view!.timelineMore).toBe(true);
    // The newest first: the last action; the install, 26 actions ago, is the oldest entry the store keeps.
    expect(view!.timeline[0]).toMatchObject({ type: "refreshed", token: "bot", by: "Refresh button" });
    const kept = await storedTimeline(id);
    expect(kept).toHaveLength(27);
    expect(kept.slice(0, MAX_TIMELINE_ENTRIES)).toEqual(view!.timeline);
    expect(kept.at(-1)).toMatchObject({ type: "installed" });
  });

  it("notes once that a token expired by the console's clock, when the session is read", async () => {
    const { browser, id } = await installed();
    const stored = await findInstallation(id);
    await saveInstallation({ ...stored!, bot: { ...stored!.bot!, expiresAt: Date.now() - 1000 } });
    await session(browser);
    const [view] = await session(browser);
    expect(view!.timeline.filter((e) => e.type === "expired")).toEqual([expect.objectContaining({ token: "bot", noticed: "clock", by: "GET /api/session" })]);
    expect(view!.id).toBe(id);
  });
});

describe("a call that proves a token dead", () => {
  it("turns an installation with a long-lived token to needs reinstall at once, persisted, and then offers nothing but a reinstall", async () => {
    const { browser, id } = await installed("?app=legacy");
    // The platform forgets every token (the emulator reset): the long-lived token is now unknown to it.
    await admin("reset", {});
    const answer = (await (await action(browser, testRoute, "/api/tokens/test", { installation: id, token: "bot" })).json()) as {
      ok: boolean;
      installation: View;
    };
    expect(answer.ok).toBe(false);
    expect(answer.installation).toMatchObject({ state: "needs_reinstall", problem: "invalid_auth" });
    expect(answer.installation.timeline[0]).toMatchObject({ type: "tested", ok: false, error: "invalid_auth", verdict: "needs_reinstall", by: "Test button" });
    const [view] = await session(browser.fork());
    expect(view).toMatchObject({ state: "needs_reinstall", problem: "invalid_auth" });
    const exchange = await action(browser, exchangeRoute, "/api/tokens/exchange", { installation: id, token: "bot", confirm: true });
    expect(exchange.status).toBe(409);
    expect(((await exchange.json()) as { message: string }).message).toMatch(/Reinstall/);
  });

  it("revokes a rotating token at once; a refresh the platform then refuses records why and turns the installation to needs reinstall", async () => {
    const { browser, id } = await installed();
    await admin("reset", {});
    const tested = (await (await action(browser, testRoute, "/api/tokens/test", { installation: id, token: "bot" })).json()) as { installation: View };
    expect(tested.installation.state).toBe("active");
    expect(tested.installation.bot?.revoked).toBe(true);
    const refresh = await action(browser, refreshRoute, "/api/tokens/refresh", { installation: id, token: "bot" });
    expect(refresh.status).toBe(409);
    const [view] = await session(browser);
    expect(view).toMatchObject({ state: "needs_reinstall", problem: "invalid_refresh_token" });
    expect(view!.timeline[0]).toMatchObject({ type: "refresh_failed", token: "bot", error: "invalid_refresh_token", reinstall: true, by: "Refresh button" });
    expect(view!.timeline[0]).toHaveProperty("masked", view!.bot?.maskedRefreshToken);
  });

  it("an explorer call answered token_revoked marks the token revoked, with the request that found it", async () => {
    const { browser, id } = await installed();
    await admin("reset", {});
    const call = await browser.send(callRoute, `/api/call/users.list?installation=${id}&token=user`, { params: { method: "users.list" } });
    expect(((await call.json()) as { error: string }).error).toBe("invalid_auth");
    const [view] = await session(browser);
    expect(view!.user?.revoked).toBe(true);
    expect(view!.timeline[0]).toMatchObject({
      type: "found_dead",
      token: "user",
      error: "invalid_auth",
      verdict: "token_revoked",
      by: "GET /api/call/users.list",
    });
  });
});
