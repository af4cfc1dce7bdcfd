import "server-only";
import { getConfig } from "@/lib/config";
import { EMULATOR_MOUNT_PATH, isAdminPath } from "@/lib/emulator";
import { AppError, isAppError } from "@/lib/http/app-error";
import { RequestCookieJar, runWithCookieJar } from "@/lib/http/cookie-jar";
import { toErrorResponse } from "@/lib/http/error-response";
import { signedInViewer } from "./viewer";

/**
 * Who may use the embedded emulator's admin surface ({console}/emulator/admin/…) when people sign in. The
 * surface reads the apps' secrets, issues configuration tokens, acts as any member, injects faults, moves the
 * clock and resets: an admin's, as the console's own routes over it are (lib/workspace-page/service.ts,
 * lib/platform-clock). The emulator knows nothing of the console's sessions (lib/emulator imports nothing of
 * it), and its own guard judges only where a request comes from: on a loopback console, a member, a person not
 * signed in, or anyone whose request a proxy on this machine forwards passed it. So the console asks first,
 * here, before the route hands the request on (app/emulator/[[...path]]/route.ts):
 * - no sign-in (AUTH_MODE=none): the developer's own console, the emulator's guard alone, as before;
 * - a request with an Authorization header: the emulator judges it (the admin token, or 401 invalid_admin_token);
 * - otherwise a signed-in admin (ADMIN_USERS), else 401 sign_in_required or 403 emulator_admin_only. An admin's
 *   request still passes the emulator's guard after this (its Origin and Host, and the token only when exposed).
 * Undefined: let the request through.
 */
export async function emulatorAdminRefusal(request: Request): Promise<Response | undefined> {
  const { auth, upstream } = getConfig();
  if (auth.mode !== "oidc" || upstream.kind !== "emulator") return undefined;
  // The emulator's own reading of the path (empty segments skipped), so that no spelling of it escapes this check.
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith(`${EMULATOR_MOUNT_PATH}/`) || !isAdminPath(pathname.slice(EMULATOR_MOUNT_PATH.length))) return undefined;
  if (request.headers.has("authorization")) return undefined;
  const jar = new RequestCookieJar(request);
  try {
    const viewer = await runWithCookieJar(jar, () => signedInViewer());
    if (!viewer) throw new AppError("sign_in_required", { message: SIGN_IN_FIRST });
    if (!viewer.admin) throw new AppError("emulator_admin_only");
    return undefined;
  } catch (error) {
    // A refusal, or the store unable to say whether the person signed out (503): never a guess.
    if (isAppError(error)) return jar.applyTo(toErrorResponse(error));
    throw error;
  }
}

const SIGN_IN_FIRST =
  "Sign in first: when people sign in to this console, the embedded emulator's admin surface answers a signed-in admin (ADMIN_USERS), or a script sending Authorization: Bearer <EMULATOR_ADMIN_TOKEN>.";
