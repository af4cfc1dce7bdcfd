/**
 * The codes the console's pages give a failure themselves, when no route's error body (lib/http/error-body.ts)
 * says what went wrong, with their messages. None is one of the console's own codes (lib/http/error-codes.ts),
 * so a page can tell what a route said from what the browser saw.
 */
export const BROWSER_ERRORS = {
  /** No answer, or the connection broke while it came: the console is down, or the network is. */
  network_error: (cause: unknown) => `The connection to the console failed (${cause instanceof Error ? cause.message : String(cause)}).`,
  /** An answer that should be JSON and is not (a proxy's error page, a cut answer): its start, to show what came. */
  not_json: (text: string) => `The console's answer is not JSON: ${text.slice(0, 500)}`,
  /** A Fetch all stream that ended before its last event. */
  stream_ended: () => "The console ended the stream early.",
  /** An error status without the console's error body (a proxy's, or the framework's own 404 or 500). */
  http_error: (status: number) => `The console answered HTTP ${status}.`,
} as const;

export type BrowserErrorCode = keyof typeof BROWSER_ERRORS;
