import { NextResponse, type NextRequest } from "next/server";
import { signInGate } from "@/lib/signin/gate";

/**
 * The one place every page and API route passes through: with AUTH_MODE=oidc nothing of the console
 * answers before a sign-in (lib/signin/gate.ts says what stays open). The sign-in is the sealed cookie
 * itself, with nothing to look up, so checking it here is the whole check, not an optimistic one.
 */
export async function proxy(request: NextRequest) {
  return (await signInGate(request)) ?? NextResponse.next();
}

export const config = {
  // Next.js's own assets and the embedded emulator never need a sign-in: the proxy does not run for them.
  matcher: ["/((?!_next/static|_next/image|emulator(?:/|$)|icon\\.svg$|favicon\\.ico$).*)"],
};
