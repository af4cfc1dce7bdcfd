/**
 * GET /api/installations/{id}/timeline: the whole timeline the store keeps, page by page, newest first. The
 * installation and its entries are written into the store directly, as the console's actions write them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as timelineRoute } from "@/app/api/installations/[id]/timeline/route";
import type { TimelinePageAnswer } from "@/lib/installations/actions/page-timeline";
import type { TimelineEntry } from "@/lib/installations/universal/timeline";
import { getStore } from "@/lib/store";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { openTestStore } from "../support/store";

let testConsole: TestConsole;
const ID = "T0TIMELINE-A0TIMELINE";
const START = 1_750_000_000_000;

/** The n-th test of the bot token, its masked form telling which (masked as maskToken writes it). */
const tested = (n: number): TimelineEntry & Record<string, unknown> => ({
  at: START + n * 1000,
  type: "tested",
  token: "bot",
  masked: `xoxb-…${String(n).padStart(4, "0")}`,
  ok: true,
  by: "Test button",
});

beforeAll(async () => {
  testConsole = await startTestConsole();
  await openTestStore();
  const store = await getStore();
  await store.installations.put({
    id: ID,
    appKey: "console",
    team: { id: "T0TIMELINE", name: "Paging" },
    state: "active",
    installedAt: START,
    updatedAt: START,
  });
  await store.installations.appendTimeline(
    ID,
    Array.from({ length: 45 }, (_, i) => tested(i + 1)),
  );
});
afterAll(() => testConsole.close());

async function page(browser: TestBrowser, query = "", id = ID) {
  return browser.send(timelineRoute, `/api/installations/${encodeURIComponent(id)}/timeline${query}`, { params: { id } });
}

const numbers = (answer: TimelinePageAnswer) => answer.entries.map((e) => ("masked" in e ? Number(e.masked.slice(-4)) : NaN));

describe("GET /api/installations/{id}/timeline", () => {
  it("pages through every entry the store keeps, newest first, 20 at a time, to the first", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const first = (await (await page(browser)).json()) as TimelinePageAnswer;
    expect(first.ok).toBe(true);
    expect(numbers(first)).toEqual(Array.from({ length: 20 }, (_, i) => 45 - i));
    expect(first.nextBefore).toEqual(expect.any(Number));
    const second = (await (await page(browser, `?before=${first.nextBefore}`)).json()) as TimelinePageAnswer;
    expect(numbers(second)).toEqual(Array.from({ length: 20 }, (_, i) => 25 - i));
    const third = (await (await page(browser, `?before=${second.nextBefore}`)).json()) as TimelinePageAnswer;
    expect(numbers(third)).toEqual([5, 4, 3, 2, 1]);
    expect(third.nextBefore).toBeNull();
    expect(third.entries[0]).toEqual(tested(5));
  });

  it("takes a page size up to 100, and refuses one outside 1 to 100 or a cursor that is not a number with 422", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect(numbers((await (await page(browser, "?limit=3")).json()) as TimelinePageAnswer)).toEqual([45, 44, 43]);
    expect(((await (await page(browser, "?limit=100")).json()) as TimelinePageAnswer).entries).toHaveLength(45);
    for (const query of ["?limit=0", "?limit=101", "?before=abc", "?before=-1"]) expect((await page(browser, query)).status).toBe(422);
  });

  it("answers 404 unknown_installation for an unknown id and a malformed one alike", async () => {
    const browser = new TestBrowser(testConsole.origin);
    for (const id of ["T0NOPE-A0NOPE", "../session", "a b", "x".repeat(65), ""]) {
      const response = await page(browser, "", id);
      expect(response.status, id).toBe(404);
      expect(await response.json()).toMatchObject({ error: "unknown_installation" });
    }
  });

  it("leaves out an entry that is not masked, rather than showing a token", async () => {
    const store = await getStore();
    const id = "T0LEAK-A0LEAK";
    await store.installations.put({ id, appKey: "console", team: { id: "T0LEAK", name: "Leak" }, state: "active", installedAt: START, updatedAt: START });
    const unmasked = ["xoxb", "1234567890", "abcdefghijklmnop"].join("-");
    await store.installations.appendTimeline(id, [tested(1), { ...tested(2), masked: unmasked }]);
    const response = await page(new TestBrowser(testConsole.origin), "", id);
    const text = await response.text();
    expect(text).not.toContain(unmasked);
    expect(numbers(JSON.parse(text) as TimelinePageAnswer)).toEqual([1]);
  });

  it("refuses a read another site started, as GET /api/session does", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect((await page(browser)).status).toBe(200);
    const refused = await browser.send(timelineRoute, `/api/installations/${ID}/timeline`, {
      params: { id: ID },
      headers: { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain("xoxb-");
  });
});
