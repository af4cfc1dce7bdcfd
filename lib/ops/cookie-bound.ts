/**
 * How many cookies a request may carry. This console sets fewer than ten (its session, the sign-in and its
 * pending flows, the install and settings flows' short-lived ones), so a browser never comes near 100 with them;
 * the rest of the room is for other applications' cookies on the same host name (every port of localhost
 * shares them). Past it the Node server answers 431 before Next.js parses a cookie: Next.js's cookie handling in
 * route handlers grows with the square of the count of distinct names (2,000 empty cookies, 8 KB, cost 1.3 s of
 * CPU a request; 400, about 0.1 s; 100, about a millisecond), so a few connections could otherwise stall every
 * other request. A browser keeps at most 180 per site (Chromium, Firefox): 200 would still cost about 12 ms
 * (docs/benchmarks.md, "Hostile cases").
 */
export const MAX_COOKIES = 100;

/**
 * The cookies a Cookie header carries, counted by their separators in one pass over it (Node joins repeated
 * Cookie headers with "; "): an upper bound, since an empty pair counts too.
 */
export function countCookies(header: string | undefined): number {
  if (!header) return 0;
  let count = 1;
  for (let at = header.indexOf(";"); at !== -1; at = header.indexOf(";", at + 1)) count++;
  return count;
}
