import { NextResponse, type NextRequest } from "next/server";
import { hostRefusal } from "@/lib/http/host-check";
import { refusalResponse } from "@/lib/http/refusal";
import { signInGate } from "@/lib/signin/gate";

/**
 * The one place every page passes through. First the Host: a page answers only the names the console is
 * reached at, so a site whose name was made to resolve to this server (DNS rebinding) reads no page of it
 * (lib/http/host-check.ts; the API's routes check the same in lib/http/handle-route.ts). Then, with
 * AUTH_MODE=oidc, no page of the console answers before a sign-in (lib/signin/open-paths.ts says what stays
 * open). The sign-in is the sealed cookie and the person's sign-out count (lib/signin/signed-in-cookie.ts,
 * from a per-process cache), so checking it here is the whole check, not an optimistic one. The API's routes
 * are not matched: each passes the same checks in lib/access/handle-route.ts, which spares them the proxy's
 * millisecond (every /api/call would pay it).
 */
export async function proxy(request: NextRequest) {
  const refusedHost = hostRefusal(request);
  if (refusedHost) return refusalResponse(request, refusedHost);
  return (await signInGate(request)) ?? NextResponse.next();
}

export const config = {
  // Next.js's own assets and the embedded emulator never need a sign-in, and the API checks it in its routes:
  // the proxy does not run for them. (Built assets carry nothing of the console's data; the emulator's pages
  // and admin surface keep their own Host rules.)
  matcher: ["/((?!api(?:/|$)|_next/static|_next/image|emulator(?:/|$)|icon\\.svg$|favicon\\.ico$).*)"],
};
