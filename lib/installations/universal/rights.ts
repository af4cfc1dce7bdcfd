import type { Viewer } from "@/lib/viewer";

/**
 * What a viewer (lib/viewer.ts: who they are, whether an admin) may see and do of an installation.
 * Browser-safe: the dashboard asks the same questions to offer only what a person may do; the server asks
 * them again before it acts (visibility.ts).
 */

/** What the rights of an installation are read from. */
export interface InstallationAccessFacts {
  team: { id: string };
  enterprise?: { id: string } | null;
  /** Installed for the whole organisation (`enterprise`): its members see it from any of its workspaces. */
  isEnterpriseInstall?: boolean | null;
  /** The platform user who first installed it (oauth.v2.access's authed_user), kept across reinstalls. */
  installedBy?: string | null;
  /** The platform user of the latest install or exchange. */
  authedUserId?: string | null;
}

/**
 * A member sees the installations of the workspace they signed in to, and an organisation-wide install
 * (is_enterprise_install) of their organisation. Not a workspace-level install in another workspace of their
 * organisation: on Enterprise Grid the platform names the organisation in those too, so the organisation
 * alone would show one workspace's installation to every other.
 */
export function canSee(viewer: Viewer, installation: InstallationAccessFacts): boolean {
  if (viewer.admin || viewer.kind !== "member") return true;
  if (installation.isEnterpriseInstall) return viewer.enterpriseId !== undefined && installation.enterprise?.id === viewer.enterpriseId;
  return installation.team.id === viewer.teamId;
}

/** The member who installed it (the first installer, or whoever installed it last), within a workspace they see. */
export function installedByViewer(viewer: Viewer, installation: InstallationAccessFacts): boolean {
  if (viewer.kind !== "member" || !canSee(viewer, installation)) return false;
  return installation.installedBy === viewer.userId || installation.authedUserId === viewer.userId;
}

/** Revoke, uninstall, forget, exchange, and the app's settings: admins and the member who installed. */
export function canManage(viewer: Viewer, installation: InstallationAccessFacts): boolean {
  return viewer.admin || installedByViewer(viewer, installation);
}
