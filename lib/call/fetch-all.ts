import { findCollection } from "@/lib/explorer/items";
import { readNextCursor } from "@/lib/platform/cursor";
import type { FetchAllEvent } from "@/lib/explorer/fetch-all-events";

/**
 * The server-side walk behind "Fetch all": page after page, following response_metadata.next_cursor until
 * it is empty, null or absent (spec 4.7: a short page is not the end), with the events the browser shows.
 * The upstream call is injected, so the walk is the same over the session's tokens in the route and over
 * an in-process emulator in tests.
 */

export interface UpstreamPage {
  /** HTTP status of the upstream response. */
  status: number;
  body: unknown;
  /** The response text as it came (forwarded without re-serializing). */
  rawText: string;
  durationMs: number;
  /** Seconds, from Retry-After, on a 429. */
  retryAfterS?: number;
  /** The session's token was refreshed to make this call. */
  refreshed?: boolean;
}

export interface WalkOptions {
  /** Calls the method with these parameters (cursor included when set). */
  call(params: Record<string, string>, signal: AbortSignal): Promise<UpstreamPage>;
  params: Record<string, string>;
  maxPages: number;
  /** Stops the walk: the browser disconnected or pressed Cancel. */
  signal: AbortSignal;
  /** Waits out a Retry-After; injectable so tests need not sleep. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The first page, when the caller already fetched it (see the route: tokens are settled before streaming). */
  firstPage?: UpstreamPage;
  now?: () => number;
}

/** Consecutive 429s on one page before the walk gives up. */
const MAX_RATE_LIMIT_WAITS = 20;

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** A JSON object as it came upstream, ready to embed in an NDJSON line: on one line, or re-serialized. */
function embeddable(page: UpstreamPage): string {
  const raw = page.rawText.trim();
  if (raw.startsWith("{") && !raw.includes("\n")) return raw;
  return JSON.stringify(page.body);
}

/** One NDJSON line for an event; page lines embed the upstream text instead of re-serializing it. */
export function serializeEvent(event: FetchAllEvent, page?: UpstreamPage): string {
  if (event.type === "page" && page) {
    const { response: _response, ...head } = event;
    return `${JSON.stringify(head).slice(0, -1)},"response":${embeddable(page)}}\n`;
  }
  return `${JSON.stringify(event)}\n`;
}

export interface WalkStep {
  event: FetchAllEvent;
  /** The upstream page behind a "page" event (to serialize it without a second stringify). */
  upstream?: UpstreamPage;
}

export async function* walkAllPages(options: WalkOptions): AsyncGenerator<WalkStep> {
  const { call, signal, maxPages } = options;
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  const started = now();
  const params = { ...options.params };
  delete params.cursor;
  // The cursor of the page being fetched: a 429 retries it.
  let cursor: string | null = options.params.cursor || null;
  let pages = 0;
  let total = 0;
  let waits = 0;
  // The next page's call, started before the current page is handed on (see below).
  let pending: Promise<UpstreamPage> | undefined = options.firstPage ? Promise.resolve(options.firstPage) : undefined;

  // The first call of a request runs before its response starts, so a refresh it makes is saved.
  let beforeHeaders = true;
  while (!signal.aborted) {
    const pageNumber = pages + 1;
    const upstream = await (pending ?? call(cursor ? { ...params, cursor } : params, signal));
    const refreshedMidStream = Boolean(upstream.refreshed) && !beforeHeaders;
    beforeHeaders = false;
    pending = undefined;
    if (signal.aborted) return;

    if (upstream.status === 429) {
      waits += 1;
      if (waits > MAX_RATE_LIMIT_WAITS) {
        yield { event: { type: "error", error: "ratelimited", message: "Still rate limited after repeated waits.", page: pageNumber } };
        return;
      }
      const retryAfterS = upstream.retryAfterS ?? 1;
      yield { event: { type: "ratelimited", page: pageNumber, retryAfterS } };
      try {
        await sleep(retryAfterS * 1000, signal);
      } catch {
        return;
      }
      continue;
    }
    waits = 0;

    const body = upstream.body as { ok?: unknown; error?: unknown } | null;
    if (upstream.status !== 200 || !body || body.ok !== true) {
      const error = body && typeof body.error === "string" ? body.error : `http_${upstream.status}`;
      yield { event: { type: "error", error, page: pageNumber } };
      return;
    }

    const count = findCollection(body)?.items.length ?? 0;
    pages = pageNumber;
    total += count;
    const next = readNextCursor(body);
    cursor = next;
    // The next page is asked for before this one is serialized and written, so that the upstream answer
    // (and the compression and parsing around it, partly off the main thread) overlaps with the writing.
    // At most this one call is in flight when the walk stops.
    if (next && !refreshedMidStream && pages < maxPages) {
      const prefetch = call({ ...params, cursor: next }, signal);
      // Awaited on the next turn; a walk that ends first must not leave it as an unhandled rejection.
      prefetch.catch(() => {});
      pending = prefetch;
    }
    yield {
      event: {
        type: "page",
        page: pageNumber,
        count,
        total,
        next_cursor: next,
        ms: Math.round(upstream.durationMs),
        response: body as Record<string, unknown>,
      },
      upstream,
    };
    if (!next) {
      yield { event: { type: "done", pages, items: total, capped: false, ms: now() - started } };
      return;
    }
    if (refreshedMidStream) {
      yield { event: { type: "resume", page: pageNumber, cursor: next, reason: "token_refreshed" } };
      return;
    }
    if (pages >= maxPages) {
      yield { event: { type: "done", pages, items: total, capped: true, ms: now() - started } };
      return;
    }
  }
}

