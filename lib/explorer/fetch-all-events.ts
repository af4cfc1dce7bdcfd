/**
 * The NDJSON protocol of GET /api/call/{method}/all: one JSON object per line, in this order:
 * any number of "page" and "ratelimited" lines, then exactly one "done", "error" or "resume" line (none when
 * the client went away). A page line carries the platform's response as it came, so the server never
 * re-serializes a page it only forwards.
 */

export interface PageEvent {
  type: "page";
  /** 1-based. */
  page: number;
  /** Items in this page's collection. */
  count: number;
  /** Items so far, this page included. */
  total: number;
  next_cursor: string | null;
  /** Upstream time of this page, in ms. */
  ms: number;
  /** The platform's JSON response for this page. */
  response: Record<string, unknown>;
}

export interface RateLimitedEvent {
  type: "ratelimited";
  page: number;
  retryAfterS: number;
}

/**
 * The walk stopped early so that the browser continues it in a new request from `cursor`: the session's
 * token was refreshed while the body streamed, and only a new request can save the new token in the
 * session cookie (its first call does, before that response starts).
 */
export interface ResumeEvent {
  type: "resume";
  page: number;
  cursor: string;
  reason: "token_refreshed";
}

export interface DoneEvent {
  type: "done";
  pages: number;
  items: number;
  /** True when the walk stopped at the page cap while next_cursor still pointed further. */
  capped: boolean;
  ms: number;
}

export interface ErrorEvent {
  type: "error";
  /** The platform's error code (invalid_cursor, ratelimited, …) or the console's own. */
  error: string;
  message?: string;
  page: number;
}

export type FetchAllEvent = PageEvent | RateLimitedEvent | ResumeEvent | DoneEvent | ErrorEvent;

/** Default and ceiling of the page cap (100,000 members at limit 200 is 500 pages). */
export const DEFAULT_MAX_PAGES = 1000;
export const MAX_PAGES_CEILING = 10_000;

/**
 * Splits a byte stream into parsed lines, as they arrive. A line may span chunks; the last line may lack
 * its newline.
 */
export async function* readNdjson(stream: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  // Pieces of the line in progress: a page line can be hundreds of kB spread over many chunks, and joining
  // only once its newline arrives keeps reading linear in its size.
  let pending: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let chunk = decoder.decode(value, { stream: true });
      let newline = chunk.indexOf("\n");
      while (newline >= 0) {
        pending.push(chunk.slice(0, newline));
        const line = pending.join("");
        pending = [];
        if (line.trim() !== "") yield JSON.parse(line);
        chunk = chunk.slice(newline + 1);
        newline = chunk.indexOf("\n");
      }
      if (chunk !== "") pending.push(chunk);
    }
    pending.push(decoder.decode());
    const last = pending.join("");
    if (last.trim() !== "") yield JSON.parse(last);
  } finally {
    reader.releaseLock();
  }
}
