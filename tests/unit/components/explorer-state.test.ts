import { describe, expect, it } from "vitest";
import { arrivalSettles, explorerReducer, fetchAllOf, initialExplorerState, requestAsSent, type ExplorerState } from "@/components/explorer/explorer-state";
import { findMethod } from "@/lib/explorer/catalog/query";
import { METHOD_CATALOG } from "@/lib/explorer/catalog/methods.generated";
import type { HistoryEntry } from "@/lib/explorer/history";
import { catalogShape, NOTHING_STATED, type MethodShape } from "@/lib/explorer/method-defaults";
import { pushPage, START } from "@/lib/explorer/pagination";
import { EMPTY_REQUEST, fromSearchParams, statedInLink, type ExplorerRequest } from "@/lib/explorer/params";

type State = ExplorerState<string>;

function shape(name: string): MethodShape {
  const method = findMethod(METHOD_CATALOG, name);
  if (!method) throw new Error(`${name} is not in the catalog`);
  return catalogShape(method);
}

/** The page opened from a link, once the catalog has said what its method is. */
function opened(query: string): State {
  const link = new URLSearchParams(query);
  const request = fromSearchParams(link);
  const state = initialExplorerState<string>(request, statedInLink(link));
  return explorerReducer(state, { type: "method_known", shape: shape(request.method) });
}

const ready = (patch: Partial<ExplorerRequest> = {}): State => ({
  ...initialExplorerState<string>({ ...EMPTY_REQUEST, installation: "T1-A1", ...patch }, NOTHING_STATED),
  arrival: null,
});

function answer(state: State, body: string, stack = state.page.stack, count: number | undefined = 50, list = true): State {
  return explorerReducer(state, { type: "answered", generation: state.generation, request: state.request, stack, answer: body, count, upstreamMs: 5, list });
}

describe("a method's arrival", () => {
  it("fills what a link does not state from the catalog once it is known: chat.postMessage is the JSON POST it documents", () => {
    const link = new URLSearchParams("method=chat.postMessage&installation=T1-A1");
    const waiting = initialExplorerState<string>(fromSearchParams(link), statedInLink(link));
    expect(arrivalSettles(waiting, false)).toBe(false);
    expect(explorerReducer(waiting, { type: "method_known", shape: null })).toBe(waiting);
    expect(arrivalSettles(waiting, true)).toBe(true);
    const known = explorerReducer(waiting, { type: "method_known", shape: shape("chat.postMessage") });
    expect(known.request).toMatchObject({ method: "chat.postMessage", httpMethod: "POST", encoding: "json", limit: "" });
    expect(known.arrival).toBeNull();
  });

  it("keeps what the link states: its verb, and its limit", () => {
    expect(opened("method=chat.postMessage&verb=POST").request).toMatchObject({ httpMethod: "POST", encoding: "form" });
    expect(opened("method=users.list&p.limit=7").request.limit).toBe("7");
    expect(opened("method=users.list").request.limit).toBe("50");
  });

  it("drops the arrival of a method the person replaced before the catalog came, leaving their request as it is", () => {
    const waiting = initialExplorerState<string>({ ...EMPTY_REQUEST, method: "users.list" }, NOTHING_STATED);
    const typed = explorerReducer(waiting, { type: "edited", request: { ...waiting.request, method: "auth.test", limit: "3" } });
    expect(arrivalSettles(typed, false)).toBe(true);
    const settled = explorerReducer(typed, { type: "method_known", shape: null });
    expect(settled.arrival).toBeNull();
    expect(settled.request).toEqual(typed.request);
  });

  it("chooses a method named in an answer's note as if picked: first page, its catalog's verb, the console's page size, the other arguments kept", () => {
    const walking = ready({ method: "users.list", cursor: "dXNlcjpVMDI=", limit: "7", extra: [{ key: "team_id", value: "T1" }] });
    const chosen = explorerReducer(walking, { type: "method_chosen", method: "conversations.list" });
    expect(chosen.request).toMatchObject({ method: "conversations.list", cursor: "" });
    expect(chosen.arrival).toEqual({ method: "conversations.list", stated: NOTHING_STATED });
    const known = explorerReducer(chosen, { type: "method_known", shape: shape("conversations.list") });
    expect(known.request).toMatchObject({ method: "conversations.list", cursor: "", limit: "50", extra: [{ key: "team_id", value: "T1" }] });
    const post = explorerReducer(explorerReducer(walking, { type: "method_chosen", method: "chat.postMessage" }), {
      type: "method_known",
      shape: shape("chat.postMessage"),
    });
    expect(post.request).toMatchObject({ httpMethod: "POST", encoding: "json", cursor: "", limit: "" });
  });
});

