import { decodeCursor, encodeCursor, type CursorScope } from "./cursor";
import { WebApiError } from "../core/errors";
import { rng } from "../workspace/ids";
import type { Workspace } from "../workspace/workspace";

/**
 * Cursor pagination as the platform does it (spec 2.3, 4.4, 4.7, 7, 8 in docs/spec/web-api.md): a page starts at the item its
 * cursor names, found in O(1) from the id; limit is adjusted silently; some pages are deliberately
 * shorter than limit while more remain, so that only next_cursor may end a walk; the last page carries
 * next_cursor "".
 */

export const MAX_LIMIT = 1000;

/**
 * The page size for a raw `limit` parameter: numbers are clamped into 1..MAX_LIMIT (fractions rounded
 * down); absent, 0 (the platform's "no limit") and anything that is not a number give `fallback`.
 */
export function resolveLimit(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw.trim());
  if (!Number.isFinite(n) || n === 0) return fallback;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(n)));
}

/** About one page in four is shorter than limit while more remain. */
const SHORT_PAGE_SHARE = 0.25;

/**
 * How many items the page starting at `start` holds: `limit`, or for some (start, limit) fewer, chosen
 * by the seed so that every run shows the same short pages. Never zero, never past the end.
 */
export function pageSize(ws: Workspace, stream: number, start: number, limit: number, total: number): number {
  const remaining = total - start;
  if (remaining <= limit) return Math.max(0, remaining);
  const r = rng(ws.keys.seedHash, stream, start ^ Math.imul(limit, 0x2c1b3c6d));
  if (limit < 2 || r() >= SHORT_PAGE_SHARE) return limit;
  return 1 + Math.floor(r() * (limit - 1));
}

export interface PageRequest {
  ws: Workspace;
  scope: Omit<CursorScope, "teamId">;
  /** Separates the short-page pattern of one collection from another's. */
  stream: number;
  total: number;
  params: Record<string, string>;
  defaultLimit: number;
  /** The id of the item at a position, and back (-1: not an item of this collection). */
  idAt(index: number): string;
  indexOf(id: string): number;
  nowMs: number;
  cursorTtlSeconds: number;
}

export interface Page {
  start: number;
  end: number;
  /** "" on the last page. */
  nextCursor: string;
}

/** The window of the collection a request asks for; throws invalid_cursor for any unusable cursor. */
export function resolvePage(req: PageRequest): Page {
  const scope: CursorScope = { ...req.scope, teamId: req.ws.team.id };
  let start = 0;
  const cursor = req.params.cursor;
  if (cursor !== undefined && cursor !== "") {
    const decoded = decodeCursor(req.ws.cursorSecret, scope, cursor, req.nowMs, req.cursorTtlSeconds);
    const index = decoded.ok ? req.indexOf(decoded.id) : -1;
    if (index < 0) throw new WebApiError("invalid_cursor");
    start = index;
  }
  const limit = resolveLimit(req.params.limit, req.defaultLimit);
  const end = start + pageSize(req.ws, req.stream, start, limit, req.total);
  const nextCursor = end < req.total ? encodeCursor(req.ws.cursorSecret, scope, req.idAt(end), req.nowMs) : "";
  return { start, end, nextCursor };
}
