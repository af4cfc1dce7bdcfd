/**
 * "Sign in with" (OpenID Connect), the authorize step: GET {base}/openid/connect/authorize shows the page
 * where the person picks who signs in; POST to the same URL (decision=allow|deny, user_id) answers 302 to
 * the redirect URI with code and state, or error=access_denied and state.
 *
 * The request is checked as the install's (oauth/authorize.ts) is, with the same rule for redirect URIs
 * (the app's redirect URLs or a path under one), and a problem with the request itself gets an error page
 * and never a redirect: an unknown client_id (invalid_client_id), an unregistered redirect_uri
 * (bad_redirect_uri), a response_type other than code (unsupported_response_type), scopes without openid
 * or beyond openid, profile and email (invalid_scope), an unknown team. The scopes need not be in the app's
 * manifest: on the platform any app can offer sign-in.
 */
import { randomBytes } from "node:crypto";
import { findAppByClientId } from "../apps/registry";
import { PageError } from "../core/errors";
import { htmlResponse } from "../core/html";
import { CODE_LIFETIME_MS, isRegisteredRedirect, redirectTo, splitScopes } from "../oauth/authorize";
import type { App, RequestContext } from "../types";
import type { Workspace } from "../workspace/workspace";
import { readSignedInMember, signedInCookie } from "./browser-session";
import { canSignIn, membersToOffer } from "./claims";
import { renderSignInPage } from "./sign-in-page";

export const AUTHORIZE_PATH = "/openid/connect/authorize";
export const SIGN_IN_SCOPES = ["openid", "profile", "email"] as const;

interface SignInRequest {
  app: App;
  /** The link's `team`, else the workspace of the member signed in here before (browser-session.ts), else the first. */
  ws: Workspace;
  /** That member, when they belong to `ws`: preselected. */
  signedInUserId: string | undefined;
  redirectUri: string;
  redirectUriSent: boolean;
  scopes: string[];
  state: string | null;
  nonce: string | null;
}

function parseSignInRequest(ctx: RequestContext, query: URLSearchParams): SignInRequest {
  const app = findAppByClientId(ctx.state, query.get("client_id") ?? undefined);
  if (!app) throw new PageError(400, "This app could not be found", "The client_id in the link is not the id of any app (invalid_client_id).");
  const sent = query.get("redirect_uri");
  const redirectUri = sent || app.redirectUrls[0];
  if (!redirectUri || !isRegisteredRedirect(app, redirectUri)) {
    throw new PageError(
      400,
      "The redirect URL is not registered",
      `redirect_uri did not match any redirect URL configured for ${app.name} (bad_redirect_uri).`,
    );
  }
  const responseType = query.get("response_type");
  if (responseType !== "code") {
    throw new PageError(
      400,
      "This sign-in link is not supported",
      `response_type must be code, not ${JSON.stringify(responseType ?? "")} (unsupported_response_type).`,
    );
  }
  const scopes = splitScopes(query.get("scope"));
  if (!scopes.includes("openid")) {
    throw new PageError(400, "Invalid permissions requested", "Signing in needs the openid scope, and the link does not ask for it (invalid_scope).");
  }
  const others = scopes.filter((s) => !(SIGN_IN_SCOPES as readonly string[]).includes(s));
  if (others.length > 0) {
    throw new PageError(400, "Invalid permissions requested", `Signing in asks only for openid, profile and email, not ${others.join(", ")} (invalid_scope).`);
  }
  const team = query.get("team");
  const signedIn = readSignedInMember(ctx);
  const ws = team ? ctx.state.workspaces.get(team) : (signedIn?.ws ?? ctx.state.workspace);
  if (!ws) throw new PageError(400, "This workspace could not be found", "The team in the link is not one of the emulated workspaces.");
  return {
    app,
    ws,
    signedInUserId: signedIn?.ws === ws ? signedIn.userId : undefined,
    redirectUri,
    redirectUriSent: Boolean(sent),
    scopes,
    state: query.get("state"),
    nonce: query.get("nonce"),
  };
}

export function showSignInPage(ctx: RequestContext): Response {
  const url = new URL(ctx.request.url);
  const request = parseSignInRequest(ctx, url.searchParams);
  const members = membersToOffer(request.ws, request.signedInUserId);
  const otherWorkspaces = [...ctx.state.workspaces.values()].filter((w) => w !== request.ws);
  const switchTo = (teamId: string) => {
    const query = new URLSearchParams(url.searchParams);
    query.set("team", teamId);
    return `${ctx.baseUrl}${AUTHORIZE_PATH}?${query}`;
  };
  return htmlResponse(
    renderSignInPage({
      appName: request.app.name,
      teamName: request.ws.team.name,
      teamDomain: request.ws.team.domain,
      scopes: request.scopes,
      members,
      selectedUserId: request.signedInUserId ?? members[0]?.id ?? "",
      actionUrl: `${ctx.baseUrl}${AUTHORIZE_PATH}${url.search}`,
      ...(otherWorkspaces.length > 0 ? { otherWorkspaces: otherWorkspaces.map((w) => ({ name: w.team.name, url: switchTo(w.team.id) })) } : {}),
    }),
  );
}

export async function decideSignIn(ctx: RequestContext): Promise<Response> {
  const url = new URL(ctx.request.url);
  const request = parseSignInRequest(ctx, url.searchParams);
  const form = new URLSearchParams(await ctx.request.text());
  const decision = form.get("decision");
  if (decision === "deny") return redirectTo(request.redirectUri, { error: "access_denied", state: request.state });
  if (decision !== "allow") throw new PageError(400, "Nothing was decided", "Choose Continue or Cancel.");
  // Any member who can sign in, not only those the page lists: a test or a script may name anyone.
  const userId = form.get("user_id") ?? "";
  if (!canSignIn(request.ws, userId)) {
    throw new PageError(400, "Pick a member", `Sign in as a member of ${request.ws.team.name} who is not deactivated and not an app's bot user.`);
  }

  const now = ctx.clock.now();
  const code = `${now}.${randomBytes(6).readUIntBE(0, 6)}.${randomBytes(32).toString("hex")}`;
  ctx.state.signIns.codes.set(code, {
    code,
    appId: request.app.id,
    teamId: request.ws.team.id,
    userId,
    scopes: request.scopes,
    redirectUri: request.redirectUri,
    redirectUriSent: request.redirectUriSent,
    ...(request.nonce !== null ? { nonce: request.nonce } : {}),
    authTime: now,
    issuedAt: now,
    expiresAt: now + CODE_LIFETIME_MS,
    used: false,
  });
  // Remembered in this browser, as the platform keeps a person signed in: its consent page opens as them.
  return redirectTo(request.redirectUri, { code, state: request.state }, signedInCookie(ctx, request.ws, userId));
}
