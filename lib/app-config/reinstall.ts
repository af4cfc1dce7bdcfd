import type { AppKey } from "@/lib/installations/universal/view";

/**
 * "Add to workspace" again with the scopes the manifest now declares (GET /oauth/install): a manifest update
 * changes what the app may ask for, and an installation only gets new scopes through a new install. The
 * emulator's legacy app keeps `app=legacy`, so the reinstall repairs that installation rather than adding
 * one of the console's app; `team` preselects the installation's workspace on the consent page.
 */
export function reinstallHref(appKey: AppKey, teamId: string | null, bot: readonly string[], user: readonly string[]): string {
  const query = new URLSearchParams();
  if (appKey === "legacy") query.set("app", appKey);
  query.set("scope", [...new Set(bot)].join(","));
  query.set("user_scope", [...new Set(user)].join(","));
  if (teamId) query.set("team", teamId);
  return `/oauth/install?${query.toString()}`;
}
