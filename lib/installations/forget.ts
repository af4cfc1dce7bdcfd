import "server-only";
import { removeInstallation, requireInstallation } from "./store";

/** DELETE /api/installations/{id}: forgets the installation in the store, for every browser; nothing changes upstream. */
export async function forgetSessionInstallation(installationId: string): Promise<void> {
  await requireInstallation(installationId, { fresh: true });
  await removeInstallation(installationId);
}
