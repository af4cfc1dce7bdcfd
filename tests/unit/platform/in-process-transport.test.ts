import { describe, expect, it } from "vitest";
import { walkAllPages, type UpstreamPage } from "@/lib/call/fetch-all";
import { callMethod, inProcessTransport } from "@/lib/platform";
import { createHarness } from "../emulator/support/emulator-harness";

/**
 * The embedded emulator answers in the console's own process: nothing in a call waits on I/O, so a walk of
 * one-item pages, call after call, must hand the event loop back between its pages or no other request
 * (another session's page, /api/health) is served until it ends (issue 23, item 4).
 */
async function walker(users: number) {
  const harness = createHarness({ users });
  const { rotation } = await harness.apps();
  const token = (await harness.install(rotation)).access_token as string;
  const transport = inProcessTransport((request) => harness.emulator.fetch(request));
  const call = async (params: Record<string, string>, signal: AbortSignal): Promise<UpstreamPage> => {
    const result = await callMethod({ baseUrl: harness.base, token, method: "users.list", params, httpMethod: "GET", signal, transport });
    return { status: result.status, body: result.body, rawText: result.rawText, durationMs: result.durationMs };
  };
  const members = async () => ((await harness.admin("state")).body as { team: { members: number } }).team.members;
  /** One walk of pages of one member; `onPage` hears of each page. */
  const walk = async (onPage: (page: number, total: number) => void = () => {}) => {
    for await (const step of walkAllPages({ call, params: { limit: "1" }, maxPages: 1000, signal: new AbortController().signal })) {
      if (step.event.type === "page") onPage(step.event.page, step.event.total);
    }
  };
  return { walk, members };
}

describe("calls answered in this process", () => {
  it("let a timer due now run between the pages of a walk, and the walk still gets every member", async () => {
    const { walk, members } = await walker(120);
    let timerFiredAtPage: number | null = null;
    let pages = 0;
    let total = 0;
    setTimeout(() => (timerFiredAtPage = pages), 0);
    await walk((page, items) => {
      pages = page;
      total = items;
    });
    expect(total).toBe(await members());
    expect(pages).toBeGreaterThan(100);
    // A timer is due at the loop's next turn: it runs within the first few pages, not after the last.
    expect(timerFiredAtPage).not.toBeNull();
    expect(timerFiredAtPage!).toBeLessThan(5);
  });

  it("take one event-loop turn each, however many walks run at once", async () => {
    const { walk } = await walker(60);
    // Counts the pages that arrive between two turns of the event loop, as another request would wait them out.
    let pagesThisTurn = 0;
    const perTurn: number[] = [];
    let walking = true;
    const turn = () => {
      perTurn.push(pagesThisTurn);
      pagesThisTurn = 0;
      if (walking) setImmediate(turn);
    };
    setImmediate(turn);
    await Promise.all(Array.from({ length: 10 }, () => walk(() => pagesThisTurn++)));
    walking = false;
    const pages = perTurn.reduce((sum, n) => sum + n, 0) + pagesThisTurn;
    expect(pages).toBeGreaterThan(10 * 60);
    // Ten walks, each call given a turn of its own: another request waits at most a page or two, not ten.
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(2);
  });
});
