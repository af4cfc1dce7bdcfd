import "server-only";
import { getConfig } from "@/lib/config";
import { AppError, isAppError } from "@/lib/http/app-error";
import { RequestCookieJar, runWithCookieJar } from "@/lib/http/cookie-jar";
import { toErrorResponse } from "@/lib/http/error-response";
import { isOpenPath } from "./open-paths";
import { readSignedInPerson } from "./signed-in-cookie";

export { isOpenPath };

/** The console's sign-in page (app/signin/page.tsx); its "Sign in with …" begins the flow at /auth/signin. */
const SIGN_IN_PAGE = "/signin";

/**
 * The sign-in gate every request passes (proxy.ts): with AUTH_MODE=oidc, a request for anything but an open
 * path needs this browser's sign-in cookie to unseal. Without it, an API route answers 401 sign_in_required
 * and a page sends the browser to the console's sign-in page (/signin, which says what Switchboard is and
 * offers "Sign in with …"), to come back to the same page. Undefined: let the request through.
 * A cookie that does not unseal (tampered, a retired password, past its 12 hours) or that a sign-out ended is
 * cleared on the way.
 */
export async function signInGate(request: Request): Promise<Response | undefined> {
  if (getConfig().auth.mode !== "oidc") return undefined;
  const url = new URL(request.url);
  if (isOpenPath(url.pathname)) return undefined;
  const jar = new RequestCookieJar(request);
  let person;
  try {
    person = await runWithCookieJar(jar, () => readSignedInPerson());
  } catch (error) {
    // Whether the person signed out is the store's to say: while it cannot be reached, 503 rather than a guess.
    if (isAppError(error)) return jar.applyTo(toErrorResponse(error));
    throw error;
  }
  if (person) return undefined;
  if (url.pathname === "/api" || url.pathname.startsWith("/api/")) return jar.applyTo(toErrorResponse(new AppError("sign_in_required")));
  // Absolute, on the name the browser used (Next.js refuses a relative Location from the proxy): its cookies live there.
  const signIn = new URL(SIGN_IN_PAGE, url);
  const next = `${url.pathname}${url.search}`;
  if (next !== "/") signIn.searchParams.set("next", next);
  return jar.applyTo(new Response(null, { status: 307, headers: { location: signIn.toString(), "cache-control": "no-store" } }));
}
