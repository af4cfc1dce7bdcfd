import type { InstallationView } from "@/lib/installations/universal/view";

/**
 * The "Add to workspace" link that installs `installation`'s app again. A legacy installation keeps
 * `app=legacy`: a reinstall through the console app would create a second record rather than repair this one.
 */
export function reinstallHref(installation: Pick<InstallationView, "app" | "team">, scopes?: readonly string[], userScopes?: readonly string[]): string {
  const query = new URLSearchParams();
  if (installation.app.key === "legacy") query.set("app", "legacy");
  if (scopes !== undefined) {
    query.set("scope", [...new Set(scopes)].join(","));
    if (userScopes !== undefined) query.set("user_scope", [...new Set(userScopes)].join(","));
    query.set("team", installation.team.id);
  }
  const search = query.toString();
  return search ? `/oauth/install?${search}` : "/oauth/install";
}
