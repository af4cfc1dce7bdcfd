/**
 * Who may use the admin surface. It has no credentials of its own, so what keeps a page on another site
 * from resetting the emulator (or reading its apps' secrets) through a browser that can reach it is where
 * the request says it comes from: the same rules as the console's own routes. Scripts are not browsers and
 * send what they like; they set `Origin` to the emulator's origin for a POST.
 */
import { WebApiError } from "../core/errors";

/** Whether a path (relative to the base) is the admin surface's, as the router reads it: empty segments skipped. */
export function isAdminPath(path: string): boolean {
  return path.split("/").find((segment) => segment !== "") === "admin";
}

const isReadMethod = (method: string) => method === "GET" || method === "HEAD";

const refuse = (code: string, message: string) => new WebApiError(code, { message }, { status: 403 });

/**
 * Throws unless the request may use the admin surface:
 * - an `Origin` must be one of `ownOrigins` (the origin the request arrived at, and the emulator's public one);
 * - `Sec-Fetch-Site: cross-site` or `same-site` is refused, reads included (GET /admin/apps shows secrets);
 * - a POST needs an `Origin`, or without one `Sec-Fetch-Site: same-origin`, and a JSON body (415 otherwise):
 *   a form on another page cannot send JSON, and its script can only after a CORS preflight, which the
 *   emulator never grants.
 */
export function checkAdminRequest(request: Request, ownOrigins: ReadonlySet<string>): void {
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site");
  if (origin && origin !== "null" && !ownOrigins.has(origin)) {
    throw refuse("forbidden_origin", `Requests from ${origin} are not allowed: the admin surface only answers its own origin.`);
  }
  if (fetchSite === "cross-site" || fetchSite === "same-site") {
    throw refuse("forbidden_origin", "Cross-site requests are not allowed on the admin surface.");
  }
  if (isReadMethod(request.method.toUpperCase())) return;
  if ((!origin || origin === "null") && fetchSite !== "same-origin") {
    throw refuse(
      "missing_origin",
      `The admin surface changes state only for requests with an Origin header naming the emulator (${[...ownOrigins][0] ?? "its own origin"}).`,
    );
  }
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw new WebApiError("unsupported_media_type", { message: "Send the admin surface's bodies as application/json." }, { status: 415 });
  }
}
