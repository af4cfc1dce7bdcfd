/**
 * The emulator's errors and the one place that turns them into responses. The platform has three
 * error surfaces, each with its own wire shape, so there are three error types:
 * - WebApiError: Web API methods. HTTP 200 with {"ok":false,"error":code,...extra}; rate limiting is
 *   the exception (HTTP 429 with Retry-After).
 * - PlainTextError: incoming webhooks answer a status and a plain-text code (400 invalid_payload, ...).
 * - PageError: pages a person sees (the OAuth authorize page) answer an HTML error page, never a redirect.
 * Admin routes use WebApiError too (their JSON has the same shape) with an explicit HTTP status.
 */
import { htmlResponse, renderErrorPage } from "./html";

export interface WebApiErrorInit {
  /** HTTP status; 200 unless the platform uses another one (429 for ratelimited, 4xx on the admin surface). */
  status?: number;
  headers?: Record<string, string>;
}

export class WebApiError extends Error {
  readonly code: string;
  readonly extra: Record<string, unknown>;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: string, extra: Record<string, unknown> = {}, init: WebApiErrorInit = {}) {
    super(code);
    this.name = "WebApiError";
    this.code = code;
    this.extra = extra;
    this.status = init.status ?? 200;
    this.headers = init.headers ?? {};
  }
}

export class PlainTextError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, headers: Record<string, string> = {}) {
    super(code);
    this.name = "PlainTextError";
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

export class PageError extends Error {
  readonly status: number;
  readonly title: string;
  /** Shown to the person; never holds a secret. */
  readonly detail: string;

  constructor(status: number, title: string, detail: string) {
    super(title);
    this.name = "PageError";
    this.status = status;
    this.title = title;
    this.detail = detail;
  }
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** Every error thrown anywhere in the emulator ends here. Unknown errors expose nothing. */
export function errorToResponse(error: unknown): Response {
  if (error instanceof WebApiError) {
    return jsonResponse({ ok: false, error: error.code, ...error.extra }, error.status, error.headers);
  }
  if (error instanceof PlainTextError) {
    return new Response(error.code, {
      status: error.status,
      headers: { "content-type": "text/plain; charset=utf-8", ...error.headers },
    });
  }
  if (error instanceof PageError) {
    return htmlResponse(renderErrorPage(error.title, error.detail), error.status);
  }
  return jsonResponse({ ok: false, error: "internal_error" }, 500);
}
