/**
 * The Workspace page's live stream as the page tells it (GET /api/workspace/stream): what it is now and when
 * to try again. Kept apart from the EventSource so it can be read and tested alone.
 *
 * An EventSource retries by itself after a dropped connection, but gives up for good on an answer that is
 * not a stream (429 too_many_streams past a person's tabs, 403, a 5xx): then the page asks the route once
 * what it said, shows why, and opens a new one after the route's Retry-After or a growing pause.
 */

export type WorkspaceStreamState =
  | { kind: "connecting" }
  | { kind: "live" }
  /** The connection dropped, or the route failed: trying again (`attempt` from 1). */
  | { kind: "reconnecting"; attempt: number; retryInMs?: number }
  /** The route refused the stream (429 too_many_streams, 403): why, and when the page tries again. */
  | { kind: "refused"; attempt: number; status: number; code: string; message: string; retryInMs: number };

export type WorkspaceStreamEvent =
  /** The stream said `ready`. */
  | { type: "ready" }
  /** The connection dropped and the EventSource is retrying by itself. */
  | { type: "dropped" }
  /** The EventSource gave up; the route's answer when asked again (status 0: none came). */
  | { type: "closed"; status: number; code?: string; message?: string; retryAfter?: string | null };

export const INITIAL_STREAM_STATE: WorkspaceStreamState = { kind: "connecting" };

/** The first pause after a failure without Retry-After, doubled each time up to the cap. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 60_000;
/** After the route, asked again, opened a stream the page let go at once. */
const REOPEN_AFTER_ASKING_MS = 500;

/** @internal Retry-After in seconds (the console sends seconds; an HTTP date is read too), in ms; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_MS * 10);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** @internal The pause before attempt `attempt` (from 1) when the route named none: 1 s, 2 s, 4 s… up to a minute. */
export function backoffMs(attempt: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1), MAX_RETRY_MS);
}

const attemptOf = (state: WorkspaceStreamState) => (state.kind === "reconnecting" || state.kind === "refused" ? state.attempt : 0);

/** The next state; a `retryInMs` in it is when the page opens a new EventSource. */
export function nextStreamState(state: WorkspaceStreamState, event: WorkspaceStreamEvent, now = Date.now()): WorkspaceStreamState {
  switch (event.type) {
    case "ready":
      return { kind: "live" };
    case "dropped":
      // The EventSource retries by itself; a refusal already shown stays until the stream is live again.
      return state.kind === "refused" ? state : { kind: "reconnecting", attempt: attemptOf(state) + 1 };
    case "closed": {
      const attempt = attemptOf(state) + 1;
      // Asked again, the route opened a stream (a tab closed meanwhile): open one as soon as the route has let
      // that one go, which takes it a moment after the page does.
      if (event.status >= 200 && event.status < 300) return { kind: "reconnecting", attempt, retryInMs: REOPEN_AFTER_ASKING_MS };
      const named = retryAfterMs(event.retryAfter, now);
      const retryInMs = named ?? backoffMs(attempt);
      // A 4xx with the console's error body is a refusal to show; anything else (no answer, a 5xx) is a failure to retry.
      if (event.status >= 400 && event.status < 500 && event.code) {
        return { kind: "refused", attempt, status: event.status, code: event.code, message: event.message ?? event.code, retryInMs };
      }
      return { kind: "reconnecting", attempt, retryInMs };
    }
  }
}
