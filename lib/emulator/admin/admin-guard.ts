/**
 * Who may use the admin surface (reset, clock, faults, and GET /admin/apps, which shows every app's
 * secrets). Two kinds of caller:
 * - a script or the console's server holding the admin token (`Authorization: Bearer <token>`): let in,
 *   whatever its Host or Origin; a wrong token is refused outright;
 * - a browser on the emulator's own pages, judged by where the request says it comes from, as the
 *   console's own routes are: its Host must be one the emulator is reached at (a DNS rebinding page names
 *   its own), its Origin one of those hosts', and a POST needs an Origin and a JSON body.
 * A server reachable beyond loopback requires the token for everything (options.admin.requireToken).
 */
import { timingSafeEqual } from "node:crypto";
import { WebApiError } from "../core/errors";
import { isAllowedHost, isAllowedOrigin, requestHost } from "../core/hosts";
import type { ResolvedOptions } from "../types";

/** Whether a path (relative to the base) is the admin surface's, as the router reads it: empty segments skipped. */
export function isAdminPath(path: string): boolean {
  return path.split("/").find((segment) => segment !== "") === "admin";
}

const isReadMethod = (method: string) => method === "GET" || method === "HEAD";

const refuse = (code: string, message: string) => new WebApiError(code, { message }, { status: 403 });

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The bearer token of an Authorization header, or undefined without one. */
function bearerOf(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  if (header === null) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : "";
}

function requireJsonBody(request: Request): void {
  if (isReadMethod(request.method.toUpperCase())) return;
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw new WebApiError("unsupported_media_type", { message: "Send the admin surface's bodies as application/json." }, { status: 415 });
  }
}

/**
 * Throws unless the request may use the admin surface:
 * - with `Authorization: Bearer`, the token must be the admin token (401 otherwise); nothing else is asked
 *   but a JSON body for a POST;
 * - without it, when the token is required (an exposed server): 401;
 * - otherwise the request's Host must be an allowed host (403 forbidden_host), an `Origin` must be that
 *   host's (never merely the origin the request arrived at, unless its Host is allowed) or the public base
 *   URL's origin, `Sec-Fetch-Site: cross-site` or `same-site` is refused
 *   (reads included), and a POST needs an `Origin` (or, without one, `Sec-Fetch-Site: same-origin`) and a
 *   JSON body (415 otherwise): a form on another page cannot send JSON, and its script can only after a
 *   CORS preflight, which the emulator never grants.
 *
 * Without `allowedHosts` (a bare createEmulator, as unit tests make), any Host is taken and the origin the
 * request arrived at counts as the emulator's own.
 */
export function checkAdminRequest(request: Request, options: Pick<ResolvedOptions, "admin" | "publicBaseUrl">): void {
  const { token, requireToken, allowedHosts } = options.admin;
  const bearer = bearerOf(request);
  if (bearer !== undefined) {
    if (!token || !sameSecret(bearer, token)) {
      throw new WebApiError("invalid_admin_token", { message: "The Authorization header does not carry the emulator's admin token." }, { status: 401 });
    }
    requireJsonBody(request);
    return;
  }
  if (requireToken) {
    throw new WebApiError(
      "admin_token_required",
      { message: "This emulator is reachable beyond this machine: its admin surface answers only Authorization: Bearer <EMULATOR_ADMIN_TOKEN>." },
      { status: 401 },
    );
  }

  const host = requestHost(request);
  if (allowedHosts && !isAllowedHost(host, allowedHosts)) {
    throw refuse("forbidden_host", `The admin surface does not answer requests for ${host}: it answers only the names it is reached at.`);
  }
  const publicOrigin = options.publicBaseUrl ? new URL(options.publicBaseUrl).origin : undefined;
  // An Origin of an allowed host counts when it is the host the request came to (another port of localhost
  // is another site); the public base URL's origin counts too (a proxy's name for the same server).
  const ownOrigin = (origin: string) =>
    origin === publicOrigin ||
    (allowedHosts ? isAllowedOrigin(origin, allowedHosts) && new URL(origin).host === host.toLowerCase() : origin === new URL(request.url).origin);
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site");
  if (origin && origin !== "null" && !ownOrigin(origin)) {
    throw refuse("forbidden_origin", `Requests from ${origin} are not allowed: the admin surface only answers its own origin.`);
  }
  if (fetchSite === "cross-site" || fetchSite === "same-site") {
    throw refuse("forbidden_origin", "Cross-site requests are not allowed on the admin surface.");
  }
  if (isReadMethod(request.method.toUpperCase())) return;
  if ((!origin || origin === "null") && fetchSite !== "same-origin") {
    throw refuse(
      "missing_origin",
      `The admin surface changes state only for requests with an Origin header naming the emulator (${publicOrigin ?? new URL(request.url).origin}), or with Authorization: Bearer <admin token>.`,
    );
  }
  requireJsonBody(request);
}
