import "server-only";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/http/app-error";
import { readSignedInPerson } from "@/lib/signin/signed-in-cookie";
import { EVERY_OWNER, type OwnerFilter } from "@/lib/store";
import { OPERATOR, type Viewer } from "@/lib/viewer";

/**
 * Who this request is (lib/viewer.ts says who a viewer is; lib/installations/universal/rights.ts what they may do): the operator without sign-in, else the person of the
 * browser's sealed sign-in cookie, or null when sign-in is on and nobody is signed in (an open route: the
 * install flow). Read once per request, by the route wrapper (handle-route.ts) or a page, and handed down:
 * nothing below reads the request to learn who asks.
 */
export async function signedInViewer(): Promise<Viewer | null> {
  const { auth } = getConfig();
  if (auth.mode !== "oidc") return OPERATOR;
  const person = await readSignedInPerson();
  if (!person) return null;
  return {
    kind: "member",
    userId: person.userId,
    teamId: person.teamId,
    ...(person.enterpriseId ? { enterpriseId: person.enterpriseId } : {}),
    name: person.name,
    admin: auth.adminUsers.includes(person.userId),
  };
}

/**
 * Who this request is, for a page: the sign-in gate (proxy.ts) has already turned away a request without a
 * sign-in, so none here means a page that is open: 401 all the same.
 */
export async function currentViewer(): Promise<Viewer> {
  const viewer = await signedInViewer();
  if (!viewer) throw new AppError("sign_in_required");
  return viewer;
}

/**
 * Whose pasted webhooks, send history and app configuration token the viewer's are: a signed-in member's
 * (their workspace and user ids), or null, the operator of a console without sign-in.
 */
export function ownerOf(viewer: Viewer): string | null {
  return viewer.kind === "member" ? `${viewer.teamId}:${viewer.userId}` : null;
}

/** What the viewer may read, send through and remove of what people pasted: their own, an admin everyone's. */
export function readableOwners(viewer: Viewer): OwnerFilter {
  if (viewer.kind !== "member") return null;
  return viewer.admin ? EVERY_OWNER : `${viewer.teamId}:${viewer.userId}`;
}

/** Throws 403 not_allowed unless the viewer is an admin (or the operator of a console without sign-in). */
export function requireAdmin(viewer: Viewer, action: string): void {
  if (!viewer.admin) throw new AppError("not_allowed", { message: `Only an admin may ${action}.` });
}
