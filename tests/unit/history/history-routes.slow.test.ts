import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callAllRoute } from "@/app/api/call/[method]/all/route";
import { GET as callGet, POST as callPost } from "@/app/api/call/[method]/route";
import { GET as entryRoute } from "@/app/api/history/[id]/route";
import { DELETE as clearRoute, GET as listRoute } from "@/app/api/history/route";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { Workspace } from "@/lib/emulator/types";
import type { HistoryEntryWithAnswer, HistoryPageAnswer } from "@/lib/explorer/history";
import { getStore } from "@/lib/store";
import { startTestConsole, TestBrowser, type RouteFn, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { pickMemberAt, returnToConsole, SIGN_IN_REDIRECT_URI, startSignIn } from "../signin/support";

/**
 * The explorer's lasting history through its routes, signed in as two members of one workspace against the
 * emulator: every call and Fetch all recorded for who made it, without credentials, with its saved request;
 * each person lists, reads and clears only their own; clearing is refused cross-site.
 */
let testConsole: TestConsole;
let ws: Workspace;
let ana: TestBrowser;
let bo: TestBrowser;
let installation: string;

const membersOf = (w: Workspace) => Array.from({ length: 20 }, (_, i) => memberIdAt(w, i)).filter((id) => canSignIn(w, id));

async function signedIn(userId: string): Promise<TestBrowser> {
  const browser = new TestBrowser(testConsole.origin);
  const authorize = await startSignIn(browser);
  authorize.searchParams.set("team", ws.team.id);
  expect((await returnToConsole(browser, await pickMemberAt(authorize, { userId }))).status).toBe(303);
  return browser;
}

beforeAll(async () => {
  testConsole = await startTestConsole({ AUTH_MODE: "oidc", SIGN_IN_REDIRECT_URI }, { redirectUrls: [SIGN_IN_REDIRECT_URI] });
  ws = [...testConsole.emulator.emulator.state.workspaces.values()][0]!;
  ana = await signedIn(membersOf(ws)[0]!);
  bo = await signedIn(membersOf(ws)[1]!);
  const done = await installIn(ana, `?team=${ws.team.id}`);
  expect(done.status).toBe(303);
  installation = new URL(done.headers.get("location") ?? "", testConsole.origin).searchParams.get("installed") ?? "";
  expect(installation).not.toBe("");
}, 120_000);
afterAll(() => testConsole.close());

const q = (params: Record<string, string>) => new URLSearchParams({ installation, ...params }).toString();

async function call(browser: TestBrowser, method: string, params: Record<string, string> = {}): Promise<Response> {
  return browser.send(callGet, `/api/call/${method}?${q(params)}`, { params: { method } });
}

async function list(browser: TestBrowser, query = ""): Promise<HistoryPageAnswer> {
  const response = await browser.send(listRoute, `/api/history${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as HistoryPageAnswer;
}

async function entry(browser: TestBrowser, id: string): Promise<Response> {
  return browser.send(entryRoute as RouteFn, `/api/history/${encodeURIComponent(id)}`, { params: { id } });
}

describe("the explorer's history through its routes", () => {
  it("records a call for the person who made it, without credentials, and keeps it from everyone else", async () => {
    const anaToken = `xoxp-1-${"a".repeat(24)}`;
    expect((await call(ana, "users.list", { limit: "2", client_secret: "not-sent-secret", note: anaToken })).status).toBe(200);
    const mine = await list(ana);
    expect(mine.entries).toHaveLength(1);
    const [kept] = mine.entries;
    expect(kept).toMatchObject({
      method: "users.list",
      installation,
      outcome: "ok",
      ok: true,
      kind: "call",
      params: { limit: "2" },
      stripped: ["client_secret", "note"],
    });
    expect(JSON.stringify(mine)).not.toContain("not-sent-secret");
    expect(JSON.stringify(mine)).not.toContain(anaToken);

    const whole = (await (await entry(ana, kept!.id)).json()) as HistoryEntryWithAnswer;
    expect(JSON.parse(whole.answer!)).toMatchObject({ ok: true, members: [{}, {}] });

    // Bo, signed in to the same workspace and calling with the same installation, has a history of his own.
    expect((await list(bo)).entries).toEqual([]);
    const foreign = await entry(bo, kept!.id);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ error: "unknown_history_entry" });
    expect((await call(bo, "auth.test")).status).toBe(200);
    expect((await list(bo)).entries.map((e) => e.method)).toEqual(["auth.test"]);
    expect((await list(ana)).entries.map((e) => e.method)).toEqual(["users.list"]);
  });

  it("names each entry's installation on the page itself, and not one the person may no longer see", async () => {
    expect((await call(ana, "auth.test")).status).toBe(200);
    const page = await list(ana);
    // Named from the store whichever installation it is, not from the session's first page of them.
    expect(page.installations).toEqual({ [installation]: { name: expect.stringContaining(` in ${ws.team.name}`), team: ws.team.id } });
    const store = await getStore();
    const stored = (await store.installations.get(installation, { fresh: true }))!;
    const moved = await store.installations.put({ ...stored, team: { id: "T0ELSEWHERE", name: "Elsewhere" } }, { expectVersion: stored.version });
    try {
      const after = await list(ana);
      expect(after.entries.map((e) => e.installation)).toContain(installation);
      expect(after.installations).toEqual({});
    } finally {
      await store.installations.put(stored, { expectVersion: moved.version });
    }
    expect((await list(ana)).installations[installation]?.team).toBe(ws.team.id);
  });

  it("records the platform's error code, an HTTP failure's status, and a POST's JSON arguments with their saved request", async () => {
    await call(ana, "conversations.info", { channel: "C-nope" });
    const posted = await ana.send(callPost, `/api/call/chat.postMessage?${q({})}`, {
      method: "POST",
      json: { channel: "general", text: "hi", blocks: [{ type: "divider" }], savedRequestId: "sr_post" },
      params: { method: "chat.postMessage" },
    });
    expect(posted.status).toBe(200);
    const [post, info] = (await list(ana)).entries;
    expect(info).toMatchObject({ method: "conversations.info", outcome: "channel_not_found", ok: false });
    expect(post).toMatchObject({ method: "chat.postMessage", httpMethod: "POST", encoding: "json", savedRequestId: "sr_post" });
    // The console's own member went to the history, not to the platform.
    expect(post!.params).toEqual({ channel: "general", text: "hi", blocks: [{ type: "divider" }] });
    expect((await list(ana, "?outcome=error")).entries.map((e) => e.method)).toEqual(["conversations.info"]);
    expect((await list(ana, "?savedRequestId=sr_post")).entries.map((e) => e.id)).toEqual([post!.id]);
  });

  it("says an argument was left out only when the call carried it, not for the token kind the explorer picks (token=bot)", async () => {
    // As the explorer sends them: the console's own `token` (which token of the installation) in the query.
    expect((await call(ana, "auth.test", { token: "bot" })).status).toBe(200);
    const walk = await ana.send(callAllRoute as RouteFn, `/api/call/users.list/all?${q({ token: "bot", limit: "10", max_pages: "1" })}`, {
      params: { method: "users.list" },
    });
    expect(await walk.text()).toContain('"type":"done"');
    // A POST whose body carried a token, and a query that named one beside the token kind: both left out.
    const posted = await ana.send(callPost, `/api/call/auth.test?${q({ token: "bot" })}`, {
      method: "POST",
      body: new URLSearchParams({ token: `xoxb-1-${"b".repeat(24)}` }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      params: { method: "auth.test" },
    });
    expect(posted.status).toBe(200);
    expect((await ana.send(callGet, `/api/call/auth.test?${q({ token: "bot" })}&token=xoxb-2`, { params: { method: "auth.test" } })).status).toBe(200);
    const [twice, body, all, plain] = (await list(ana, "?limit=4")).entries;
    expect(plain).toMatchObject({ method: "auth.test", stripped: [] });
    expect(all).toMatchObject({ method: "users.list", kind: "all", stripped: [] });
    expect(body).toMatchObject({ method: "auth.test", httpMethod: "POST", stripped: ["token"] });
    expect(twice).toMatchObject({ method: "auth.test", stripped: ["token"] });
  });

  it("leaves out a call the explorer's pickers make for the form (x-switchboard-history: off)", async () => {
    const before = (await list(ana)).entries.length;
    const lookup = await ana.send(callGet, `/api/call/conversations.list?${q({ limit: "5" })}`, {
      params: { method: "conversations.list" },
      headers: { "x-switchboard-history": "off" },
    });
    expect(lookup.status).toBe(200);
    expect((await list(ana)).entries.length).toBe(before);
  });

  it("refuses a savedRequestId longer than 64 characters, recording nothing", async () => {
    const before = (await list(ana)).entries.length;
    const refused = await call(ana, "auth.test", { savedRequestId: "x".repeat(65) });
    expect(refused.status).toBe(422);
    expect((await list(ana)).entries.length).toBe(before);
  });

  it("keeps a long answer's first 64 KB as JSON that still parses, marked truncated", async () => {
    expect((await call(ana, "users.list", { limit: "1000" })).status).toBe(200);
    const [newest] = (await list(ana)).entries;
    expect(newest).toMatchObject({ method: "users.list", truncated: true });
    expect(newest!.answerBytes).toBeGreaterThan(64 * 1024);
    const whole = (await (await entry(ana, newest!.id)).json()) as HistoryEntryWithAnswer;
    expect(Buffer.byteLength(whole.answer!, "utf8")).toBeLessThanOrEqual(64 * 1024);
    const kept = JSON.parse(whole.answer!) as { ok: boolean; members: unknown[] };
    expect(kept.ok).toBe(true);
    expect(kept.members.length).toBeGreaterThan(10);
    expect(kept.members.length).toBeLessThan(1000);
  });

  it("records a Fetch all once it is over, with its pages, items and saved request", async () => {
    const walk = await ana.send(callAllRoute as RouteFn, `/api/call/users.list/all?${q({ limit: "10", max_pages: "2", savedRequestId: "sr_walk" })}`, {
      params: { method: "users.list" },
    });
    expect(walk.status).toBe(200);
    expect(await walk.text()).toContain('"type":"done"');
    const [newest] = (await list(ana, "?savedRequestId=sr_walk")).entries;
    expect(newest).toMatchObject({ kind: "all", method: "users.list", outcome: "ok", pages: 2, count: 20, params: { limit: "10", max_pages: "2" } });
    const whole = (await (await entry(ana, newest!.id)).json()) as HistoryEntryWithAnswer;
    expect((JSON.parse(whole.answer!) as { members: unknown[] }).members).toHaveLength(20);
  });

  it("searches by part of the method, pages by an opaque cursor, and refuses a cursor it did not give with 400 invalid_cursor", async () => {
    const all = await list(ana, "?limit=2");
    expect(all.entries).toHaveLength(2);
    expect(all.next).not.toBeNull();
    const older = await list(ana, `?limit=2&cursor=${all.next}`);
    expect(older.entries.map((e) => e.id)).not.toContain(all.entries[0]!.id);
    expect((await list(ana, "?method=POSTmess")).entries.map((e) => e.method)).toEqual(["chat.postMessage"]);
    // The cursor is opaque: no number of the table's shows through.
    expect(all.next).not.toMatch(/^[0-9]+$/);
    for (const bad of ["abc", "123", Buffer.from("h1:9007199254740993").toString("base64url"), Buffer.from("h1:0").toString("base64url"), "%2B%2F"]) {
      const refused = await ana.send(listRoute, `/api/history?cursor=${bad}`);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "invalid_cursor", message: expect.stringContaining("cursor") });
    }
  });

  it("clears only the person's own history, and only from the console's own pages", async () => {
    const crossSite = await ana.send(clearRoute, "/api/history", {
      method: "DELETE",
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    expect((await list(ana)).entries.length).toBeGreaterThan(0);
    const cleared = await ana.send(clearRoute, "/api/history", { method: "DELETE" });
    expect(cleared.status).toBe(200);
    expect(((await cleared.json()) as { cleared: number }).cleared).toBeGreaterThan(0);
    expect((await list(ana)).entries).toEqual([]);
    expect((await list(bo)).entries.map((e) => e.method)).toEqual(["auth.test"]);
  });
});
