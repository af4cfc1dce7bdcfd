import "server-only";
import type { Viewer } from "@/lib/viewer";
import { AppError } from "@/lib/http/app-error";
import { UnreadableSecretError } from "@/lib/store";
import { removeInstallation } from "../repository";
import { findVisibleSummary, requireInstallation, requireManager } from "../visibility";

/** DELETE /api/installations/{id}: forgets the installation in the store, for every browser; nothing changes upstream. */
export async function forgetSessionInstallation({ viewer, installationId }: { viewer: Viewer; installationId: string }): Promise<void> {
  const installation = await requireInstallation(viewer, installationId, { fresh: true }).catch(async (error: unknown) => {
    // One whose secrets this server cannot open (unreadable.ts) is judged by what the store knows of it without them.
    if (!(error instanceof UnreadableSecretError)) throw error;
    const summary = await findVisibleSummary(viewer, installationId);
    if (!summary) throw new AppError("unknown_installation");
    return summary;
  });
  requireManager(viewer, installation, "forget it");
  await removeInstallation(installationId);
}
