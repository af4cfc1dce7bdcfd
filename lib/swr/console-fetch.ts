import { CONSOLE_REQUEST_HEADER } from "@/lib/console-request";
import { errorBodySchema } from "@/lib/http/error-body";
import { BROWSER_ERRORS, type BrowserErrorCode } from "./browser-errors";

/** An error answer from a console route, or a failure the browser saw, with what the person needs to act on it. */
export class ConsoleRequestError extends Error {
  constructor(
    /** The answer's HTTP status; 0 when none came. */
    readonly status: number,
    /** One of the console's codes (lib/http/error-codes.ts), an upstream's it relayed, or the browser's (BROWSER_ERRORS). */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ConsoleRequestError";
  }
}

/** A failure the browser names itself, with its message from BROWSER_ERRORS. */
export function browserError<C extends BrowserErrorCode>(code: C, status: number, ...detail: Parameters<(typeof BROWSER_ERRORS)[C]>): ConsoleRequestError {
  const message = (BROWSER_ERRORS[code] as (...args: typeof detail) => string)(...detail);
  return new ConsoleRequestError(status, code, message);
}

/** What a failed request threw, as a ConsoleRequestError: anything but one already is the connection's failure. */
export function toConsoleRequestError(error: unknown): ConsoleRequestError {
  return error instanceof ConsoleRequestError ? error : browserError("network_error", 0, error);
}

/**
 * Every request the console's pages make to its API: the console's request header (which routes that refuse
 * cross-site requests look for), JSON unless the caller accepts something else, and never the HTTP cache.
 * Resolves with any answer, error statuses included; rejects with a network_error ConsoleRequestError when
 * none came, and with the AbortError as it is when the caller aborted.
 */
export async function consoleFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has("accept")) headers.set("accept", "application/json");
  headers.set(CONSOLE_REQUEST_HEADER, "1");
  try {
    return await fetch(url, { cache: "no-store", ...init, headers });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw browserError("network_error", 0, error);
  }
}

/** An answer's whole body, as text and its size in bytes (UTF-8, not the text's UTF-16 length). */
export async function readAnswer(response: Response): Promise<{ text: string; bytes: number }> {
  let body: ArrayBuffer;
  try {
    body = await response.arrayBuffer();
  } catch (error) {
    throw browserError("network_error", response.status, error);
  }
  return { text: new TextDecoder().decode(body), bytes: body.byteLength };
}

/** What an error answer says: the route's error body when it has one, else http_error with its status. */
export function answerError(status: number, text: string): ConsoleRequestError {
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not the console's error body: a proxy's page, the framework's own 404 or 500.
  }
  const body = errorBodySchema.safeParse(json);
  return body.success ? new ConsoleRequestError(status, body.data.error, body.data.message) : browserError("http_error", status, status);
}

/** A console route's JSON: a non-2xx answer throws a ConsoleRequestError with the route's message; an empty one is null. */
export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await consoleFetch(url, init);
  const { text } = await readAnswer(response);
  if (!response.ok) throw answerError(response.status, text);
  if (text === "") return null as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw browserError("not_json", response.status, text);
  }
}

export const jsonBody = (value: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(value),
});
