import "server-only";
import { toInstallationView, type InstallationRecord } from "./record";
import { listVisibleInstallations } from "./store";
import type { InstallationView } from "./universal/view";

/**
 * The live installations this request's person may see (lib/access), tokens included, without their timelines (an uninstalled one, kept for
 * its timeline, is not among them). Server-only: hand the browser toInstallationView().
 */
export async function getSessionInstallations(): Promise<InstallationRecord[]> {
  return (await listVisibleInstallations()).filter((i) => !i.uninstalledAt);
}

/** Their views, for pages that show what an installation holds (not its timeline: GET /api/session carries that). */
export async function getSessionInstallationViews(): Promise<InstallationView[]> {
  return (await getSessionInstallations()).map(toInstallationView);
}
