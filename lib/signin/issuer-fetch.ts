import "server-only";
import { getConfig } from "@/lib/config";
import { findEmbeddedEmulator } from "@/lib/embedded-emulator";
import { AppError } from "@/lib/http/app-error";
import { inProcessTransport, platformClockFor } from "@/lib/platform";

/**
 * One request to the sign-in's issuer (its discovery document, keys and token endpoint), at the URL the
 * discovery named. When the issuer is the emulator this process serves, the request is a function call to
 * it, as every other call to it is (lib/rotation/runtime.ts says why); otherwise it goes over the network,
 * bounded by UPSTREAM_TIMEOUT_MS. Every answer's Date feeds the platform's clock, which the ID token's
 * expiry is judged by.
 */
export async function fetchFromIssuer(url: string, init: { method?: "GET" | "POST"; body?: URLSearchParams } = {}): Promise<Response> {
  const config = getConfig();
  const method = init.method ?? "GET";
  const headers: Record<string, string> = { accept: "application/json" };
  if (init.body) headers["content-type"] = "application/x-www-form-urlencoded";
  const body = init.body?.toString();
  const emulator = config.upstream.kind === "emulator" && url.startsWith(`${config.upstream.baseUrl}/`) ? findEmbeddedEmulator() : undefined;
  const timeout = AbortSignal.timeout(config.upstreamTimeoutMs);
  const sentAt = Date.now();
  let response: Response;
  try {
    response = emulator
      ? await inProcessTransport((request) => emulator.fetch(request))(new Request(url, { method, headers, ...(body !== undefined ? { body } : {}) }))
      : await fetch(url, { method, headers, body, signal: timeout, redirect: "manual", cache: "no-store" });
  } catch (error) {
    if (timeout.aborted) throw new AppError("upstream_timeout", { message: `The platform did not answer ${new URL(url).pathname} in time.` });
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : "connection failed";
    throw new AppError("upstream_unreachable", { message: `The platform could not be reached for sign-in (${reason}).` });
  }
  platformClockFor(config.upstream.baseUrl).observeDate(response.headers.get("date"), sentAt, Date.now());
  return response;
}

/** The answer's JSON, or a 502 that names what was asked when it is not JSON. */
export async function issuerJson(response: Response, what: string): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw new AppError("upstream_bad_answer", { message: `The platform's ${what} was not JSON (HTTP ${response.status}).` });
  }
}
