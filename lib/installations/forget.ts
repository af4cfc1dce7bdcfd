import "server-only";
import { requireManager } from "@/lib/access/viewer";
import { removeInstallation, requireInstallation } from "./store";

/** DELETE /api/installations/{id}: forgets the installation in the store, for every browser; nothing changes upstream. */
export async function forgetSessionInstallation(installationId: string): Promise<void> {
  await requireManager(await requireInstallation(installationId, { fresh: true }), "forget it");
  await removeInstallation(installationId);
}
