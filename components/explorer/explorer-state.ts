/**
 * The explorer page's state as one pure reducer: the request in the form, a method waiting for its catalog
 * entry's defaults, the walk by hand (lib/explorer/page-walk.ts), the last Fetch all's request and cap, which
 * walk and which view show, and the history entry put back. use-explorer.ts dispatches from the form, the
 * answers and the page's effects; every transition a person relies on is here, and tested.
 */
import { DEFAULT_MAX_PAGES } from "@/lib/explorer/fetch-all-events";
import { requestFromHistory, type HistoryEntry } from "@/lib/explorer/history";
import { NOTHING_STATED, withMethodDefaults, type MethodShape, type StatedFields } from "@/lib/explorer/method-defaults";
import { initialPageWalk, pageWalkReducer, type PageWalk } from "@/lib/explorer/page-walk";
import type { PageStack } from "@/lib/explorer/pagination";
import type { ExplorerRequest } from "@/lib/explorer/params";

/** The request and page cap of a Fetch all, as they were when it started. */
export interface FetchAllStart {
  request: ExplorerRequest;
  maxPages: number;
}

export interface ExplorerState<Answer> {
  request: ExplorerRequest;
  /**
   * A method that came from the link, the history or an answer's note, until its catalog entry has filled
   * what they did not state (its verb, its paging): see method-defaults.ts.
   */
  arrival: { method: string; stated: StatedFields } | null;
  /** The page cap field, as typed (digits only). */
  maxPages: string;
  page: PageWalk<Answer>;
  walk: FetchAllStart | null;
  mode: "page" | "all";
  tab: "table" | "json";
  /** A history entry put back in the form: its answer's summary is shown until the next call. */
  restored: HistoryEntry | null;
  /** Counts the history entries put back: an answer to a call sent before the last one goes to the history, not on the page. */
  generation: number;
}

export type ExplorerAction<Answer> =
  /** The form changed the request (a field typed, a method picked, a row removed). */
  | { type: "edited"; request: ExplorerRequest }
  /** A method named in an answer's note, chosen as if picked in the form: its catalog entry fills its defaults. */
  | { type: "method_chosen"; method: string }
  /** What the explorer knows of the request's method now; null while the catalog has not said. */
  | { type: "method_known"; shape: MethodShape | null }
  /** The installations this person may call with: a request naming none of them takes `fallback`. */
  | { type: "installations_listed"; ids: readonly string[]; fallback: string }
  | { type: "max_pages_typed"; value: string }
  | { type: "mode_chosen"; mode: ExplorerState<Answer>["mode"] }
  | { type: "tab_chosen"; tab: ExplorerState<Answer>["tab"] }
  /** A walk by hand begins again (another method, a hand-written cursor, Start over). */
  | { type: "walk_restarted" }
  /** A call leaves with `request`: the form holds it as sent. */
  | { type: "sent"; request: ExplorerRequest }
  /** The answer to a call sent at `generation`, for the page `stack` points at; `list` when it carried one. */
  | {
      type: "answered";
      generation: number;
      request: ExplorerRequest;
      stack: PageStack;
      answer: Answer;
      count: number | undefined;
      upstreamMs: number | null;
      list: boolean;
    }
  | { type: "fetch_all_started" }
  /** A history entry put back in the form: nothing of the call shown before stays, nothing is sent. */
  | { type: "restored"; entry: HistoryEntry };

export function initialExplorerState<Answer>(request: ExplorerRequest, stated: StatedFields): ExplorerState<Answer> {
  return {
    request,
    arrival: { method: request.method, stated },
    maxPages: String(DEFAULT_MAX_PAGES),
    page: initialPageWalk<Answer>(),
    walk: null,
    mode: "page",
    tab: "table",
    restored: null,
    generation: 0,
  };
}

/** A Fetch all from the form: it starts at the first page, wherever the walk by hand has got to, with the cap typed (or the default). */
export function fetchAllOf(state: Pick<ExplorerState<unknown>, "request" | "maxPages">): FetchAllStart {
  return { request: { ...state.request, cursor: "" }, maxPages: Number(state.maxPages) || DEFAULT_MAX_PAGES };
}

/** The request as a call sends it: the hidden cursor and limit fields of a method that does not page are not sent. */
export function requestAsSent(base: ExplorerRequest, cursor: string, sendsPagingFields: boolean): ExplorerRequest {
  return sendsPagingFields ? { ...base, cursor } : { ...base, cursor: "", limit: "" };
}

/** Whether the method's arrival is settled now: another method was chosen meanwhile, or the catalog has said what it is. */
export function arrivalSettles(state: ExplorerState<unknown>, methodKnown: boolean): boolean {
  return state.arrival !== null && (state.arrival.method !== state.request.method || methodKnown);
}

export function explorerReducer<Answer>(state: ExplorerState<Answer>, action: ExplorerAction<Answer>): ExplorerState<Answer> {
  switch (action.type) {
    case "edited":
      return { ...state, request: action.request };
    case "method_chosen":
      return { ...state, request: { ...state.request, method: action.method, cursor: "" }, arrival: { method: action.method, stated: NOTHING_STATED } };
    case "method_known": {
      const { arrival } = state;
      if (!arrival) return state;
      // Another method was chosen meanwhile: it brought its own defaults.
      if (arrival.method !== state.request.method) return { ...state, arrival: null };
      if (!action.shape) return state;
      return { ...state, request: withMethodDefaults(state.request, action.shape, arrival.stated), arrival: null };
    }
    case "installations_listed":
      return action.ids.includes(state.request.installation) ? state : { ...state, request: { ...state.request, installation: action.fallback } };
    case "max_pages_typed":
      return { ...state, maxPages: action.value };
    case "mode_chosen":
      return { ...state, mode: action.mode };
    case "tab_chosen":
      return { ...state, tab: action.tab };
    case "walk_restarted":
      return { ...state, page: pageWalkReducer(state.page, { type: "restart" }) };
    case "sent":
      return { ...state, request: action.request, mode: "page" };
    case "answered": {
      if (action.generation !== state.generation) return state;
      const { request, stack, answer, count, upstreamMs } = action;
      return {
        ...state,
        page: pageWalkReducer(state.page, { type: "answered", request, stack, answer, count, upstreamMs }),
        restored: null,
        // A list opens on its table; anything else (auth.test, chat.postMessage, an error) on its JSON.
        tab: action.list ? "table" : "json",
      };
    }
    case "fetch_all_started":
      return { ...state, restored: null, mode: "all", tab: "table", walk: fetchAllOf(state) };
    case "restored": {
      const { request, stated, maxPages } = requestFromHistory(action.entry);
      return {
        ...state,
        request,
        arrival: { method: request.method, stated },
        maxPages: maxPages || state.maxPages,
        page: pageWalkReducer(state.page, { type: "cleared" }),
        mode: "page",
        restored: action.entry,
        generation: state.generation + 1,
      };
    }
  }
}
