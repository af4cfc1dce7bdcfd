import "server-only";
import { AppError } from "@/lib/http/app-error";
import type { ListPosition } from "@/lib/store/installation-lists";

/**
 * A list's cursor (GET /api/session?after= or ?before=): the position of an installation at a page's edge (its
 * sort key and id, lib/store/installation-lists.ts),
 * opaque to the browser (base64url of a small JSON array) and read back strictly: anything else, a garbled
 * or hand-made value, answers 400 invalid_cursor rather than a page from nowhere. A cursor stays valid
 * whatever is written meanwhile: a position, not an offset, so an install or a forget never shifts a page.
 */

const MAX_CURSOR_CHARS = 200;

export function encodeListCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([1, position.key, position.id])).toString("base64url");
}

export function decodeListCursor(cursor: string): ListPosition {
  const refuse = () => new AppError("invalid_cursor");
  if (cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw refuse();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw refuse();
  }
  if (!Array.isArray(value) || value.length !== 3) throw refuse();
  const [version, key, id] = value as unknown[];
  if (version !== 1 || !Number.isSafeInteger(key) || typeof id !== "string" || !/^[A-Za-z0-9-]{1,64}$/.test(id)) throw refuse();
  return { key: key as number, id };
}
