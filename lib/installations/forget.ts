import "server-only";
import { requireManager } from "@/lib/access/viewer";
import { AppError } from "@/lib/http/app-error";
import { UnreadableSecretError } from "@/lib/store";
import { listVisibleSummaries, removeInstallation, requireInstallation } from "./store";

/** DELETE /api/installations/{id}: forgets the installation in the store, for every browser; nothing changes upstream. */
export async function forgetSessionInstallation(installationId: string): Promise<void> {
  const installation = await requireInstallation(installationId, { fresh: true }).catch(async (error: unknown) => {
    // One whose secrets this server cannot open (unreadable.ts) is judged by what the store knows of it without them.
    if (!(error instanceof UnreadableSecretError)) throw error;
    const summary = (await listVisibleSummaries()).find((s) => s.id === installationId);
    if (!summary) throw new AppError("unknown_installation");
    return summary;
  });
  await requireManager(installation, "forget it");
  await removeInstallation(installationId);
}
