/**
 * What a sign-in says about a person: the claims of the ID token and of openid.connect.userInfo, the
 * standard ones and the platform's namespaced ones (`https://slack.com/…`), as its documentation and the
 * official client's OpenIDConnectUserInfoResponse list them. Which ones depend on the scopes granted:
 * - openid: sub, https://slack.com/user_id, team_id, team_name, team_domain (who, and in which workspace)
 * - email: email, email_verified (a member without an email address, as some guests are, has neither)
 * - profile: name, given_name, family_name, picture, locale, user_image_*, team_image_*, team_image_default
 * The emulated workspaces are not part of an Enterprise Grid organization, so the enterprise claims are
 * absent, as the platform leaves them out for a standalone workspace.
 */
import { AVATAR_SIZES, memberAt, memberIdAt, memberIndexOf } from "../workspace/members";
import { TEAM_IMAGE_SIZES, teamImageUrl } from "../workspace/avatars";
import type { Workspace } from "../workspace/workspace";

const NS = "https://slack.com/";

/** A member who can sign in: a generated person (not an app's bot user) who is not deactivated. */
export function canSignIn(ws: Workspace, userId: string): boolean {
  const index = memberIndexOf(ws, userId);
  return index >= 0 && index < ws.userCount && memberAt(ws, index, "").deleted !== true;
}

export function memberClaims(ws: Workspace, userId: string, scopes: readonly string[], baseUrl: string): Record<string, unknown> {
  const member = memberAt(ws, memberIndexOf(ws, userId), baseUrl);
  const profile = member.profile as Record<string, unknown>;
  const claims: Record<string, unknown> = {
    sub: userId,
    [`${NS}user_id`]: userId,
    [`${NS}team_id`]: ws.team.id,
    [`${NS}team_name`]: ws.team.name,
    [`${NS}team_domain`]: ws.team.domain,
  };
  if (scopes.includes("email") && typeof profile.email === "string") {
    claims.email = profile.email;
    claims.email_verified = true;
  }
  if (scopes.includes("profile")) {
    claims.name = member.real_name;
    claims.given_name = profile.first_name;
    claims.family_name = profile.last_name;
    claims.picture = profile.image_512;
    claims.locale = "en-US";
    for (const size of AVATAR_SIZES) {
      const image = profile[`image_${size}`];
      if (typeof image === "string") claims[`${NS}user_image_${size}`] = image;
    }
    for (const size of TEAM_IMAGE_SIZES) claims[`${NS}team_image_${size}`] = teamImageUrl(baseUrl, ws.team.id, size);
    // The workspaces have no icon of their own: the platform says so with team_image_default.
    claims[`${NS}team_image_default`] = true;
  }
  return claims;
}

/** Every claim the emulator may put in an ID token or a userInfo answer (the discovery's claims_supported). */
export const SUPPORTED_CLAIMS = [
  "sub",
  "iss",
  "aud",
  "exp",
  "iat",
  "auth_time",
  "nonce",
  "at_hash",
  "email",
  "email_verified",
  "name",
  "given_name",
  "family_name",
  "picture",
  "locale",
  `${NS}user_id`,
  `${NS}team_id`,
  `${NS}team_name`,
  `${NS}team_domain`,
  ...AVATAR_SIZES.map((size) => `${NS}user_image_${size}`),
  ...TEAM_IMAGE_SIZES.map((size) => `${NS}team_image_${size}`),
  `${NS}team_image_default`,
];

/** How many members a page offers (the first ones of users.list who can sign in). */
const MEMBERS_SHOWN = 100;

/**
 * The members a page lets one act as (signing in, installing): the first of users.list who can sign in, and
 * `signedIn` (the member signed in in this browser) first when they are further down the list.
 */
export function membersToOffer(ws: Workspace, signedIn?: string): { id: string; realName: string; name: string }[] {
  const offer = (index: number) => {
    const member = memberAt(ws, index, "");
    return { id: memberIdAt(ws, index), realName: String(member.real_name), name: String(member.name) };
  };
  const offered: { id: string; realName: string; name: string }[] = [];
  for (let index = 0; index < ws.userCount && offered.length < MEMBERS_SHOWN; index++) {
    if (canSignIn(ws, memberIdAt(ws, index))) offered.push(offer(index));
  }
  if (signedIn && canSignIn(ws, signedIn) && !offered.some((m) => m.id === signedIn)) offered.unshift(offer(memberIndexOf(ws, signedIn)));
  return offered;
}
