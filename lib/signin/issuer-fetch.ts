import "server-only";
import { getConfig } from "@/lib/config";
import { findEmbeddedEmulator } from "@/lib/embedded-emulator";
import { AppError } from "@/lib/http/app-error";
import { inProcessTransport, platformClockFor } from "@/lib/platform";

/** What openid-client hands its fetch (its `customFetch` option): a form body or none. */
interface IssuerRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: URLSearchParams | string | null;
}

/**
 * One request to the sign-in's issuer (its discovery document, keys and token endpoint), at the URL the
 * discovery named: openid-client's fetch. When the issuer is the emulator this process serves, the request
 * is a function call to it, as every other call to it is (lib/installations/rotation/runtime.ts says why); otherwise it
 * goes over the network, bounded by UPSTREAM_TIMEOUT_MS. Every answer's Date feeds the platform's clock,
 * which the ID token's expiry is judged by.
 */
export async function fetchFromIssuer(url: string, init: IssuerRequestInit = {}): Promise<Response> {
  const config = getConfig();
  const method = init.method ?? "GET";
  const headers: Record<string, string> = { accept: "application/json", ...init.headers };
  const body = init.body === null || init.body === undefined ? undefined : init.body.toString();
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) {
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
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
