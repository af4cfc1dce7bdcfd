import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as uninstallRoute } from "@/app/api/installations/[id]/uninstall/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { readListQuery } from "@/lib/installations/universal/list-query";
import type { Workspace } from "@/lib/emulator/types";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

/**
 * Issue 26, many installations: GET /api/session answers a page of them, searched and filtered on the
 * server, and says how many each filter holds, so the dashboard lists any number without reading them all.
 * Issue 43: pages by cursor, read from the database (lib/store/installation-lists.ts).
 */
let testConsole: TestConsole;
let browser: TestBrowser;
let workspaces: Workspace[];
const ids: string[] = [];

beforeAll(async () => {
  testConsole = await startTestConsole({}, { workspaces: 6 });
  browser = new TestBrowser(testConsole.origin);
  workspaces = [...testConsole.emulator.emulator.state.workspaces.values()];
  for (const ws of workspaces.slice(0, 5)) {
    const done = await installIn(browser, `?team=${ws.team.id}`);
    ids.push(new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!);
  }
  // The legacy app (long-lived tokens) into the sixth, and the fifth uninstalled: needs reinstalling.
  const legacy = await installIn(browser, `?team=${workspaces[5]!.team.id}&app=legacy`);
  ids.push(new URL(legacy.headers.get("location")!, testConsole.origin).searchParams.get("installed")!);
  expect((await browser.send(uninstallRoute, `/api/installations/${ids[4]}/uninstall`, { method: "POST", params: { id: ids[4]! } })).status).toBe(200);
});
afterAll(() => testConsole.close());

interface Answer {
  installations: Array<{ id: string; timeline: unknown[] }>;
  page: {
    q: string;
    state: string;
    limit: number;
    total: number;
    matched: number;
    counts: Record<string, number>;
    capped: string[];
    next: string | null;
    previous: string | null;
  };
}
async function list(query: string): Promise<Answer> {
  const response = await browser.send(sessionRoute, `/api/session${query}`);
  expect(response.status, query).toBe(200);
  return (await response.json()) as Answer;
}

describe("GET /api/session, a page at a time", () => {
  it("answers the first page of every installation, with each filter's count", async () => {
    const answer = await list("");
    expect(answer.installations.map((i) => i.id)).toEqual(ids);
    expect(answer.page).toEqual({
      q: "",
      state: "all",
      limit: 50,
      total: 6,
      matched: 6,
      counts: { all: 6, needs_reinstall: 1, expiring: 0, rotating: 4, legacy: 1 },
      capped: [],
      next: null,
      previous: null,
    });
    expect(answer.installations.every((i) => i.timeline.length > 0)).toBe(true);
  });

  it("pages with cursors, forward and back, in the same order", async () => {
    const first = await list("?limit=4");
    expect(first.page).toMatchObject({ limit: 4, matched: 6, previous: null });
    const second = await list(`?limit=4&after=${first.page.next}`);
    expect([...first.installations, ...second.installations].map((i) => i.id)).toEqual(ids);
    expect(second.page).toMatchObject({ limit: 4, matched: 6, next: null });
    const back = await list(`?limit=4&before=${second.page.previous}`);
    expect(back.installations.map((i) => i.id)).toEqual(ids.slice(0, 4));
    expect(back.page.previous).toBeNull();
  });

  it("answers 400 invalid_cursor for a cursor it did not give, and keeps everything", async () => {
    for (const bad of ["?after=garbled", `?after=${Buffer.from('[1,"x","../a"]').toString("base64url")}`, "?before=%24%24"]) {
      const response = await browser.send(sessionRoute, `/api/session${bad}`);
      expect(response.status, bad).toBe(400);
      expect(await response.json()).toMatchObject({ ok: false, error: "invalid_cursor" });
    }
    expect((await list("")).page.total).toBe(6);
  });

  it("answers 400 invalid_cursor for a cursor from another filter or search, and pages on with its own", async () => {
    const rotating = await list("?state=rotating&limit=2");
    const cursor = rotating.page.next!;
    for (const other of [`?state=all&after=${cursor}`, `?state=expiring&after=${cursor}`, `?state=rotating&q=acme&before=${cursor}`]) {
      const response = await browser.send(sessionRoute, `/api/session${other}`);
      expect(response.status, other).toBe(400);
      expect(await response.json()).toMatchObject({ ok: false, error: "invalid_cursor" });
    }
    const next = await list(`?state=rotating&limit=2&after=${cursor}`);
    expect([...rotating.installations, ...next.installations].map((i) => i.id)).toEqual(ids.slice(0, 4));
  });

  it("searches workspace names and ids, app ids and installation ids, whatever their case", async () => {
    const target = workspaces[2]!;
    expect((await list(`?q=${encodeURIComponent(target.team.id.toLowerCase())}`)).installations.map((i) => i.id)).toEqual([ids[2]]);
    const byName = await list(`?q=${encodeURIComponent(` ${target.team.name.toUpperCase()} `)}`);
    expect(byName.installations.map((i) => i.id)).toContain(ids[2]);
    expect(byName.page.q).toBe(target.team.name.toUpperCase());
    const none = await list("?q=nothing-like-this");
    expect(none.installations).toEqual([]);
    expect(none.page).toMatchObject({ matched: 0, total: 6, counts: { all: 0 } });
  });

  it("filters by state: needs reinstall, rotating, legacy", async () => {
    expect((await list("?state=needs_reinstall")).installations.map((i) => i.id)).toEqual([ids[4]]);
    expect((await list("?state=legacy")).installations.map((i) => i.id)).toEqual([ids[5]]);
    expect((await list("?state=rotating")).installations.map((i) => i.id)).toEqual(ids.slice(0, 4));
  });

  it("answers 422 for a filter it does not know, or a page size past 200, and keeps everything", async () => {
    for (const bad of ["?state=everything", "?limit=500", "?after=a&before=b", "?limit=0"]) {
      const response = await browser.send(sessionRoute, `/api/session${bad}`);
      expect(response.status, bad).toBe(422);
      expect(await response.json()).toMatchObject({ ok: false, error: "invalid_request" });
    }
    expect((await list("")).page.total).toBe(6);
  });
});

describe("the list query in a page's URL", () => {
  it("is read leniently in the browser: what is out of range falls back to its default", () => {
    expect(readListQuery(new URLSearchParams("q=%20acme%20&state=legacy&after=WzEsMiwiYSJd&limit=20"))).toEqual({
      q: "acme",
      state: "legacy",
      after: "WzEsMiwiYSJd",
      limit: 20,
    });
    expect(readListQuery(new URLSearchParams(`state=everything&after=${"x".repeat(201)}&limit=999`))).toEqual({ q: "", state: "all", limit: 50 });
    expect(readListQuery(new URLSearchParams(""))).toEqual({ q: "", state: "all", limit: 50 });
  });
});
