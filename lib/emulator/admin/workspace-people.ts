/**
 * GET {base}/admin/workspace/people?team_id=&q=&from=&limit=: the people of a workspace whose name or id
 * matches `q` (the console's Workspace page, "You are": any member may be picked, not only those
 * /admin/workspace/member offers), in users.list order; `next` goes on where this read stopped.
 */
import { jsonResponse, WebApiError } from "../core/errors";
import type { RequestContext } from "../types";
import { adminWorkspace } from "../interactivity/parts";
import { findPeople } from "../workspace/people-search";

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export function describePeople(ctx: RequestContext): Response {
  const query = new URL(ctx.request.url).searchParams;
  const ws = adminWorkspace(ctx.state, query.get("team_id"));
  const q = (query.get("q") ?? "").trim();
  if (q === "" || q.length > 100) throw new WebApiError("invalid_arguments", { detail: "q: a name or id of 1 to 100 characters" }, { status: 400 });
  const from = Number(query.get("from") ?? 0);
  const limit = Number(query.get("limit") ?? DEFAULT_LIMIT);
  if (!Number.isSafeInteger(from) || from < 0)
    throw new WebApiError("invalid_arguments", { detail: "from: a position (the `next` of a search)" }, { status: 400 });
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new WebApiError("invalid_arguments", { detail: `limit: 1 to ${MAX_LIMIT}` }, { status: 400 });
  return jsonResponse({ ok: true, ...findPeople(ws, q, { from, limit, baseUrl: ctx.baseUrl }) });
}
