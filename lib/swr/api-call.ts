import type { WireRecord } from "@/lib/platform/wire-header";
import type { CallRequest } from "@/lib/explorer/params";
import { sentUpstreamRequest } from "@/lib/explorer/sent-request";
import type { ErrorBody } from "@/lib/http/error-body";
import { browserError, consoleFetch, readAnswer, toConsoleRequestError, type ConsoleRequestError } from "./console-fetch";

/** One call through GET /api/call/{method}, as the explorer shows it. */
export interface ApiCallResult {
  method: string;
  /** HTTP status of the console's answer: the platform's own status for a forwarded call. */
  status: number;
  /** The platform's JSON as it came, or the console's { ok: false, error, message } when it answered itself. */
  body: unknown;
  /** Bytes of the response body. */
  bytes: number;
  /** The upstream call's duration, from x-upstream-time-ms (null when no upstream call was made). */
  upstreamMs: number | null;
  /** Browser to console and back, in ms. */
  roundTripMs: number;
  refreshed: boolean;
  /**
   * What the console sent upstream, token masked: the request this call sent, aimed where the console's record
   * (x-upstream-request) says, with the record's headers. The record alone (cut to fit a header) when that fails.
   */
  wire: WireRecord | null;
  retryAfterS: number | null;
  /** The platform's answer headers the console passed on (named in x-upstream-headers): scopes, rate limits… */
  headers: Record<string, string>;
  at: number;
}

/** The platform's headers the console passed on, by the names it lists in x-upstream-headers. */
function upstreamHeaders(response: Response): Record<string, string> {
  const names = (response.headers.get("x-upstream-headers") ?? "").split(",").filter(Boolean);
  return Object.fromEntries(
    names.flatMap((name) => {
      const value = response.headers.get(name);
      return value === null ? [] : [[name, value]];
    }),
  );
}

function parseWire(header: string | null): WireRecord | null {
  if (!header) return null;
  try {
    const wire = JSON.parse(header) as WireRecord;
    return typeof wire.url === "string" && typeof wire.method === "string" ? { ...wire, headers: wire.headers ?? {} } : null;
  } catch {
    return null;
  }
}

function upstreamWire(call: CallRequest, header: string | null): WireRecord | null {
  const recorded = parseWire(header);
  return recorded && (sentUpstreamRequest(call, recorded) ?? recorded);
}

/** A failure the browser saw, in the shape of the console's own error bodies, to show where the answer would be. */
const failureBody = (failure: ConsoleRequestError): ErrorBody => ({ ok: false, error: failure.code, message: failure.message });

/**
 * Sends one call through /api/call/{method} and reads what the explorer shows of it. A console that could not
 * be reached is shown like any other failed call (status 0, a network_error body), not thrown at the page.
 * `send` is the page's consoleFetch; a test passes one aimed at its server.
 */
export async function sendApiCall(call: CallRequest, send: typeof consoleFetch = consoleFetch): Promise<ApiCallResult> {
  const started = performance.now();
  let response: Response;
  let answer: { text: string; bytes: number };
  try {
    response = await send(`/api/call/${encodeURIComponent(call.method)}?${call.query}`, {
      method: call.httpMethod,
      headers: call.contentType ? { "content-type": call.contentType } : {},
      ...(call.httpMethod === "POST" ? { body: call.body ?? "" } : {}),
    });
    answer = await readAnswer(response);
  } catch (error) {
    return {
      method: call.method,
      status: 0,
      body: failureBody(toConsoleRequestError(error)),
      bytes: 0,
      upstreamMs: null,
      roundTripMs: Math.round(performance.now() - started),
      refreshed: false,
      wire: null,
      retryAfterS: null,
      headers: {},
      at: Date.now(),
    };
  }
  const roundTripMs = Math.round(performance.now() - started);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    body = failureBody(browserError("not_json", response.status, answer.text));
  }
  const upstream = response.headers.get("x-upstream-time-ms");
  const retryAfter = response.headers.get("retry-after");
  return {
    method: call.method,
    status: response.status,
    body,
    bytes: answer.bytes,
    upstreamMs: upstream !== null && upstream !== "" ? Number(upstream) : null,
    roundTripMs,
    // The console sends 1 or 0 (lib/call/call-proxy.ts).
    refreshed: response.headers.get("x-token-refreshed") === "1",
    wire: upstreamWire(call, response.headers.get("x-upstream-request")),
    retryAfterS: retryAfter ? Number(retryAfter) : null,
    headers: upstreamHeaders(response),
    at: Date.now(),
  };
}
