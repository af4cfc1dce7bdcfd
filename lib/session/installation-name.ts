import type { AppKey } from "@/lib/session/installation";

/** What names an installation's app: its name when the upstream tells it (the emulator's manifest), else its id. */
export interface NamedApp {
  key: AppKey;
  id: string | null;
  name: string | null;
}

/**
 * How every page names an installation: the app and the workspace, "Switchboard Rotation in Emulated
 * Workspace 2". One workspace can hold several apps side by side (the console's and the emulator's legacy
 * app, or apps of your own), and their tokens, scopes, webhooks and mentions must not look alike. The app's
 * name comes from the emulator's manifest; against the real platform, which tells a token's holder no app
 * name, its app id ("A0123ABCD in Acme"). Given only an app key (an older caller), the workspace is named
 * with "· legacy app" for the emulator's legacy app, as before.
 */
export function installationName(team: { id: string; name: string }, app: AppKey | NamedApp): string {
  const workspace = team.name || team.id;
  if (typeof app === "string") return `${workspace}${app === "emulator-legacy" ? " · legacy app" : ""}`;
  const appLabel = app.name || app.id || (app.key === "emulator-legacy" ? "The emulator's legacy app" : "The console's app");
  return `${appLabel} in ${workspace}`;
}
