import "server-only";
import { createHash } from "node:crypto";
import { AppError } from "@/lib/http/app-error";
import type { ListFilter, ListPosition } from "@/lib/store/installation-lists";

/**
 * A list's cursor (GET /api/session?after= or ?before=): the position of an installation at a page's edge (its
 * sort key and id, lib/store/installation-lists.ts),
 * opaque to the browser (base64url of a small JSON array) and read back strictly: anything else, a garbled
 * or hand-made value, answers 400 invalid_cursor rather than a page from nowhere. A cursor stays valid
 * whatever is written meanwhile: a position, not an offset, so an install or a forget never shifts a page.
 * It names the list it came from (the filter, a hash of the search): a position means nothing in another
 * order or another list ("expiring" is sorted by expiry), so a cursor pasted into another list is refused
 * rather than answered with a page of it from nowhere.
 */

/** Which list a cursor belongs to. */
export interface CursorList {
  filter: ListFilter;
  q: string;
}

/** The search as the list matches it (any case), hashed: the cursor stays short and does not carry the words. */
function searchHash(q: string): string {
  return createHash("sha256").update(q.toLowerCase()).digest("base64url").slice(0, 12);
}

const MAX_CURSOR_CHARS = 200;

export function encodeListCursor(position: ListPosition, list: CursorList): string {
  return Buffer.from(JSON.stringify([2, position.key, position.id, list.filter, searchHash(list.q)])).toString("base64url");
}

export function decodeListCursor(cursor: string, list: CursorList): ListPosition {
  const refuse = () => new AppError("invalid_cursor");
  if (cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw refuse();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw refuse();
  }
  if (!Array.isArray(value) || value.length !== 5) throw refuse();
  const [version, key, id, filter, hash] = value as unknown[];
  if (version !== 2 || !Number.isSafeInteger(key) || typeof id !== "string" || !/^[A-Za-z0-9-]{1,64}$/.test(id)) throw refuse();
  if (filter !== list.filter || hash !== searchHash(list.q)) {
    throw new AppError("invalid_cursor", { message: "This cursor belongs to another list (another filter or search): start from its first page." });
  }
  return { key: key as number, id };
}
