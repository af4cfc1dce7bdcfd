import "server-only";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/http/app-error";
import { readSignedInPerson } from "@/lib/signin/signed-in-cookie";
import { EVERY_OWNER, type OwnerFilter } from "@/lib/store";
import { canManage, canSee, isAdmin, OPERATOR, type InstallationAccessFacts, type Viewer } from "./rights";

/**
 * Who this request is (lib/access/rights.ts says what they may do): the operator without sign-in, else the
 * person of the browser's sealed sign-in cookie. The sign-in gates (proxy.ts for pages, the API's route
 * wrapper lib/access/handle-route.ts) have already turned away a request without one, so none here means a
 * route that is open (the install flow): 401 all the same.
 */
export async function currentViewer(): Promise<Viewer> {
  const { auth } = getConfig();
  if (auth.mode !== "oidc") return OPERATOR;
  const person = await readSignedInPerson();
  if (!person) throw new AppError("sign_in_required");
  return {
    kind: "member",
    userId: person.userId,
    teamId: person.teamId,
    ...(person.enterpriseId ? { enterpriseId: person.enterpriseId } : {}),
    name: person.name,
    admin: auth.adminUsers.includes(person.userId),
  };
}

/** Who this request is, or null when sign-in is on and nobody is signed in (an open route: the install flow). */
export async function signedInViewer(): Promise<Viewer | null> {
  if (getConfig().auth.mode !== "oidc") return OPERATOR;
  return (await readSignedInPerson()) ? currentViewer() : null;
}

/**
 * A display name fit for the timeline: control and format characters (bidirectional overrides among them)
 * and lone surrogates made spaces, cut to 80 code points, never inside a surrogate pair (a lone surrogate
 * is not valid JSON text, which the store's jsonb refuses).
 */
export function timelineName(name: string): string {
  return Array.from(name.replace(/[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu, " ").trim())
    .slice(0, 80)
    .join("")
    .trim();
}

/**
 * The person a timeline entry this request writes names ("who did it"), or undefined: the operator of a
 * console without sign-in, a request nobody signed in to (the install flow), or work outside a request.
 */
export async function actingPerson(): Promise<{ id: string; name: string } | undefined> {
  try {
    const viewer = await signedInViewer();
    if (viewer?.kind !== "member") return undefined;
    const name = timelineName(viewer.name);
    return { id: viewer.userId, ...(name ? { name } : {}) } as { id: string; name: string };
  } catch {
    return undefined;
  }
}

/**
 * Whose pasted webhooks, send history and app configuration token this request's are: the signed-in
 * member's (their workspace and user ids), or null, the operator of a console without sign-in.
 */
export async function currentOwner(): Promise<string | null> {
  const viewer = await currentViewer();
  return viewer.kind === "member" ? `${viewer.teamId}:${viewer.userId}` : null;
}

/** What this request may read, send through and remove of what people pasted: their own, an admin everyone's. */
export async function readableOwners(): Promise<OwnerFilter> {
  const viewer = await currentViewer();
  if (viewer.kind !== "member") return null;
  return viewer.admin ? EVERY_OWNER : `${viewer.teamId}:${viewer.userId}`;
}

/** The installation if this request's person may see it; another team's answers as an unknown one does (404). */
export async function requireVisible<T extends InstallationAccessFacts>(installation: T | undefined): Promise<T> {
  if (!installation || !canSee(await currentViewer(), installation)) throw new AppError("unknown_installation");
  return installation;
}

/** Throws 403 not_allowed unless this request's person may revoke, uninstall, forget or exchange the installation. */
export async function requireManager(installation: InstallationAccessFacts, action: string): Promise<Viewer> {
  const viewer = await currentViewer();
  if (!canSee(viewer, installation)) throw new AppError("unknown_installation");
  if (!canManage(viewer, installation)) {
    throw new AppError("not_allowed", { message: `Only an admin or the member who installed this app may ${action}.` });
  }
  return viewer;
}

/**
 * Throws 403 not_allowed unless this request's person may revoke the installation's `kind` token as it acts
 * with it: a manager any, a member the rotating user token that is their own. Not a long-lived one: without
 * rotation, auth.revoke ends the whole authorization (every token, the installation), a manager's to do.
 */
export async function requireTokenManager(
  installation: InstallationAccessFacts & { userHolder?: string; user?: { refreshToken?: string } },
  kind: "bot" | "user",
  action: string,
): Promise<Viewer> {
  const viewer = await currentViewer();
  const ownRotating = kind === "user" && viewer.kind === "member" && installation.userHolder === viewer.userId && Boolean(installation.user?.refreshToken);
  if (ownRotating && canSee(viewer, installation)) return viewer;
  return requireManager(installation, action);
}

/** Throws 403 not_allowed unless this request's person is an admin (or the operator of a console without sign-in). */
export async function requireAdmin(action: string): Promise<Viewer> {
  const viewer = await currentViewer();
  if (!isAdmin(viewer)) throw new AppError("not_allowed", { message: `Only an admin may ${action}.` });
  return viewer;
}
