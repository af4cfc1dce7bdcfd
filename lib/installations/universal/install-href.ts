import type { AppKey } from "./view";

/**
 * The "Add to workspace" link (GET /oauth/install) that installs `installation`'s app again into its workspace
 * (preselected on the consent page: an admin reinstalls another team's installation, not one in their own
 * workspace); with `scopes`, asking for them (a manifest update or a missing scope changes what the app may
 * ask for, and an installation only gets new scopes through a new install). A legacy installation keeps
 * `app=legacy`: a reinstall through the console app would create a second record rather than repair this one.
 */
export function reinstallHref(
  installation: { app: { key: AppKey }; team?: { id: string } | null },
  scopes?: readonly string[],
  userScopes?: readonly string[],
): string {
  const query = new URLSearchParams();
  if (installation.app.key === "legacy") query.set("app", "legacy");
  if (scopes !== undefined) {
    query.set("scope", [...new Set(scopes)].join(","));
    if (userScopes !== undefined) query.set("user_scope", [...new Set(userScopes)].join(","));
  }
  if (installation.team) query.set("team", installation.team.id);
  const search = query.toString();
  return search ? `/oauth/install?${search}` : "/oauth/install";
}
