import "server-only";
import { getConfig } from "@/lib/config";
import { AppError, createRouteWrapper } from "@/lib/http";
import { isOpenPath } from "@/lib/signin/open-paths";
import { readSignedInPerson } from "@/lib/signin/signed-in-cookie";

/**
 * The sign-in gate of the console's API (pages pass proxy.ts's): with AUTH_MODE=oidc, a route that is not
 * open (lib/signin/open-paths.ts) answers 401 sign_in_required to a browser whose sign-in cookie does not
 * unseal (the cookie jar clears a tampered one). Here rather than in proxy.ts, which every API request would
 * then pass through as well: a Next.js proxy costs about a millisecond a request (docs/benchmarks.md,
 * section a).
 */
async function requireSignIn(request: Request): Promise<void> {
  if (getConfig().auth.mode !== "oidc" || isOpenPath(new URL(request.url).pathname)) return;
  if (!(await readSignedInPerson())) throw new AppError("sign_in_required");
}

/** The console's route wrapper: lib/http's checks, the error mapper and the cookie jar, behind the sign-in gate. */
export const handleRoute = createRouteWrapper(requireSignIn);