export interface StreamOptions extends Omit<WalkOptions, "firstPage"> {
  /** Turns an exception thrown by `call` into the code and message of the final "error" line. */
  describeError(error: unknown): { error: string; message: string };
  /** Called once when the walk is over: its stream ended, was cancelled or failed, or `signal` aborted. */
  onClose?: () => void;
  /** Sees each step before it is written (the history's record of the walk: a last step is recorded before the browser reads it). */
  observe?: (step: WalkStep) => Promise<void> | void;
}

const NDJSON_HEADERS = {
  "content-type": "application/x-ndjson; charset=utf-8",
  // no-transform keeps the server's gzip off this stream: compressing would hold pages back in its buffer
  // and cost the server as much CPU as the walk itself, for a response that only crosses to the browser.
  "cache-control": "no-store, no-transform",
  // Proxies that buffer would hold back the pages the browser should see as they arrive.
  "x-accel-buffering": "no",
};

/**
 * The streamed walk as a Response. The first page is fetched before the response starts, so that a token
 * refresh it causes is saved in the session cookie (headers cannot change once the body streams) and so
 * that a failure before any page (unknown installation, timeout) is an ordinary error response. The rest is
 * pulled page by page as the browser reads: a slow reader slows the walk, and a reader that goes away
 * (Cancel, a closed tab) cancels the stream, which aborts the walk before its next upstream call.
 */
export async function streamAllPages(options: StreamOptions): Promise<Response> {
  const abort = new AbortController();
  let closed = false;
  const release = () => {
    options.signal.removeEventListener("abort", onAbort);
    if (closed) return;
    closed = true;
    options.onClose?.();
  };
  // A browser that goes away may leave the stream unread and never cancelled: the walk ends all the same.
  function onAbort() {
    abort.abort();
    release();
  }
  options.signal.addEventListener("abort", onAbort, { once: true });
  // A signal that aborted before this point (the browser left during the token's refresh) never fires.
  if (options.signal.aborted) onAbort();

  const { cursor, ...rest } = options.params;
  const firstParams = cursor ? { ...rest, cursor } : rest;
  let firstPage: UpstreamPage;
  try {
    firstPage = await options.call(firstParams, abort.signal);
  } catch (error) {
    release();
    throw error;
  }

  const steps = walkAllPages({ ...options, signal: abort.signal, firstPage });
  const encoder = new TextEncoder();
  let lastPage = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const step = await steps.next();
        if (step.done) {
          release();
          controller.close();
          return;
        }
        if (step.value.event.type === "page") lastPage = step.value.event.page;
        await options.observe?.(step.value);
        controller.enqueue(encoder.encode(serializeEvent(step.value.event, step.value.upstream)));
      } catch (error) {
        if (abort.signal.aborted) {
          release();
          controller.close();
          return;
        }
        const { error: code, message } = options.describeError(error);
        await options.observe?.({ event: { type: "error", error: code, message, page: lastPage + 1 } });
        release();
        controller.enqueue(encoder.encode(serializeEvent({ type: "error", error: code, message, page: lastPage + 1 })));
        controller.close();
      }
    },
    cancel() {
      abort.abort();
      release();
    },
  });
  return new Response(stream, { headers: NDJSON_HEADERS });
}
