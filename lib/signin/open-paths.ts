/**
 * What answers without a sign-in, even with AUTH_MODE=oidc: the install flow (people outside the team add
 * the app through it), the sign-in itself (the console's sign-in page and /auth/*), the platform's signed Events API requests, the liveness check,
 * and the embedded emulator (the platform's own pages and API; its admin surface has its own guard, and with
 * sign-in the console's admin check before it: lib/access/emulator-admin-gate.ts).
 * Read by the pages' gate (gate.ts, run by proxy.ts) and the API's (lib/access/handle-route.ts).
 */
const OPEN_PATHS: RegExp[] = [
  /^\/oauth\/(install|callback|installed)\/?$/,
  /^\/auth(\/|$)/,
  /^\/signin\/?$/,
  /^\/api\/events\/?$/,
  /^\/api\/(health|ready|metrics)\/?$/,
  /^\/api\/v1\/installations\/[^/]+\/token(\/report)?\/?$/,
  /^\/emulator(\/|$)/,
];

export function isOpenPath(pathname: string): boolean {
  return OPEN_PATHS.some((open) => open.test(pathname));
}
