import { AppError } from "@/lib/http/app-error";
import { maskToken } from "./mask";

export type HttpMethod = "GET" | "POST";

export interface WireRequest {
  method: HttpMethod;
  url: string;
  /** Authorization masked. */
  headers: Record<string, string>;
  /** Form body with tokens and secrets masked. */
  body?: string;
}

export interface PlatformCallResult {
  /** The platform's own `ok` (false for HTTP errors and non-JSON answers too). */
  ok: boolean;
  status: number;
  /** The platform's JSON as it came (undefined when the answer was not JSON). */
  body: unknown;
  rawText: string;
  durationMs: number;
  /** Seconds from the Retry-After header of a 429. */
  retryAfterS?: number;
  wire: WireRequest;
}

export type ParamValue = string | number | boolean | undefined | null;

export interface CallMethodOptions {
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; omitted for methods that authenticate with client credentials. */
  token?: string;
  method: string;
  params?: Record<string, ParamValue>;
  httpMethod?: HttpMethod;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
const METHOD_NAME = /^[A-Za-z0-9.]+$/;
/** Parameters holding tokens: shown masked in the wire record. */
const TOKEN_PARAMS = new Set(["token", "refresh_token"]);
/** Parameters holding other secrets: not shown at all. */
const HIDDEN_PARAMS = new Set(["client_secret", "code"]);

export function isValidMethodName(name: string): boolean {
  return METHOD_NAME.test(name);
}

function toSearchParams(params: Record<string, ParamValue>): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    search.append(key, String(value));
  }
  return search;
}

function maskedForm(search: URLSearchParams): string {
  const masked = new URLSearchParams();
  for (const [key, value] of search) {
    masked.append(key, HIDDEN_PARAMS.has(key) ? "…" : TOKEN_PARAMS.has(key) ? maskToken(value) : value);
  }
  return masked.toString();
}

function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Whether a URL points at this machine (localhost, 127.0.0.0/8, [::1]). */
export function isLoopbackUrl(url: string): boolean {
  try {
    return LOOPBACK_HOST.test(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * Calls one Web API method at {baseUrl}/api/{method}: POST with a form-encoded body (the default, what token
 * methods require) or GET with a query string, the token as a Bearer header. Returns the platform's answer
 * as it came, whatever its `ok`, with what went over the wire (masked). Throws AppError only when there is
 * no answer: 504 after the timeout, 502 when the platform cannot be reached.
 */
export async function callMethod(options: CallMethodOptions): Promise<PlatformCallResult> {
  if (!isValidMethodName(options.method)) {
    throw new AppError("invalid_method", 400, "A method name may only contain letters, digits and dots.");
  }
  const httpMethod = options.httpMethod ?? "POST";
  const search = toSearchParams(options.params ?? {});
  let url = `${options.baseUrl.replace(/\/+$/, "")}/api/${options.method}`;
  const headers: Record<string, string> = {};
  const wireHeaders: Record<string, string> = {};
  if (options.token) {
    headers.authorization = `Bearer ${options.token}`;
    wireHeaders.authorization = `Bearer ${maskToken(options.token)}`;
  }
  // Compression saves nothing on loopback (the embedded emulator, a local test server) and costs CPU at both
  // ends, which dominates a long fetch-all walk; anywhere else fetch's default (gzip, deflate, br) stands.
  if (isLoopbackUrl(url)) headers["accept-encoding"] = "identity";
  let body: string | undefined;
  let wireUrl = url;
  if (httpMethod === "GET") {
    const query = search.toString();
    if (query) {
      url += `?${query}`;
      wireUrl += `?${maskedForm(search)}`;
    }
  } else {
    body = search.toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
    wireHeaders["content-type"] = headers["content-type"];
  }
  const wire: WireRequest = { method: httpMethod, url: wireUrl, headers: wireHeaders, ...(body !== undefined ? { body: maskedForm(search) } : {}) };

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const started = performance.now();
  let response: Response;
  let rawText: string;
  try {
    response = await fetch(url, { method: httpMethod, headers, body, signal, redirect: "manual", cache: "no-store" });
    rawText = await response.text();
  } catch (error) {
    if (timeout.aborted) {
      throw new AppError("upstream_timeout", 504, `The platform did not answer ${options.method} within ${timeoutMs} ms.`);
    }
    if (options.signal?.aborted) throw new AppError("request_aborted", 499, "The request was cancelled.");
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : "connection failed";
    throw new AppError("upstream_unreachable", 502, `The platform could not be reached for ${options.method} (${reason}).`);
  }
  const durationMs = Math.round(performance.now() - started);
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawText);
  } catch {
    parsed = undefined;
  }
  const platformOk = typeof parsed === "object" && parsed !== null && (parsed as { ok?: unknown }).ok === true;
  const retryAfterS = response.status === 429 ? parseRetryAfter(response.headers.get("retry-after")) : undefined;
  return {
    ok: response.ok && platformOk,
    status: response.status,
    body: parsed,
    rawText,
    durationMs,
    ...(retryAfterS !== undefined ? { retryAfterS } : {}),
    wire,
  };
}

/** The platform's error code of a failed call (`ok: false`), if it gave one. */
export function platformErrorCode(result: PlatformCallResult): string | undefined {
  const body = result.body as { ok?: unknown; error?: unknown } | undefined;
  return body && typeof body.error === "string" ? body.error : undefined;
}
