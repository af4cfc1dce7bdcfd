import "server-only";
import { getSessionInstallations, needsProactiveRefresh, refreshSessionToken, type TokenKind } from "@/lib/session";

/**
 * A walk streams its pages after the response headers are sent, so a token refreshed mid-walk could not be
 * written back to the session cookie. Before a walk starts, a token that would enter the refresh window
 * within this margin is refreshed (and saved) up front; a walk that outlasts even that ends with a
 * "resume" line instead, and the browser continues it in a new request (see walkAllPages).
 */
export const WALK_TOKEN_MARGIN_S = 30 * 60;

export async function settleTokenForWalk(installationId: string, kind: TokenKind, nowMs = Date.now()): Promise<void> {
  const installation = (await getSessionInstallations()).find((i) => i.id === installationId);
  const token = installation?.[kind];
  if (token && needsProactiveRefresh(token, nowMs, WALK_TOKEN_MARGIN_S)) await refreshSessionToken(installationId, kind);
}
