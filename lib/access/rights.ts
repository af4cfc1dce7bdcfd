/**
 * Who sees and does what (browser-safe: the dashboard asks the same questions to offer only what a person
 * may do; the server asks them again before it acts).
 *
 * - Without sign-in (AUTH_MODE=none, a console on the developer's own machine) the person at it is the
 *   operator, who sees and does everything.
 * - Signed in, a member sees the installations of the workspace they signed in to (the sign-in's team_id),
 *   and the organisation-wide installs of their organisation (its enterprise_id). `ADMIN_USERS` see every one.
 * - Members may look, test, call methods (with the bot token, and with their own user token) and refresh.
 *   Revoking, uninstalling, forgetting and exchanging (and the methods that do it) are for admins and for
 *   the member who installed. An app's settings and the emulator's clock (every workspace's at once) are
 *   for admins. User tokens belong to people (lib/installations/user-tokens.ts).
 */

export type Viewer =
  | { kind: "operator" }
  | {
      kind: "member";
      userId: string;
      teamId: string;
      enterpriseId?: string;
      name: string;
      /** Listed in ADMIN_USERS. */
      admin: boolean;
    };

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

export const OPERATOR: Viewer = { kind: "operator" };

/** Sees and does everything: the operator of a console without sign-in, or an admin. */
export function isAdmin(viewer: Viewer): boolean {
  return viewer.kind === "operator" || viewer.admin;
}

/**
 * A member sees the installations of the workspace they signed in to, and an organisation-wide install
 * (is_enterprise_install) of their organisation. Not a workspace-level install in another workspace of their
 * organisation: on Enterprise Grid the platform names the organisation in those too, so the organisation
 * alone would show one workspace's installation to every other.
 */
export function canSee(viewer: Viewer, installation: InstallationAccessFacts): boolean {
  if (isAdmin(viewer) || viewer.kind !== "member") return true;
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
  return isAdmin(viewer) || installedByViewer(viewer, installation);
}
