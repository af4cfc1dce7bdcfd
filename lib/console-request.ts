/**
 * The header the console's own pages send with every request to its API. A page on another site cannot
 * add a custom header to a request without a CORS preflight, which the console never grants, so for a
 * browser that sends neither Origin nor Sec-Fetch-Site (older browsers, scripts) it shows the request did
 * not come from a link or a form on someone else's page.
 */
export const CONSOLE_REQUEST_HEADER = "x-switchboard-request";

/**
 * Who a timeline entry says did an action: the page's button when a browser on the console's own page sent
 * it (its header, and the browser's own Sec-Fetch-Site, which a script does not send), else the route as
 * called ("POST /api/tokens/revoke"), so a revoke made with curl is not recorded as a click.
 */
export function actionCause(request: Request, button: string): string {
  const fromPage = request.headers.get(CONSOLE_REQUEST_HEADER) === "1" && request.headers.get("sec-fetch-site") === "same-origin";
  return fromPage ? button : `${request.method} ${new URL(request.url).pathname}`;
}
