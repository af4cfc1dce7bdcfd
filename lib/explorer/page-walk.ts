/**
 * The walk by hand as one state: the pages visited (their cursors), what each page held and how long it
 * took upstream, the last answer and the request that produced it. Every answer updates all of them at once,
 * through pageWalkReducer, so they cannot disagree (page 3's count beside page 2's answer).
 */
import { pageNumber, START, type PageStack } from "./pagination";
import type { ExplorerRequest } from "./params";

/** How long one page took upstream and how many items it held (the timings chart's bar). */
export interface PageTiming {
  page: number;
  count: number;
  ms: number;
}

export interface PageWalk<Answer> {
  stack: PageStack;
  /** Items on each page visited, page 1 first. */
  counts: number[];
  timings: PageTiming[];
  answer: Answer | null;
  /** The request that produced `answer`: Next and Previous page from it, not from what the form holds now. */
  sent: ExplorerRequest | null;
}

export type PageWalkAction<Answer> =
  /** A walk of its own begins (another method, a hand-written cursor, Start over): counts and timings go. */
  | { type: "restart" }
  /** Another request is put in the form (from the history): no page has been asked for it yet. */
  | { type: "cleared" }
  /** The answer to the page `stack` points at. `count` is undefined when it carried no list; `upstreamMs` null when the console answered itself. */
  | { type: "answered"; request: ExplorerRequest; stack: PageStack; answer: Answer; count: number | undefined; upstreamMs: number | null };

export function initialPageWalk<Answer>(): PageWalk<Answer> {
  return { stack: START, counts: [], timings: [], answer: null, sent: null };
}

export function pageWalkReducer<Answer>(walk: PageWalk<Answer>, action: PageWalkAction<Answer>): PageWalk<Answer> {
  switch (action.type) {
    case "restart":
      return { ...walk, counts: [], timings: [] };
    case "cleared":
      return initialPageWalk<Answer>();
    case "answered": {
      const page = pageNumber(action.stack);
      const count = action.count ?? 0;
      return {
        stack: action.stack,
        // Pages after this one were visited on another branch of the walk: they no longer count.
        counts: [...walk.counts.slice(0, page - 1), count],
        timings: [...walk.timings.filter((t) => t.page < page), ...(action.upstreamMs !== null ? [{ page, count, ms: action.upstreamMs }] : [])],
        answer: action.answer,
        sent: action.request,
      };
    }
  }
}

/** Items through the page shown, since the walk began. */
export function itemsThroughPage(walk: PageWalk<unknown>): number {
  return walk.counts.slice(0, pageNumber(walk.stack)).reduce((a, b) => a + b, 0);
}
