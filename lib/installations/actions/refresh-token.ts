import "server-only";
import type { Viewer } from "@/lib/viewer";
import { toInstallationView } from "../record";
import { persistIfChanged, withTimeline } from "../repository";
import { withFailedRefresh } from "../rotation/freshness";
import { refreshInstallationToken, type RefreshOutcome } from "../rotation/refresh";
import { needsReinstallError } from "../rotation/refresh-errors";
import { getRotationRuntime } from "../rotation/runtime";
import { requireInstallation } from "../visibility";
import { personOf } from "../who-did-it";
import type { TokenKind } from "../universal/token-kind";
import type { InstallationView } from "../universal/view";

/**
 * POST /api/tokens/refresh: a refresh now, whatever the expiry (still single-flight). The new access
 * token also replaces one revoked from the console. A failure goes into the timeline before it answers.
 */
export async function refreshSessionToken({
  viewer,
  installationId,
  kind,
  by = "a refresh request",
}: {
  viewer: Viewer;
  installationId: string;
  kind: TokenKind;
  by?: string;
}): Promise<InstallationView> {
  const installation = await requireInstallation(viewer, installationId);
  const who = personOf(viewer);
  const persist = persistIfChanged(installation, who);
  const runtime = getRotationRuntime();
  if (installation.state === "needs_reinstall") throw needsReinstallError(installation);
  let outcome: RefreshOutcome;
  try {
    outcome = await refreshInstallationToken(installation, kind, runtime, { reason: "requested", by, ...(who ? { who } : {}) });
  } catch (error) {
    await persist(withFailedRefresh(installation, kind, error, by, runtime.now())).catch(() => {});
    throw error;
  }
  await persist(outcome.installation);
  if (outcome.outcome === "needs_reinstall") throw outcome.error;
  return toInstallationView(await withTimeline(outcome.installation));
}
