import "server-only";
import { toInstallationView, type InstallationRecord } from "../record";
import type { Viewer } from "@/lib/viewer";
import { listVisibleInstallations } from "../visibility";
import type { InstallationView } from "../universal/view";

/**
 * The live installations the viewer may see (visibility.ts), tokens included, without their timelines (an uninstalled one, kept for
 * its timeline, is not among them). Server-only: hand the browser toInstallationView().
 */
export async function getSessionInstallations({ viewer }: { viewer: Viewer }): Promise<InstallationRecord[]> {
  return (await listVisibleInstallations(viewer)).filter((i) => !i.uninstalledAt);
}

/** Their views, for pages that show what an installation holds (not its timeline: GET /api/session carries that). */
export async function getSessionInstallationViews({ viewer }: { viewer: Viewer }): Promise<InstallationView[]> {
  return (await getSessionInstallations({ viewer })).map(toInstallationView);
}
