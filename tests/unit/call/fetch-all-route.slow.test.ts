import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as fetchAllRoute } from "@/app/api/call/[method]/all/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { readNdjson, type FetchAllEvent, type PageEvent } from "@/lib/explorer/fetch-all-events";
import { settleTokenForWalk } from "@/lib/call/walk-session";
import { HistoryListQuery, listHistoryFor } from "@/lib/history/service";
import { OPERATOR } from "@/lib/viewer";
import { findInstallation } from "@/lib/installations/repository";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

/** GET /api/call/{method}/all driven like the browser drives it: a session from a real install, the emulator over HTTP. */

let testConsole: TestConsole;
let browser: TestBrowser;
let installation: string;

beforeAll(async () => {
  testConsole = await startTestConsole();
  browser = new TestBrowser(testConsole.origin);
  await installIn(browser);
  const session = (await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: Array<{ id: string }> };
  installation = session.installations[0]!.id;
});

afterAll(async () => {
  await testConsole.close();
});

const botToken = async () => (await findInstallation(installation, { fresh: true }))!.bot!.value;

const walk = (query: Record<string, string>, method = "users.list", init: RequestInit = {}) =>
  browser.send(fetchAllRoute, `/api/call/${method}/all?${new URLSearchParams({ installation, token: "bot", ...query })}`, { ...init, params: { method } });

async function events(response: Response): Promise<FetchAllEvent[]> {
  const out: FetchAllEvent[] = [];
  for await (const event of readNdjson(response.body!)) out.push(event as FetchAllEvent);
  return out;
}

async function memberCount(): Promise<number> {
  const state = (await (await fetch(`${testConsole.origin}/emulator/admin/state`)).json()) as { team: { members: number } };
  return state.team.members;
}

