import "server-only";
import type { Viewer } from "@/lib/viewer";
import { getCookieJar, isAppError, runWithCookieJar } from "@/lib/http";
import { assertValidMethodName } from "@/lib/platform";
import { callAsInstallation } from "@/lib/installations/actions/call-as-installation";
import { refreshSessionToken } from "@/lib/installations/actions/refresh-token";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import { needsProactiveRefresh } from "@/lib/installations/rotation/freshness";
import type { InstallationRecord } from "@/lib/installations/record";
import { requireInstallation } from "@/lib/installations/visibility";
import { requireCallableInstallation } from "./call-rights";
import { type TokenKind } from "@/lib/installations/universal/token-kind";
import { streamAllPages } from "./fetch-all";
import type { WalkQuery } from "./call-query";
import { getWalkLimits } from "./walk-limits";
import { WalkHistory } from "./walk-history";
import { keepHistoryWrite } from "./call-history";

/**
 * A walk streams its pages after the response headers are sent, so a token refreshed mid-walk could not be
 * written back to the session cookie. Before a walk starts, a token that would enter the refresh window
 * within this margin is refreshed (and saved) up front; a walk that outlasts even that ends with a
 * "resume" line instead, and the browser continues it in a new request (see walkAllPages).
 */
const WALK_TOKEN_MARGIN_S = 30 * 60;

/** `nowMs` is the platform's time (the session runtime's clock), which token expiry follows. */
export async function settleTokenForWalk(viewer: Viewer, installation: InstallationRecord, kind: TokenKind, nowMs = getRotationRuntime().now()): Promise<void> {
  const token = installation[kind];
  if (token && needsProactiveRefresh(token, nowMs, WALK_TOKEN_MARGIN_S)) await refreshSessionToken({ viewer, installationId: installation.id, kind });
}

/**
 * GET /api/call/{method}/all: every page of `method` walked with the session's token and streamed as
 * NDJSON. The token is settled first, so a refresh is saved before the body starts; the browser going
 * away (Cancel, a closed tab) aborts `signal` and so the walk. A walk holds one of its session's and the
 * process's places (walk-limits.ts) until its stream ends, or answers 429 too_many_walks.
 */
export async function streamSessionWalk(viewer: Viewer, method: string, query: WalkQuery, signal: AbortSignal): Promise<Response> {
  assertValidMethodName(method);
  // Pages after the first are fetched while the body streams, outside the route's async context: they
  // read the installation from this request's cookies all the same.
  const jar = await getCookieJar();
  // Installations now belong to the console, not to a browser, so no browser holds a set of its own to be
  // counted by: the walks are counted per installation walked (and for the whole process).
  // Who may walk with which token first (a foreign or unknown id answers 404 before it takes a walk's place).
  // An unknown (or malformed) id answers 404 here, before the stream starts, as /api/call answers it.
  const installation = await requireCallableInstallation(viewer, query.installationId, query.tokenKind, method);
  const release = getWalkLimits().admit(`installation:${query.installationId}`);
  const history = new WalkHistory(
    {
      viewer,
      method,
      installationId: query.installationId,
      tokenKind: query.tokenKind,
      httpMethod: "GET",
      encoding: "form",
      args: { ...query.params, max_pages: String(query.maxPages) },
      dropped: query.dropped,
      ...(query.savedRequestId ? { savedRequestId: query.savedRequestId } : {}),
    },
    Date.now(),
  );
  try {
    await settleTokenForWalk(viewer, installation, query.tokenKind);
    return await streamAllPages({
      params: query.params,
      maxPages: query.maxPages,
      signal,
      observe: (step) => history.observe(step),
      onClose: () => {
        release();
        // Once the walk is over, whichever way it ended (recordHistory logs rather than throws); kept pending
        // so that the person's next read and a graceful shutdown wait for it.
        keepHistoryWrite(viewer, history.finish(Date.now()));
      },
      call: (pageParams, pageSignal) =>
        runWithCookieJar(jar, async () =>
          callAsInstallation({
            viewer,
            // Read again for each page: a page may follow a refresh another request made.
            installation: await requireInstallation(viewer, query.installationId),
            tokenKind: query.tokenKind,
            method,
            params: pageParams,
            httpMethod: "GET",
            signal: pageSignal,
          }),
        ),
      describeError: (error) =>
        isAppError(error) ? { error: error.code, message: error.message } : { error: "internal_error", message: "The walk failed on the server." },
    });
  } catch (error) {
    release();
    // A walk refused before its first page (the platform unreachable, a token that would not refresh) is kept as failed.
    keepHistoryWrite(viewer, history.finish(Date.now(), isAppError(error) ? error.code : "internal_error"));
    throw error;
  }
}
