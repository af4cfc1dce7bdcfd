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
 *
 * This file says who a viewer is and whether they are an admin, a leaf every floor may use (lib/access
 * resolves the viewer from the request, once, and hands it down); what they may see and do of an
 * installation is lib/installations/universal/rights.ts.
 */

export type Viewer =
  | { kind: "operator"; admin: true }
  | {
      kind: "member";
      userId: string;
      teamId: string;
      enterpriseId?: string;
      name: string;
      /** Listed in ADMIN_USERS. */
      admin: boolean;
    };

export const OPERATOR: Viewer = { kind: "operator", admin: true };

/** Sees and does everything: the operator of a console without sign-in, or an admin. */
export function isAdmin(viewer: Viewer): boolean {
  return viewer.admin;
}
