import type { TokenKind } from "@/lib/installations/universal/token-kind";
import type { HttpMethod } from "@/lib/platform/call-method";
import { methodParams } from "@/lib/platform/credential-params";
import type { BodyEncoding } from "./catalog/types";
import type { ExplorerRequest, StatedFields } from "./params";

/**
 * The session's request history. It is kept in sessionStorage (this tab, until it closes) and holds no
 * secrets: the method, the token kind, the parameters without credentials, and the outcome.
 */

export interface HistoryEntry {
  id: string;
  /** Epoch ms. */
  at: number;
  method: string;
  installation: string;
  tokenKind: TokenKind;
  /** How it was sent (absent in entries from before POST: GET). */
  httpMethod?: HttpMethod;
  encoding?: BodyEncoding;
  params: Record<string, string>;
  /** "all" for a Fetch all run (count and pages are the walk's); a single call otherwise. */
  kind?: "call" | "all";
  /** Upstream HTTP status. */
  status: number;
  ok: boolean;
  error?: string;
  ms: number;
  /** Items in the page (or the walk), when it carried a collection. */
  count?: number;
  pages?: number;
  /** What the answer said, in a line: "ok · 50 members · more pages", "missing_scope · needs chat:write". */
  summary?: string;
}

export const HISTORY_KEY = "switchboard.explorer.history";
export const HISTORY_LIMIT = 50;

/** Newest first, at most HISTORY_LIMIT entries. */
export function addHistoryEntry(history: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  return [{ ...entry, params: methodParams(Object.entries(entry.params)) }, ...history].slice(0, HISTORY_LIMIT);
}

function isEntry(value: unknown): value is HistoryEntry {
  if (!value || typeof value !== "object") return false;
  const e = value as Partial<HistoryEntry>;
  return typeof e.id === "string" && typeof e.method === "string" && typeof e.at === "number" && typeof e.params === "object";
}

export function parseHistory(raw: string | null): HistoryEntry[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter(isEntry).slice(0, HISTORY_LIMIT) : [];
  } catch {
    return [];
  }
}

/** A history entry put back in the form: the request, what the entry states of it, and a walk's page cap. */
export interface RestoredRequest {
  request: ExplorerRequest;
  stated: StatedFields;
  maxPages: string | null;
}

/**
 * The request a history entry records. Its parameters are the call as it was sent, so a limit it lacks was
 * not sent (the catalog adds none); its verb is absent only in entries from before POST, and the catalog
 * fills that.
 */
export function requestFromHistory(entry: HistoryEntry): RestoredRequest {
  const walk = entry.kind === "all";
  return {
    request: {
      method: entry.method,
      installation: entry.installation,
      tokenKind: entry.tokenKind,
      httpMethod: entry.httpMethod ?? "GET",
      encoding: entry.encoding ?? "form",
      cursor: entry.params.cursor ?? "",
      limit: entry.params.limit ?? "",
      extra: Object.entries(entry.params)
        .filter(([key]) => key !== "cursor" && key !== "limit" && !(walk && key === "max_pages"))
        .map(([key, value]) => ({ key, value })),
    },
    stated: { transport: entry.httpMethod !== undefined, limit: true },
    maxPages: walk ? (entry.params.max_pages ?? null) : null,
  };
}