describe("GET /api/call/{method}/all", () => {
  it("streams every member once as NDJSON and ends with done", async () => {
    const response = await walk({ limit: "7" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    expect(response.headers.get("cache-control")).toContain("no-transform");
    const lines = await events(response);
    const pages = lines.filter((e): e is PageEvent => e.type === "page");
    const ids = pages.flatMap((p) => (p.response.members as Array<{ id: string }>).map((m) => m.id));
    const expected = await memberCount();
    expect(new Set(ids).size).toBe(expected);
    expect(ids).toHaveLength(expected);
    expect(lines.at(-1)).toMatchObject({ type: "done", pages: pages.length, items: expected, capped: false });
  });

  it("stops at the page cap", async () => {
    const lines = await events(await walk({ limit: "5", max_pages: "2" }));
    expect(lines.filter((e) => e.type === "page")).toHaveLength(2);
    expect(lines.at(-1)).toMatchObject({ type: "done", pages: 2, capped: true });
  });

  it("ends with the platform's invalid_cursor for an edited cursor", async () => {
    const lines = await events(await walk({ cursor: "dXNlcjpVMDAwMDAwMDE=" }));
    expect(lines).toEqual([{ type: "error", error: "invalid_cursor", page: 1 }]);
  });

  it("refreshes an expired token before the stream starts, and saves it in the store", async () => {
    await fetch(`${testConsole.origin}/emulator/admin/clock`, {
      method: "POST",
      headers: { origin: testConsole.origin, "content-type": "application/json" },
      body: JSON.stringify({ advance_s: 43_200 }),
    });
    const before = await botToken();
    const response = await walk({ limit: "20" });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await botToken()).not.toBe(before);
    expect((await events(response)).at(-1)).toMatchObject({ type: "done", items: await memberCount() });
  });

  it("resumes in a new request when the token is refreshed mid-walk, its new pair already stored", async () => {
    const advance = (seconds: number) =>
      fetch(`${testConsole.origin}/emulator/admin/clock`, {
        method: "POST",
        headers: { origin: testConsole.origin, "content-type": "application/json" },
        body: JSON.stringify({ advance_s: seconds }),
      });
    // Make sure the token is one the emulator issued just now, then bring it within a minute of its expiry
    // as the emulator sees it (the console still thinks it has hours left, so nothing refreshes up front).
    const grants = async () =>
      ((await (await fetch(`${testConsole.origin}/emulator/admin/state`)).json()) as { installations: Array<{ refresh_grants: number }> }).installations[0]!
        .refresh_grants;
    await events(await walk({ limit: "50" }));
    await advance(43_200 - 60);
    const grantsBefore = await grants();

    const tokenBefore = await botToken();
    const first = await walk({ limit: "5" });
    expect(await botToken()).toBe(tokenBefore);
    // Page 1 is already read, and page 2 may already be asked for (the walk asks one page ahead): the token
    // expires before the next page is asked for (the cursor is still young).
    await advance(120);
    const firstLines = await events(first);
    const resume = firstLines.at(-1);
    expect(resume).toMatchObject({ type: "resume", reason: "token_refreshed", cursor: expect.any(String) });
    expect((resume as { page: number }).page).toBeGreaterThanOrEqual(2);
    expect(await grants()).toBe(grantsBefore + 1);

    // The refresh mid-walk went to the store at once: the walk's next request uses its pair.
    expect(await botToken()).not.toBe(tokenBefore);
    const rest = await walk({ limit: "5", cursor: (resume as { cursor: string }).cursor });
    const restLines = await events(rest);
    expect(restLines.at(-1)).toMatchObject({ type: "done" });
    const ids = [...firstLines, ...restLines]
      .filter((e): e is PageEvent => e.type === "page")
      .flatMap((p) => (p.response.members as Array<{ id: string }>).map((m) => m.id));
    expect(new Set(ids).size).toBe(await memberCount());
    expect(ids).toHaveLength(await memberCount());
    // In the history: the paused walk is not recorded as done, and its continuation is an entry of its own.
    const [continued, paused] = (await listHistoryFor(OPERATOR, HistoryListQuery.parse({ limit: "2" }))).entries;
    expect(paused).toMatchObject({ kind: "all", outcome: "paused", ok: false, summary: expect.stringContaining("paused for a refreshed token") });
    expect(continued).toMatchObject({ kind: "all", outcome: "ok", params: expect.objectContaining({ cursor: (resume as { cursor: string }).cursor }) });

    // The used refresh token's grace period ends; the installation keeps working on what was saved.
    await advance(120);
    const after = await events(await walk({ limit: "50" }));
    expect(after.at(-1)).toMatchObject({ type: "done", items: await memberCount() });
  });

  it("refreshes, before a walk, a token that would need it within the walk margin, and only then", async () => {
    /** Whether settling the token for a walk at `nowMs` refreshed it. */
    const settle = async (nowMs: number) => {
      const before = await botToken();
      await settleTokenForWalk(OPERATOR, (await findInstallation(installation))!, "bot", nowMs);
      return (await botToken()) !== before;
    };
    // Times are the platform's (the emulator's clock, moved by the tests above), as the session says them.
    const view = (await (await browser.send(sessionRoute, "/api/session")).json()) as {
      serverTime: number;
      installations: Array<{ bot: { expiresAt: number } }>;
    };
    const expiresAt = view.installations[0]!.bot.expiresAt;
    expect(await settle(expiresAt - 12 * 3600_000)).toBe(false);
    // Twenty minutes before expiry: outside the ten-minute refresh window, inside the walk margin.
    expect(await settle(expiresAt - 20 * 60_000)).toBe(true);
  });

  it("answers errors before any page as ordinary JSON errors", async () => {
    const unknown = await browser.send(fetchAllRoute, `/api/call/users.list/all?installation=nope&token=bot`, { params: { method: "users.list" } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ ok: false, error: "unknown_installation" });

    const badMethod = await browser.send(fetchAllRoute, `/api/call/x/all?installation=${installation}`, { params: { method: "users/list" } });
    expect(badMethod.status).toBe(400);

    const badCap = await walk({ max_pages: "0" });
    expect(badCap.status).toBe(422);

    const crossSite = await walk({}, "users.list", { headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(403);
  });

  it("runs two walks of a session at once and refuses a third with 429 too_many_walks and Retry-After, until one ends", async () => {
    // Pages of one member are read as the browser reads them: an unread walk stays open, holding its place.
    const first = await walk({ limit: "1" });
    const second = await walk({ limit: "1" });
    expect([first.status, second.status]).toEqual([200, 200]);

    const third = await walk({ limit: "1" });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await third.json()).toMatchObject({ ok: false, error: "too_many_walks" });

    // Cancel (the browser stops reading) gives its place back; so does a walk read to its end.
    await first.body!.cancel();
    expect((await events(second)).at(-1)).toMatchObject({ type: "done" });
    const again = [await walk({ limit: "50" }), await walk({ limit: "50" })];
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    for (const response of again) expect((await events(response)).at(-1)).toMatchObject({ type: "done" });
  });

  it("gives a walk's place back when it fails before its first page", async () => {
    for (let i = 0; i < 3; i++) {
      const refused = await walk({ cursor: "dXNlcjpVMDAwMDAwMDE=" });
      expect(refused.status).toBe(200);
      expect(await events(refused)).toEqual([{ type: "error", error: "invalid_cursor", page: 1 }]);
    }
    const unknown = () => browser.send(fetchAllRoute, `/api/call/users.list/all?installation=nope&token=bot`, { params: { method: "users.list" } });
    for (let i = 0; i < 3; i++) expect((await unknown()).status).toBe(404);
    expect((await walk({ limit: "50" })).status).toBe(200);
  });

  it("never sends a token, in any line", async () => {
    const response = await walk({ limit: "50" });
    const text = await response.text();
    expect(text).not.toMatch(/xox[a-z]-|xoxe/);
  });
});
