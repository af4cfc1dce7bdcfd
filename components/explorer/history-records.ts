/**
 * What the explorer writes in the session's history: one entry per call, and one per Fetch all once it
 * ends (done, cancelled or failed), as a walk of its own.
 */
import { countOfList, summarizeAnswer } from "@/lib/explorer/answer-summary";
import type { FetchAllState } from "@/lib/explorer/fetch-all-progress";
import type { HistoryEntry } from "@/lib/explorer/history";
import { requestParams, type ExplorerRequest } from "@/lib/explorer/params";
import type { ApiCallResult } from "@/lib/swr/use-api-call";
import type { FetchAllStart } from "./explorer-state";

/** A call as sent and answered; `count` the items of the list it carried, if any. */
export function callRecord(sent: ExplorerRequest, answer: ApiCallResult, count: number | undefined, id: string): HistoryEntry {
  const body = answer.body as { ok?: unknown; error?: unknown };
  return {
    id,
    at: answer.at,
    method: sent.method,
    installation: sent.installation,
    tokenKind: sent.tokenKind,
    httpMethod: sent.httpMethod,
    encoding: sent.encoding,
    params: requestParams(sent),
    kind: "call",
    status: answer.status,
    ok: body?.ok === true,
    ...(typeof body?.error === "string" ? { error: body.error } : {}),
    ms: answer.upstreamMs ?? answer.roundTripMs,
    ...(count !== undefined ? { count } : {}),
    summary: summarizeAnswer(answer.status, answer.body, answer.retryAfterS),
  };
}

/** A Fetch all that has ended, with the request and cap it started with; `now` stands in for an end it did not report. */
export function walkRecord(all: FetchAllState, walk: FetchAllStart, now: number): HistoryEntry {
  return {
    id: `all-${all.runId}-${all.startedAt}`,
    at: all.startedAt,
    method: all.method,
    installation: walk.request.installation,
    tokenKind: walk.request.tokenKind,
    httpMethod: "GET",
    params: { ...requestParams(walk.request), max_pages: String(walk.maxPages) },
    kind: "all",
    status: all.status === "error" ? 0 : 200,
    ok: all.status !== "error",
    ...(all.error ? { error: all.error } : {}),
    ms: (all.endedAt ?? now) - all.startedAt,
    count: all.count,
    pages: all.pages,
    summary: `Fetch all ${all.status}${all.capped ? " at the page cap" : ""} · ${countOfList(all.count, all.field)} in ${all.pages} ${all.pages === 1 ? "page" : "pages"}`,
  };
}
