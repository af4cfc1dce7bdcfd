import { CONSOLE_REQUEST_HEADER } from "@/lib/console-request";
import type { ErrorBody } from "@/lib/http/error-response";

/** An error answer from a console route, with what the person needs to act on it. */
export class ConsoleRequestError extends Error {
  constructor(
    readonly status: number,
    /** One of the console's codes (lib/http/error-codes.ts), or an upstream's it relayed. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ConsoleRequestError";
  }
}

/** fetch + JSON for console routes: a non-2xx answer throws a ConsoleRequestError with the route's message. */
export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { cache: "no-store", ...init, headers: { accept: "application/json", [CONSOLE_REQUEST_HEADER]: "1", ...init?.headers } });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error = body as Partial<ErrorBody> | null;
    throw new ConsoleRequestError(response.status, error?.error ?? "http_error", error?.message ?? `The console answered HTTP ${response.status}.`);
  }
  return body as T;
}

export const jsonBody = (value: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(value),
});
