import "server-only";
import { toInstallationView, type InstallationRecord } from "./record";
import { listInstallations } from "./store";
import type { InstallationView } from "./view";

/**
 * This request's live installations, tokens included (an uninstalled one, kept for its timeline, is not
 * among them). Server-only: hand the browser toInstallationView().
 */
export async function getSessionInstallations(): Promise<InstallationRecord[]> {
  return (await listInstallations()).filter((i) => !i.uninstalledAt);
}

export async function getSessionInstallationViews(): Promise<InstallationView[]> {
  return (await getSessionInstallations()).map(toInstallationView);
}
