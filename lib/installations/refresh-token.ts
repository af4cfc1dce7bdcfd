import "server-only";
import { needsReinstallError, refreshInstallationToken, withFailedRefresh } from "@/lib/rotation/freshness";
import { getRotationRuntime } from "@/lib/rotation/runtime";
import { toInstallationView } from "./record";
import { persistIfChanged } from "./save";
import { requireInstallation, withTimeline } from "./store";
import type { TokenKind } from "./universal/token-kind";
import type { InstallationView } from "./universal/view";

/**
 * POST /api/tokens/refresh: a refresh now, whatever the expiry (still single-flight). The new access
 * token also replaces one revoked from the console. A failure goes into the timeline before it answers.
 */
export async function refreshSessionToken(installationId: string, kind: TokenKind, by = "a refresh request"): Promise<InstallationView> {
  const installation = await requireInstallation(installationId);
  const persist = persistIfChanged(installation);
  const runtime = getRotationRuntime();
  if (installation.state === "needs_reinstall") throw needsReinstallError(installation);
  let outcome: Awaited<ReturnType<typeof refreshInstallationToken>>;
  try {
    outcome = await refreshInstallationToken(installation, kind, runtime, { reason: "requested", by });
  } catch (error) {
    await persist(withFailedRefresh(installation, kind, error, by, runtime.now())).catch(() => {});
    throw error;
  }
  await persist(outcome.installation);
  if (outcome.outcome === "needs_reinstall") throw outcome.error;
  return toInstallationView(await withTimeline(outcome.installation));
}
