import "server-only";
import { AppError, createRouteWrapper } from "@/lib/http";
import type { RouteContext, RouteOptions } from "@/lib/http/handle-route";
import { importLegacyCookies } from "@/lib/installations/legacy-cookies";
import { isOpenPath } from "@/lib/signin/open-paths";
import type { Viewer } from "@/lib/viewer";
import { signedInViewer } from "./viewer";

/**
 * The sign-in gate of the console's API (pages pass proxy.ts's), which also says who asks, once per request:
 * with AUTH_MODE=oidc, a route that is not open (lib/signin/open-paths.ts) answers 401 sign_in_required to a
 * browser whose sign-in cookie does not unseal (the cookie jar clears a tampered one). Here rather than in
 * proxy.ts, which every API request would then pass through as well: a Next.js proxy costs about a
 * millisecond a request (docs/benchmarks.md, section a).
 */
async function resolveViewer(request: Request): Promise<Viewer | null> {
  const viewer = await signedInViewer();
  if (!viewer && !isOpenPath(new URL(request.url).pathname)) throw new AppError("sign_in_required");
  return viewer;
}

const wrap = createRouteWrapper(resolveViewer);

/** A console route's handler: the request, its parameters, and who asks (lib/viewer.ts). */
export type ViewerHandler = (request: Request, context: RouteContext, viewer: Viewer) => Promise<Response> | Response;
/** An open route's handler (the install flow, the token API, probes): nobody may be signed in (null). */
export type OpenHandler = (request: Request, context: RouteContext, viewer: Viewer | null) => Promise<Response> | Response;

/**
 * Before any handler: installations that earlier versions sealed in this browser's cookies move into the
 * store (legacy-cookies.ts), so what the handler reads has them. One explicit step, after the wrapper's
 * checks (an Origin refused imports nothing).
 */
const withLegacyImport =
  <V>(handler: (request: Request, context: RouteContext, viewer: V) => Promise<Response> | Response) =>
  async (request: Request, context: RouteContext, viewer: V) => {
    await importLegacyCookies();
    return handler(request, context, viewer);
  };

/** The console's route wrapper: lib/http's checks, the error mapper and the cookie jar, behind the sign-in gate; the handler is handed who asks. */
export function handleRoute(handler: ViewerHandler, options?: RouteOptions) {
  return wrap(
    withLegacyImport((request, context, viewer: Viewer | null) => {
      if (!viewer) throw new AppError("sign_in_required");
      return handler(request, context, viewer);
    }),
    options,
  );
}

/** The wrapper of a route open without sign-in (lib/signin/open-paths.ts): the handler is handed who asks, if anyone. */
export function handleOpenRoute(handler: OpenHandler, options?: RouteOptions) {
  return wrap(withLegacyImport(handler), options);
}
