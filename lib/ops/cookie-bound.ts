/**
 * How many cookies a request may carry. Chromium and Firefox keep at most 180 cookies per site, and this
 * console sets a handful (the session, the sign-in and its pending flows, the embedded emulator's sign-in), so
 * a browser never sends more than 200; a client that does is not a browser. Past it the Node server answers
 * 431 before Next.js parses a cookie: Next.js's cookie handling in route handlers grows with the square of the
 * count (2,000 empty cookies, 8 KB, cost 1.3 s of CPU a request), so a few connections could stall every
 * other request.
 */
export const MAX_COOKIES = 200;

/**
 * The cookies a Cookie header carries, counted by their separators in one pass over it (Node joins repeated
 * Cookie headers with "; "): an upper bound, since an empty pair counts too, which is what costs Next.js.
 */
export function countCookies(header: string | undefined): number {
  if (!header) return 0;
  let count = 1;
  for (let at = header.indexOf(";"); at !== -1; at = header.indexOf(";", at + 1)) count++;
  return count;
}
