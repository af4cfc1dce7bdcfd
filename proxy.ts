import { NextResponse, type NextRequest } from "next/server";
import { signInGate } from "@/lib/signin/gate";

/**
 * The one place every page passes through: with AUTH_MODE=oidc no page of the console answers before a
 * sign-in (lib/signin/open-paths.ts says what stays open). The sign-in is the sealed cookie itself, with
 * nothing to look up, so checking it here is the whole check, not an optimistic one. The API's routes are
 * not matched: each passes the same check in lib/access/handle-route.ts, which spares them the proxy's
 * millisecond (every /api/call would pay it).
 */
export async function proxy(request: NextRequest) {
  return (await signInGate(request)) ?? NextResponse.next();
}

export const config = {
  // Next.js's own assets and the embedded emulator never need a sign-in, and the API checks it in its routes:
  // the proxy does not run for them.
  matcher: ["/((?!api(?:/|$)|_next/static|_next/image|emulator(?:/|$)|icon\\.svg$|favicon\\.ico$).*)"],
};
