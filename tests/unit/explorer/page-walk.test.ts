import { describe, expect, it } from "vitest";
import { initialPageWalk, itemsThroughPage, pageWalkReducer, type PageWalk } from "@/lib/explorer/page-walk";
import { popPage, pushPage, START } from "@/lib/explorer/pagination";
import { EMPTY_REQUEST } from "@/lib/explorer/params";

const request = { ...EMPTY_REQUEST, installation: "T1-A1" };

function answered(walk: PageWalk<string>, stack = walk.stack, count: number | null = 50, upstreamMs: number | null = 3) {
  return pageWalkReducer(walk, { type: "answered", request, stack, answer: `page ${stack.cursors.length}`, count: count ?? undefined, upstreamMs });
}

describe("the walk by hand", () => {
  it("keeps each page's count and time with the page it answered", () => {
    let walk = answered(initialPageWalk<string>());
    walk = answered(walk, pushPage(walk.stack, "c2="), 50, 4);
    walk = answered(walk, pushPage(walk.stack, "c3="), 7, 5);
    expect(walk.counts).toEqual([50, 50, 7]);
    expect(walk.timings).toEqual([
      { page: 1, count: 50, ms: 3 },
      { page: 2, count: 50, ms: 4 },
      { page: 3, count: 7, ms: 5 },
    ]);
    expect(itemsThroughPage(walk)).toBe(107);
    expect(walk).toMatchObject({ answer: "page 3", sent: request });
  });

  it("going back forgets the pages beyond, as a new branch of the walk", () => {
    let walk = answered(initialPageWalk<string>());
    walk = answered(walk, pushPage(walk.stack, "c2="));
    walk = answered(walk, popPage(walk.stack), 48, 9);
    expect(walk.counts).toEqual([48]);
    expect(walk.timings).toEqual([{ page: 1, count: 48, ms: 9 }]);
    expect(itemsThroughPage(walk)).toBe(48);
  });

  it("plots no time for an answer the console gave itself, and counts a page without a list as empty", () => {
    const walk = answered(initialPageWalk<string>(), START, null, null);
    expect(walk.counts).toEqual([0]);
    expect(walk.timings).toEqual([]);
  });

  it("a restart clears counts and timings and keeps the answer shown until the next one", () => {
    const walk = pageWalkReducer(answered(initialPageWalk<string>()), { type: "restart" });
    expect(walk).toMatchObject({ counts: [], timings: [], answer: "page 1" });
  });

  it("a request put back from the history clears the answer, the request it answered and the pages visited", () => {
    let walk = answered(initialPageWalk<string>());
    walk = answered(walk, pushPage(walk.stack, "c2="));
    expect(pageWalkReducer(walk, { type: "cleared" })).toEqual(initialPageWalk<string>());
  });
});
