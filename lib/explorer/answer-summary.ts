/**
 * A platform answer in one line, for the request history: whether it worked, what it carried, and for an
 * error what the platform said about it (missing_scope's needed scope, a 429's wait).
 */
import { findCollection } from "./items";
import { readNextCursor } from "@/lib/platform/cursor";
import { formatCount } from "@/lib/format";

/**
 * How many items a list held, named by its field ("3,001 members"). A list's field is a plural noun the
 * platform chose, so one item is said without it ("1 item of messages") rather than "1 messages".
 */
export function countOfList(count: number, field: string): string {
  return count === 1 ? `1 item of ${field}` : `${formatCount(count)} ${field}`;
}

export function summarizeAnswer(status: number, body: unknown, retryAfterS: number | null = null): string {
  const answer = (body ?? {}) as { ok?: unknown; error?: unknown; needed?: unknown; provided?: unknown; warning?: unknown };
  if (answer.ok !== true) {
    const code = typeof answer.error === "string" ? answer.error : `HTTP ${status}`;
    if (code === "missing_scope" && typeof answer.needed === "string") return `missing_scope · needs ${answer.needed}`;
    if (status === 429 && retryAfterS !== null) return `${code} · retry after ${retryAfterS} s`;
    return code;
  }
  const parts = ["ok"];
  const collection = findCollection(body);
  if (collection) {
    parts.push(countOfList(collection.items.length, collection.field));
    parts.push(readNextCursor(body) ? "more pages" : "last page");
  }
  if (typeof answer.warning === "string") parts.push(`warning: ${answer.warning}`);
  return parts.join(" · ");
}
