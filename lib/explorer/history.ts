import type { TokenKind } from "@/lib/installations/universal/token-kind";
import type { HttpMethod } from "@/lib/platform/call-method";
import type { BodyEncoding } from "./catalog/types";
import type { ExplorerRequest, StatedFields } from "./params";

/**
 * The explorer's lasting history as the browser sees it (GET /api/history): every call and Fetch all this
 * person made, kept on the server (lib/store/history.ts) and never a credential: the arguments without
 * them (`stripped` names any left out), the outcome, the timing and what the answer said.
 */

export interface HistoryEntry {
  id: string;
  /** Epoch ms. */
  at: number;
  method: string;
  installation: string;
  tokenKind: TokenKind;
  httpMethod: HttpMethod;
  encoding: BodyEncoding;
  /** The arguments as sent (a JSON body's keep their JSON types). */
  params: Record<string, unknown>;
  /** Arguments left out as credentials or token-shaped values. */
  stripped: string[];
  /** "all" for a Fetch all run (count and pages are the walk's); a single call otherwise. */
  kind: "call" | "all";
  /** `ok`, the platform's error code, `http_<status>`, or `cancelled` (a walk). */
  outcome: string;
  /** Upstream HTTP status. */
  status: number;
  ok: boolean;
  ms: number;
  /** Items in the page (or the walk), when it carried a collection. */
  count?: number;
  pages?: number;
  /** What the answer said, in a line: "ok · 50 members · more pages", "missing_scope · needs chat:write". */
  summary: string;
  /** The answer's size as it came, and whether the history kept only its first 64 KB. */
  answerBytes: number;
  truncated: boolean;
  savedRequestId?: string;
}

/**
 * A header (value `off`) the explorer's own lookups send (its pickers' conversations.list, users.list,
 * files.list): those calls serve the form, not the person's work, and stay out of the history. A header
 * rather than a query key, so no method's parameter can collide with it.
 */
export const HISTORY_OFF_HEADER = "x-switchboard-history";

/** An entry with its answer (GET /api/history/{id}): JSON text, or null when the answer was not JSON. */
export interface HistoryEntryWithAnswer extends HistoryEntry {
  answer: string | null;
}

/** A page of GET /api/history, newest first; `next` is the cursor of the older page. */
export interface HistoryPageAnswer {
  entries: HistoryEntry[];
  next: string | null;
  /**
   * How the page names the installations its entries were called with (by id): the installation's name and
   * its workspace's id, for those the person may still see (another's, or one forgotten, shows its id).
   */
  installations: Record<string, HistoryInstallationName>;
}

export interface HistoryInstallationName {
  name: string;
  team: string;
}

/** What the history may be searched by (GET /api/history's query). */
export interface HistoryFilters {
  method?: string;
  installation?: string;
  /** `ok`, `error`, or one outcome. */
  outcome?: string;
  savedRequestId?: string;
}

/** The query string of a page of history. */
export function historyQuery(filters: HistoryFilters, options: { cursor?: string | null; limit?: number } = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (typeof value === "string" && value.trim() !== "") query.set(key, value.trim());
  if (options.cursor) query.set("cursor", options.cursor);
  if (options.limit) query.set("limit", String(options.limit));
  return query.toString();
}

/** A value as the form's text field holds it: strings as they are, anything else (a JSON body's) as JSON. */
const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** A history entry put back in the form: the request, what the entry states of it, and a walk's page cap. */
export interface RestoredRequest {
  request: ExplorerRequest;
  stated: StatedFields;
  maxPages: string | null;
}

/** The request a history entry records. Its parameters are the call as it was sent, so a limit it lacks was not sent (the catalog adds none). */
export function requestFromHistory(entry: HistoryEntry): RestoredRequest {
  const walk = entry.kind === "all";
  const params = entry.params;
  return {
    request: {
      method: entry.method,
      installation: entry.installation,
      tokenKind: entry.tokenKind,
      httpMethod: entry.httpMethod,
      encoding: entry.encoding,
      cursor: params.cursor === undefined ? "" : asText(params.cursor),
      limit: params.limit === undefined ? "" : asText(params.limit),
      extra: Object.entries(params)
        .filter(([key]) => key !== "cursor" && key !== "limit" && !(walk && key === "max_pages"))
        .map(([key, value]) => ({ key, value: asText(value) })),
    },
    stated: { transport: true, limit: true },
    maxPages: walk && params.max_pages !== undefined ? asText(params.max_pages) : null,
  };
}