describe("the installation to call with", () => {
  it("takes the fallback when the request names none of this person's installations, and keeps one it names", () => {
    const foreign = ready({ installation: "T9-A9" });
    expect(explorerReducer(foreign, { type: "installations_listed", ids: ["T1-A1", "T2-A1"], fallback: "T2-A1" }).request.installation).toBe("T2-A1");
    const mine = ready({ installation: "T1-A1" });
    expect(explorerReducer(mine, { type: "installations_listed", ids: ["T1-A1", "T2-A1"], fallback: "T2-A1" })).toBe(mine);
  });
});

describe("the walk by hand", () => {
  it("holds the request as sent, and each answer's page, items so far and view", () => {
    let state = explorerReducer(ready(), { type: "sent", request: { ...ready().request, cursor: "" } });
    state = answer(state, "page 1");
    const next = pushPage(state.page.stack, "c2=");
    state = explorerReducer(state, { type: "sent", request: { ...state.request, cursor: "c2=" } });
    state = answer(state, "page 2", next, 20);
    expect(state.page).toMatchObject({ answer: "page 2", counts: [50, 20], stack: next });
    expect(state.page.sent?.cursor).toBe("c2=");
    expect(state.tab).toBe("table");
    expect(answer(state, "auth.test", START, undefined, false).tab).toBe("json");
  });

  it("starts counting again on restart, keeping the answer shown", () => {
    const state = answer(ready(), "page 1");
    const restarted = explorerReducer(state, { type: "walk_restarted" });
    expect(restarted.page).toMatchObject({ counts: [], timings: [], answer: "page 1" });
  });

  it("sends no cursor or limit for a method that does not page, and the cursor asked for one that does", () => {
    const request = { ...EMPTY_REQUEST, cursor: "old=", limit: "20" };
    expect(requestAsSent(request, "c2=", true)).toMatchObject({ cursor: "c2=", limit: "20" });
    expect(requestAsSent(request, "c2=", false)).toMatchObject({ cursor: "", limit: "" });
  });

  it("shows the page view again when a call is sent during a Fetch all", () => {
    const all = explorerReducer(ready(), { type: "fetch_all_started" });
    expect(explorerReducer(all, { type: "sent", request: all.request }).mode).toBe("page");
  });
});

describe("Fetch all", () => {
  it("walks from the first page with the cap typed, or the default cap when none is", () => {
    const walking = ready({ cursor: "c3=" });
    const typed = explorerReducer(walking, { type: "max_pages_typed", value: "5" });
    expect(fetchAllOf(typed)).toEqual({ request: { ...walking.request, cursor: "" }, maxPages: 5 });
    expect(fetchAllOf(explorerReducer(walking, { type: "max_pages_typed", value: "" })).maxPages).toBe(1000);
    const started = explorerReducer({ ...typed, tab: "json" }, { type: "fetch_all_started" });
    expect(started).toMatchObject({ mode: "all", tab: "table", walk: { request: { cursor: "" }, maxPages: 5 } });
  });
});

describe("a history entry put back", () => {
  const entry: HistoryEntry = {
    id: "all-1",
    at: 1,
    method: "users.list",
    installation: "T1-A1",
    tokenKind: "user",
    httpMethod: "GET",
    encoding: "form",
    params: { limit: "200", max_pages: "3" },
    stripped: [],
    kind: "all",
    outcome: "ok",
    status: 200,
    ok: true,
    ms: 40,
    summary: "Fetch all done",
    answerBytes: 2,
    truncated: false,
  };

  it("replaces what the page showed with the entry's request and page cap, and sends nothing", () => {
    const shown = explorerReducer(answer(ready(), "page 1"), { type: "mode_chosen", mode: "all" });
    const restored = explorerReducer(shown, { type: "restored", entry });
    expect(restored.request).toMatchObject({ method: "users.list", tokenKind: "user", limit: "200", cursor: "", extra: [] });
    expect(restored).toMatchObject({
      maxPages: "3",
      mode: "page",
      restored: entry,
      arrival: { method: "users.list", stated: { transport: true, limit: true } },
    });
    expect(restored.page).toMatchObject({ answer: null, sent: null, counts: [] });
  });

  it("keeps the page cap typed when the entry is a single call", () => {
    const typed = explorerReducer(ready(), { type: "max_pages_typed", value: "9" });
    expect(explorerReducer(typed, { type: "restored", entry: { ...entry, kind: "call", params: {} } }).maxPages).toBe("9");
  });

  it("leaves an answer to a call sent before it off the page (it goes to the history only), and shows the next call's", () => {
    const sentBefore = ready();
    const restored = explorerReducer(sentBefore, { type: "restored", entry });
    const late = explorerReducer(restored, {
      type: "answered",
      generation: sentBefore.generation,
      request: sentBefore.request,
      stack: START,
      answer: "late",
      count: 50,
      upstreamMs: 5,
      list: true,
    });
    expect(late).toBe(restored);
    const fresh = answer(restored, "fresh");
    expect(fresh.page.answer).toBe("fresh");
    expect(fresh.restored).toBeNull();
  });
});
