/**
 * The install step whose URL and parameters spec 5 leaves "not shown" (docs/spec/web-api.md; the choice is
 * in docs/emulator.md): GET {base}/oauth/v2/authorize shows the consent page; POST to the same URL
 * (decision=allow|deny, channel_id) answers 302 to the redirect URI with code and state, or
 * error=access_denied and state.
 * Problems with the request itself (unknown client_id, unregistered redirect_uri, no scopes) get an
 * error page and never a redirect, so an attacker cannot bounce a person to an arbitrary URL.
 */
import { randomBytes } from "node:crypto";
import { findAppByClientId } from "../apps/registry";
import { scopeProblem } from "../scopes";
import { renderConsentPage } from "./consent-page";
import { PageError } from "../core/errors";
import { htmlResponse } from "../core/html";
import type { App, RequestContext } from "../types";
import type { Workspace } from "../workspace/workspace";
import { findChannel, generalChannel, postableChannels } from "../workspace/channels";
import { installingUserId } from "../workspace/members";
import { canSignIn, membersToOffer } from "../openid/claims";
import { readSignedInMember } from "../openid/browser-session";

/** Codes are single use and expire after 10 minutes, like the platform's. */
export const CODE_LIFETIME_MS = 10 * 60 * 1000;

export function splitScopes(value: string | null): string[] {
  return [...new Set((value ?? "").split(/[\s,]+/).filter(Boolean))];
}

/** The path of a URI as written, before any normalization: after the authority, up to ? or #. */
function rawPath(uri: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]*([^?#]*)/i.exec(uri)?.[1] ?? "";
}

/**
 * A redirect URI is accepted when it is one of the app's redirect URLs or lies under one (same
 * origin, path below it), which is the platform's rule. A path holding an encoded slash, backslash or
 * dot, or a backslash, is refused: the prefix check sees one segment (`..%2f..%2fevil`) where a server
 * that decodes it would walk out of the registered path.
 */
export function isRegisteredRedirect(app: App, redirectUri: string): boolean {
  if (/%2f|%5c|%2e|\\/i.test(rawPath(redirectUri))) return false;
  let candidate: URL;
  try {
    candidate = new URL(redirectUri);
  } catch {
    return false;
  }
  return app.redirectUrls.some((registered) => {
    const base = new URL(registered);
    if (base.origin !== candidate.origin) return false;
    const basePath = base.pathname.replace(/\/+$/, "");
    return candidate.pathname === base.pathname || candidate.pathname === basePath || candidate.pathname.startsWith(`${basePath}/`);
  });
}

interface AuthorizeRequest {
  app: App;
  /** The workspace to install into: the link's `team`, else the signed-in member's (openid/browser-session.ts), else the first. */
  ws: Workspace;
  /** The member signed in to the emulator in this browser, when they belong to `ws`: who allows, unless the page's picker says otherwise. */
  signedInUserId: string | undefined;
  redirectUri: string;
  state: string | null;
  botScopes: string[];
  userScopes: string[];
  wantsWebhook: boolean;
}

function parseAuthorizeRequest(ctx: RequestContext, query: URLSearchParams): AuthorizeRequest {
  const app = findAppByClientId(ctx.state, query.get("client_id") ?? undefined);
  if (!app) {
    throw new PageError(400, "This app could not be found", "The client_id in the link is not the id of any app (invalid_client_id).");
  }
  const redirectUri = query.get("redirect_uri") || app.redirectUrls[0];
  if (!redirectUri || !isRegisteredRedirect(app, redirectUri)) {
    throw new PageError(
      400,
      "The redirect URL is not registered",
      `redirect_uri did not match any redirect URL configured for ${app.name} (bad_redirect_uri).`,
    );
  }
  const team = query.get("team");
  const signedIn = readSignedInMember(ctx);
  const ws = team ? ctx.state.workspaces.get(team) : (signedIn?.ws ?? ctx.state.workspace);
  if (!ws) {
    throw new PageError(400, "This workspace could not be found", "The team in the link is not one of the emulated workspaces.");
  }
  const botScopes = splitScopes(query.get("scope"));
  const userScopes = splitScopes(query.get("user_scope"));
  if (botScopes.length === 0 && userScopes.length === 0) {
    throw new PageError(400, "No permissions were requested", "The link has neither scope nor user_scope (no_scopes).");
  }
  // Scopes the platform does not know, or that this kind of token cannot have: the platform's invalid_scope.
  const invalid = [...botScopes.map((s) => scopeProblem(s, "bot")), ...userScopes.map((s) => scopeProblem(s, "user"))].filter(
    (problem): problem is string => problem !== undefined,
  );
  if (invalid.length > 0) {
    throw new PageError(400, "Invalid permissions requested", `${invalid.join(" ")} (invalid_scope)`);
  }
  const undeclared = [...botScopes.filter((s) => !app.botScopes.includes(s)), ...userScopes.filter((s) => !app.userScopes.includes(s))];
  if (undeclared.length > 0) {
    throw new PageError(
      400,
      "Invalid permissions requested",
      `${app.name} does not declare these scopes in its manifest: ${undeclared.join(", ")} (invalid_scope).`,
    );
  }
  return {
    app,
    ws,
    signedInUserId: signedIn?.ws === ws ? signedIn.userId : undefined,
    redirectUri,
    state: query.get("state"),
    botScopes,
    userScopes,
    wantsWebhook: botScopes.includes("incoming-webhook"),
  };
}

export function redirectTo(redirectUri: string, params: Record<string, string | null>, setCookie?: string): Response {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value !== null) url.searchParams.set(key, value);
  const headers = new Headers({ location: url.toString(), "cache-control": "no-store" });
  if (setCookie) headers.append("set-cookie", setCookie);
  return new Response(null, { status: 302, headers });
}

