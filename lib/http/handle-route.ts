import "server-only";
import { getConfig } from "@/lib/config";
import { CONSOLE_REQUEST_HEADER } from "@/lib/console-request";
import { isAllowedOrigin } from "@/lib/emulator";
import { readBounded } from "@/lib/read-bounded";
import { AppError } from "./app-error";
import { RequestCookieJar, runWithCookieJar } from "./cookie-jar";
import { toErrorResponse } from "./error-response";
import { hostRefusal } from "./host-check";
import { refuseNulInPath } from "./json-body";
import { refusalResponse } from "./refusal";

/** Request bodies larger than this answer 413 unless a route says otherwise. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export interface RouteOptions {
  /** State-changing route: the request must come from the console's own origin (else 403). */
  mutating?: boolean;
  /**
   * Refuse requests another site started, even reads (default: same as `mutating`). GET /api/call needs
   * it because a Web API method called through GET can still change state.
   */
  rejectCrossSite?: boolean;
  /** Largest accepted request body in bytes (else 413). */
  maxBodyBytes?: number;
  /**
   * The route is a page a browser navigates to (the OAuth install and callback). Every other route refuses
   * a top-level navigation: a link in a mail, a chat message or a bookmark must not act with the cookies.
   */
  navigable?: boolean;
}

export interface RouteContext {
  params: Promise<Record<string, string | string[] | undefined>>;
}

const NO_PARAMS: RouteContext = { params: Promise.resolve({}) };

/** What a browser's Fetch Metadata says of a navigation, or of a page embedding the route, rather than a fetch. */
const NAVIGATION_DESTINATIONS = new Set(["document", "iframe", "frame", "embed", "object"]);

function refuseNavigation(request: Request) {
  const mode = request.headers.get("sec-fetch-mode");
  const dest = request.headers.get("sec-fetch-dest");
  if (mode === "navigate" || (dest !== null && NAVIGATION_DESTINATIONS.has(dest))) {
    throw new AppError("navigation_refused");
  }
}

/**
 * A browser sends Origin on every cross-origin request and on same-origin POST/DELETE; Sec-Fetch-Site
 * says the same thing on navigations. A request is accepted when what it says names this console: APP_ORIGIN
 * or an allowed host, never merely the origin the request arrived at (which a rebinding page shares).
 */
function checkOrigin(request: Request, mutating: boolean) {
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site");
  const { appOrigin, allowedHosts } = getConfig();
  if (origin && origin !== "null") {
    if (origin !== appOrigin && !isAllowedOrigin(origin, allowedHosts))
      throw new AppError("forbidden_origin", { message: `Requests from ${origin} are not allowed: this route only answers the console's own pages.` });
    return;
  }
  if (fetchSite === "cross-site" || fetchSite === "same-site") {
    throw new AppError("forbidden_origin");
  }
  if (mutating && fetchSite !== "same-origin") {
    throw new AppError("missing_origin");
  }
  // A read that says nothing of where it came from could be a link on another site followed by a browser
  // without Fetch Metadata, and `none` is what a browser says of a link opened from outside any page: only
  // the console's own header vouches for those.
  if (fetchSite !== "same-origin" && !request.headers.has(CONSOLE_REQUEST_HEADER)) {
    throw new AppError("missing_origin", {
      message: `This route refuses requests that do not say where they come from: send an Origin header naming the console, or ${CONSOLE_REQUEST_HEADER}: 1.`,
    });
  }
}

/** Reads the body up to the limit, so an oversized body never lands in memory whole. */
async function readLimitedBody(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  if (!request.body) return undefined;
  const read = await readBounded(request.body, { maxBytes, declaredLength: request.headers.get("content-length") });
  if (read.outcome === "too_large") throw new AppError("payload_too_large", { message: `The request body is larger than ${maxBytes} bytes.` });
  if (read.outcome !== "complete") throw new AppError("request_aborted", { message: "The request was cancelled before its body arrived." });
  return read.bytes;
}

/**
 * A check every route passes after the Host check and before anything else: who may reach the API at all.
 * The caller supplies it (the console's is the sign-in gate, lib/access/handle-route.ts), so the wire knows
 * nothing of sessions. It throws an AppError to refuse, and answers what it found (the console's: who asks),
 * which the handler is handed: read once per request.
 */
export type RouteGate<A> = (request: Request) => Promise<A>;

/** A route's handler behind a gate: the request, its parameters, and what the gate answered. */
export type GatedHandler<A> = (request: Request, context: RouteContext, access: A) => Promise<Response> | Response;

/**
 * Makes the route wrapper: what every console route needs, the Host check (host-check.ts) and the Origin check, the gate, the body
 * size limit, the request's cookie jar (Set-Cookie applied to whatever the handler answers, errors
 * included), and the one error mapper, so no handler leaks a stack trace or a secret.
 */
export function createRouteWrapper<A>(gate: RouteGate<A>) {
  return (handler: GatedHandler<A>, options: RouteOptions = {}) =>
    async (request: Request, context: RouteContext = NO_PARAMS): Promise<Response> => {
      // First, and as a page to a browser: a name the console does not answer at learns nothing more (host-check.ts).
      const refusedHost = hostRefusal(request);
      if (refusedHost) return refusalResponse(request, refusedHost);
      const jar = new RequestCookieJar(request);
      const response = await runWithCookieJar(jar, async () => {
        try {
          const mutating = options.mutating ?? false;
          const access = await gate(request);
          // A NUL in the address (`/api/api-keys/%00`) would reach the store's text columns: 400, as in a body.
          refuseNulInPath(await context.params);
          if (!options.navigable) refuseNavigation(request);
          if (mutating || options.rejectCrossSite) checkOrigin(request, mutating);
          let forwarded = request;
          if (request.method !== "GET" && request.method !== "HEAD") {
            const body = await readLimitedBody(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
            forwarded = new Request(request.url, {
              method: request.method,
              headers: request.headers,
              body: body as BodyInit | undefined,
              signal: request.signal,
            });
          }
          return await handler(forwarded, context, access);
        } catch (error) {
          return toErrorResponse(error);
        }
      });
      await runWithCookieJar(jar, () => jar.settle());
      return jar.applyTo(response);
    };
}
