import { AppError } from "@/lib/http/app-error";
import { maskToken } from "./mask";
import { platformClockFor } from "./platform-clock";
import { isValidMethodName } from "./method-name";

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
  /**
   * The platform's JSON as it came (undefined when the answer was not JSON). Parsed when first read: an
   * `ok: true` answer is recognised by its first bytes, so a caller that only forwards it never parses it.
   */
  readonly body: unknown;
  /** The answer as text, decoded when first read. */
  readonly rawText: string;
  /** The answer's bytes as they came. */
  bytes: Uint8Array<ArrayBuffer>;
  /** The answer's headers as they came. */
  headers: Headers;
  durationMs: number;
  /** Seconds from the Retry-After header of a 429. */
  retryAfterS?: number;
  wire: WireRequest;
}

export type ParamValue = string | number | boolean | undefined | null;

/** Answers a request without the network: the embedded emulator, in the same process (see RotationRuntime). */
export type PlatformTransport = (request: Request) => Promise<Response>;

export interface CallMethodOptions {
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; omitted for methods that authenticate with client credentials. */
  token?: string;
  method: string;
  params?: Record<string, ParamValue>;
  httpMethod?: HttpMethod;
  /**
   * A POST's arguments as a JSON body (Content-Type: application/json), which write methods accept with a
   * Bearer token: values keep their JSON types (blocks as arrays, booleans). Used instead of `params`.
   */
  json?: Record<string, unknown>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Answers in place of fetch. The request carries no signal: like the platform once a request has arrived,
   * the transport finishes what it started whatever the caller does, and the caller stops waiting on the
   * timeout or its own signal all the same.
   */
  transport?: PlatformTransport;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
/** Parameters holding tokens: shown masked in the wire record. */
const TOKEN_PARAMS = new Set(["token", "refresh_token"]);
/** Parameters holding other secrets: not shown at all. */
const HIDDEN_PARAMS = new Set(["client_secret", "code"]);

/** Refuses a name the platform could not have as a method's (400 invalid_method) before anything is sent. */
export function assertValidMethodName(name: string): void {
  if (!isValidMethodName(name)) throw new AppError("invalid_method");
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
 * methods require) or a JSON body (`json`), or GET with a query string, the token as a Bearer header. Returns the platform's answer
 * as it came, whatever its `ok`, with what went over the wire (masked). Throws AppError only when there is
 * no answer: 504 after the timeout, 502 when the platform cannot be reached.
 */
export async function callMethod(options: CallMethodOptions): Promise<PlatformCallResult> {
  assertValidMethodName(options.method);
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
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] = "application/json; charset=utf-8";
    wireHeaders["content-type"] = headers["content-type"];
  } else {
    body = search.toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
    wireHeaders["content-type"] = headers["content-type"];
  }
  // A JSON body carries no credential (the callers send the token as a header), so it is shown as sent.
  const wireBody = body === undefined ? undefined : options.json !== undefined ? body : maskedForm(search);
  const wire: WireRequest = { method: httpMethod, url: wireUrl, headers: wireHeaders, ...(wireBody !== undefined ? { body: wireBody } : {}) };

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const started = performance.now();
  const sentAt = Date.now();
  let response: Response;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    ({ response, bytes } = options.transport
      ? await untilAborted(readAnswer(options.transport(new Request(url, { method: httpMethod, headers, body }))), signal)
      : await readAnswer(fetch(url, { method: httpMethod, headers, body, signal, redirect: "manual", cache: "no-store" })));
  } catch (error) {
    if (timeout.aborted) {
      throw new AppError("upstream_timeout", { message: `The platform did not answer ${options.method} within ${timeoutMs} ms.` });
    }
    if (options.signal?.aborted) throw new AppError("request_aborted");
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : "connection failed";
    throw new AppError("upstream_unreachable", { message: `The platform could not be reached for ${options.method} (${reason}).` });
  }
  const durationMs = Math.round(performance.now() - started);
  // Every answer says the platform's time: the console's clock follows it (a moved emulator clock included).
  platformClockFor(options.baseUrl).observeDate(response.headers.get("date"), sentAt, Date.now());
  const answer = lazyAnswer(bytes);
  const platformOk = startsWithOkTrue(bytes) || isOkBody(answer.body());
  const retryAfterS = response.status === 429 ? parseRetryAfter(response.headers.get("retry-after")) : undefined;
  return {
    ok: response.ok && platformOk,
    status: response.status,
    get body() {
      return answer.body();
    },
    get rawText() {
      return answer.text();
    },
    bytes,
    headers: response.headers,
    durationMs,
    ...(retryAfterS !== undefined ? { retryAfterS } : {}),
    wire,
  };
}

async function readAnswer(answer: Promise<Response>): Promise<{ response: Response; bytes: Uint8Array<ArrayBuffer> }> {
  const response = await answer;
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** `work`, or the signal's reason once it aborts, whichever comes first; `work` goes on regardless. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) return stop();
    signal.addEventListener("abort", stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}

const UTF8 = new TextDecoder();

/** The answer's text and JSON, each made once and only when asked for. */
function lazyAnswer(bytes: Uint8Array) {
  let text: string | undefined;
  let parsed: { value: unknown } | undefined;
  return {
    text: () => (text ??= UTF8.decode(bytes)),
    body(): unknown {
      if (!parsed) {
        try {
          parsed = { value: JSON.parse((text ??= UTF8.decode(bytes))) };
        } catch {
          parsed = { value: undefined };
        }
      }
      return parsed.value;
    },
  };
}

function isOkBody(body: unknown): boolean {
  return typeof body === "object" && body !== null && (body as { ok?: unknown }).ok === true;
}

const OK_TRUE = new TextEncoder().encode('{"ok":true');
const isJsonSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * Whether the answer opens with `{"ok":true` followed by `,` or `}` (leading whitespace allowed): how the
 * platform writes every successful answer. Recognising it from its first bytes spares parsing a page of
 * hundreds of kilobytes that is forwarded as it came; anything else is parsed to find out.
 */
function startsWithOkTrue(bytes: Uint8Array): boolean {
  let start = 0;
  while (isJsonSpace(bytes[start])) start++;
  if (bytes.length < start + OK_TRUE.length + 1) return false;
  for (let i = 0; i < OK_TRUE.length; i++) if (bytes[start + i] !== OK_TRUE[i]) return false;
  let next = start + OK_TRUE.length;
  while (isJsonSpace(bytes[next])) next++;
  return bytes[next] === 0x2c || bytes[next] === 0x7d;
}

/** The platform's error code of a failed call (`ok: false`), if it gave one. */
export function platformErrorCode(result: PlatformCallResult): string | undefined {
  if (result.ok) return undefined;
  const body = result.body as { ok?: unknown; error?: unknown } | undefined;
  return body && typeof body.error === "string" ? body.error : undefined;
}