export function showConsentPage(ctx: RequestContext): Response {
  const url = new URL(ctx.request.url);
  const request = parseAuthorizeRequest(ctx, url.searchParams);
  const ws = request.ws;
  const installers = membersToOffer(ws, request.signedInUserId);
  // Like the platform's workspace switcher: the same request, for another workspace.
  const otherWorkspaces = [...ctx.state.workspaces.values()].filter((w) => w !== ws);
  const switchTo = (teamId: string) => {
    const query = new URLSearchParams(url.searchParams);
    query.set("team", teamId);
    return `${ctx.baseUrl}/oauth/v2/authorize?${query}`;
  };
  return htmlResponse(
    renderConsentPage({
      appName: request.app.name,
      teamName: ws.team.name,
      teamDomain: ws.team.domain,
      botScopes: request.botScopes,
      userScopes: request.userScopes,
      members: installers,
      selectedUserId: request.signedInUserId ?? installingUserId(ws),
      ...(request.wantsWebhook ? { channels: postableChannels(ws).map((c) => ({ id: c.id, name: c.name })), selectedChannelId: generalChannel(ws).id } : {}),
      actionUrl: `${ctx.baseUrl}/oauth/v2/authorize${url.search}`,
      ...(otherWorkspaces.length > 0 ? { otherWorkspaces: otherWorkspaces.map((w) => ({ name: w.team.name, url: switchTo(w.team.id) })) } : {}),
    }),
  );
}

export async function decideConsent(ctx: RequestContext): Promise<Response> {
  const url = new URL(ctx.request.url);
  const request = parseAuthorizeRequest(ctx, url.searchParams);
  const form = new URLSearchParams(await ctx.request.text());
  const decision = form.get("decision");
  if (decision === "deny") return redirectTo(request.redirectUri, { error: "access_denied", state: request.state });
  if (decision !== "allow") throw new PageError(400, "Nothing was decided", "Choose Allow or Cancel.");

  // Whoever allows it installs (the member signed in here, else the primary owner, unless the page's picker says otherwise): any member who can sign in.
  const userId = form.get("user_id") || request.signedInUserId || installingUserId(request.ws);
  if (!canSignIn(request.ws, userId)) {
    throw new PageError(400, "Pick a member", `Install as a member of ${request.ws.team.name} who is not deactivated and not an app's bot user.`);
  }

  let webhookChannelId: string | undefined;
  if (request.wantsWebhook) {
    const channel = findChannel(request.ws, form.get("channel_id") ?? "");
    if (!channel || channel.isArchived) throw new PageError(400, "Pick a channel", "The incoming webhook needs a channel that exists and is not archived.");
    webhookChannelId = channel.id;
  }

  const now = ctx.clock.now();
  const code = `${now}.${randomBytes(6).readUIntBE(0, 6)}.${randomBytes(32).toString("hex")}`;
  ctx.state.codes.set(code, {
    code,
    appId: request.app.id,
    teamId: request.ws.team.id,
    userId,
    botScopes: request.botScopes,
    userScopes: request.userScopes,
    redirectUri: request.redirectUri,
    ...(webhookChannelId ? { webhookChannelId } : {}),
    issuedAt: now,
    expiresAt: now + CODE_LIFETIME_MS,
    used: false,
  });
  return redirectTo(request.redirectUri, { code, state: request.state });
}
