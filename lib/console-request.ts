/**
 * The header the console's own pages send with every request to its API. A page on another site cannot
 * add a custom header to a request without a CORS preflight, which the console never grants, so for a
 * browser that sends neither Origin nor Sec-Fetch-Site (older browsers, scripts) it shows the request did
 * not come from a link or a form on someone else's page.
 */
export const CONSOLE_REQUEST_HEADER = "x-switchboard-request";
