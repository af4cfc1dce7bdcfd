/**
 * Cursors end in `=` (base64); URLSearchParams encodes it as %3D, as the platform requires (spec 4.4).
 * Returns the `cursor=…` pair ready to join into a query string or form body.
 */
export function encodeCursorParam(cursor: string): string {
  return new URLSearchParams({ cursor }).toString();
}

/** Spec 4.7: only response_metadata.next_cursor decides; empty, null or absent means the last page. */
export function readNextCursor(body: unknown): string | null {
  if (!body || typeof body !== "object") return null;
  const metadata = (body as { response_metadata?: unknown }).response_metadata;
  if (!metadata || typeof metadata !== "object") return null;
  const next = (metadata as { next_cursor?: unknown }).next_cursor;
  return typeof next === "string" && next !== "" ? next : null;
}
