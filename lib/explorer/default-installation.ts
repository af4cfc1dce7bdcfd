import { installationPhase, type InstallationView } from "@/lib/installations/universal/view";

/**
 * The installation the explorer calls with when the page names none it knows: the first that works. One
 * that needs reinstalling (or was uninstalled) answers every call with an error, so it is chosen only when
 * there is no other.
 */
export function defaultInstallation<T extends Pick<InstallationView, "state" | "uninstalledAt">>(installations: readonly T[]): T | undefined {
  return installations.find((installation) => installationPhase(installation) === "active") ?? installations[0];
}
