"use client";

import useSWRMutation from "swr/mutation";
import { CONSOLE_REQUEST_HEADER } from "@/lib/console-request";
import type { WireRecord } from "@/lib/call/wire-header";
import type { CallRequest } from "@/lib/explorer/params";
import { sentUpstreamRequest } from "@/lib/explorer/sent-request";

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

/** The request as the explorer sends it to /api/call: a GET with a query, or a POST with a body. */
export type ApiCallArg = CallRequest;

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

function upstreamWire(arg: ApiCallArg, header: string | null): WireRecord | null {
  const recorded = parseWire(header);
  return recorded && (sentUpstreamRequest(arg, recorded) ?? recorded);
}

async function callApi(_key: string, { arg }: { arg: ApiCallArg }): Promise<ApiCallResult> {
  const started = performance.now();
  let response: Response;
  let text: string;
  try {
    response = await fetch(`/api/call/${encodeURIComponent(arg.method)}?${arg.query}`, {
      method: arg.httpMethod,
      headers: { accept: "application/json", [CONSOLE_REQUEST_HEADER]: "1", ...(arg.contentType ? { "content-type": arg.contentType } : {}) },
      ...(arg.httpMethod === "POST" ? { body: arg.body ?? "" } : {}),
      cache: "no-store",
    });
    text = await response.text();
  } catch (error) {
    // The console itself could not be reached: shown like any other failed call, not thrown at the page.
    const message = error instanceof Error ? error.message : String(error);
    return {
      method: arg.method,
      status: 0,
      body: { ok: false, error: "network_error", message: `The console could not be reached (${message}).` },
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
    body = JSON.parse(text);
  } catch {
    body = { ok: false, error: "not_json", message: text.slice(0, 500) };
  }
  const upstream = response.headers.get("x-upstream-time-ms");
  const retryAfter = response.headers.get("retry-after");
  return {
    method: arg.method,
    status: response.status,
    body,
    bytes: text.length,
    upstreamMs: upstream !== null && upstream !== "" ? Number(upstream) : null,
    roundTripMs,
    refreshed: response.headers.get("x-token-refreshed") === "true" || response.headers.get("x-token-refreshed") === "1",
    wire: upstreamWire(arg, response.headers.get("x-upstream-request")),
    retryAfterS: retryAfter ? Number(retryAfter) : null,
    headers: upstreamHeaders(response),
    at: Date.now(),
  };
}

/** Send: one page (or one call) of any method with the session's token, through the console. */
export function useApiCall() {
  return useSWRMutation("/api/call", callApi);
}
