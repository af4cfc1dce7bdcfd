import type { AppKey } from "@/lib/session/installation";

/**
 * How every page names an installation: its workspace, and which app when it is not the console's own.
 * The same workspace can hold the console's app and the emulator's legacy app side by side, and their
 * scopes, webhooks and mentions must not look alike.
 */
export function installationName(team: { id: string; name: string }, appKey: AppKey): string {
  return `${team.name || team.id}${appKey === "emulator-legacy" ? " · legacy app" : ""}`;
}
