// GET /api/call/{method}/all - Every page of a cursor-paginated method, walked on the server and streamed as NDJSON
import { streamAllPages } from "@/lib/explorer/fetch-all";
import { parseFetchAllQuery } from "@/lib/explorer/fetch-all-query";
import { AppError, getCookieJar, handleRoute, isAppError, runWithCookieJar } from "@/lib/http";
import { isValidMethodName } from "@/lib/platform";
import { callAsInstallation } from "@/lib/session";
import { settleTokenForWalk } from "@/lib/explorer/walk-session";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (request, { params }) => {
    const { method } = await params;
    if (typeof method !== "string" || !isValidMethodName(method)) {
      throw new AppError("invalid_method", 400, "A method name may only contain letters, digits and dots.");
    }
    const query = parseFetchAllQuery(new URL(request.url).searchParams);
    // Pages after the first are fetched while the body streams, outside this handler's async context:
    // they read the installation from this request's cookies all the same.
    const jar = await getCookieJar();
    await settleTokenForWalk(query.installationId, query.tokenKind);
    return streamAllPages({
      params: query.params,
      maxPages: query.maxPages,
      // The browser going away (Cancel, a closed tab) aborts this signal and so the walk.
      signal: request.signal,
      call: (pageParams, signal) =>
        runWithCookieJar(jar, () =>
          callAsInstallation({ installationId: query.installationId, tokenKind: query.tokenKind, method, params: pageParams, httpMethod: "GET", signal }),
        ),
      describeError: (error) =>
        isAppError(error) ? { error: error.code, message: error.message } : { error: "internal_error", message: "The walk failed on the server." },
    });
  },
  // A method called through GET can still change state: only the console's own pages may start a walk.
  { rejectCrossSite: true },
);
