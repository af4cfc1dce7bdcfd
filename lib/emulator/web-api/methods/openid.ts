/**
 * "Sign in with" (OpenID Connect), the Web API side: openid.connect.token exchanges a sign-in code
 * (openid/authorize.ts) for a user token and an ID token; openid.connect.userInfo answers the signed-in
 * person's claims for that token. Errors are the Web API's (HTTP 200, ok:false), as the platform answers
 * them: invalid_client_id, bad_client_secret, invalid_grant_type, invalid_code, bad_redirect_uri for the
 * token; not_authed, invalid_auth, token_revoked, token_expired, missing_scope for userInfo.
 */
import { WebApiError } from "../../core/errors";
import { memberClaims } from "../../openid/claims";
import { accessTokenHash, signJwt } from "../../openid/keys";
import { newTokenValue, requireAccessToken } from "../../tokens/tokens";
import type { App, MethodContext, MethodDefinition, SignInToken } from "../../types";
import { touch } from "../../core/change-tracking";

/** How long an ID token is valid: 5 minutes, as the platform's (it proves a sign-in, it is no session). */
export const ID_TOKEN_LIFETIME_S = 300;

function newSignInTokenValue(ctx: MethodContext): string {
  let value = newTokenValue("user", "user", false);
  while (ctx.state.tokens.has(value) || ctx.state.signIns.tokens.has(value)) value = newTokenValue("user", "user", false);
  return value;
}

const openidConnectToken: MethodDefinition = {
  name: "openid.connect.token",
  tier: 4,
  auth: "client",
  json: true,
  handler(ctx) {
    const app = ctx.clientApp as App;
    if ((ctx.params.grant_type || "authorization_code") !== "authorization_code") throw new WebApiError("invalid_grant_type");
    const now = ctx.clock.now();
    const code = ctx.state.signIns.codes.get(ctx.params.code ?? "");
    const ws = code ? ctx.state.workspaces.get(code.teamId) : undefined;
    if (!code || !ws || code.used || now >= code.expiresAt || code.appId !== app.id) throw new WebApiError("invalid_code");
    // redirect_uri is required when authorize was given one, and must then be that one.
    const given = ctx.params.redirect_uri;
    if ((code.redirectUriSent && !given) || (given && given !== code.redirectUri)) throw new WebApiError("bad_redirect_uri");
    code.used = true;
    touch(code);

    const token: SignInToken = {
      value: newSignInTokenValue(ctx),
      appId: app.id,
      teamId: code.teamId,
      userId: code.userId,
      scopes: code.scopes,
      authTime: code.authTime,
      issuedAt: now,
    };
    ctx.state.signIns.tokens.set(token.value, token);
    const iat = Math.floor(now / 1000);
    const idToken = signJwt(ctx.state, {
      iss: ctx.baseUrl,
      sub: code.userId,
      aud: app.clientId,
      exp: iat + ID_TOKEN_LIFETIME_S,
      iat,
      auth_time: Math.floor(code.authTime / 1000),
      ...(code.nonce !== undefined ? { nonce: code.nonce } : {}),
      at_hash: accessTokenHash(token.value),
      ...memberClaims(ws, code.userId, code.scopes, ctx.baseUrl),
    });
    return { access_token: token.value, token_type: "Bearer", id_token: idToken };
  },
};

/**
 * A token that is no sign-in's: an install's user token has no openid scope (missing_scope), a bot token
 * is the wrong kind (not_allowed_token_type), a revoked or expired one says so; anything else is unknown.
 */
function refuseOtherToken(ctx: MethodContext, value: string): never {
  const record = ctx.state.tokens.get(value);
  if (!record || record.kind === "refresh") throw new WebApiError("invalid_auth");
  requireAccessToken(ctx.state, value, ctx.clock.now());
  if (record.family === "bot") throw new WebApiError("not_allowed_token_type");
  const installation = ctx.state.installations.get(record.installationId);
  throw new WebApiError("missing_scope", { needed: "openid", provided: (installation?.userScopes ?? []).join(",") });
}

const openidConnectUserInfo: MethodDefinition = {
  name: "openid.connect.userInfo",
  tier: 3,
  // The token is a sign-in's, which belongs to no installation: the handler resolves it itself.
  auth: "none",
  scopes: { user: ["openid"] },
  handler(ctx) {
    if (!ctx.token) throw new WebApiError("not_authed");
    const signIn = ctx.state.signIns.tokens.get(ctx.token);
    if (!signIn) refuseOtherToken(ctx, ctx.token);
    const ws = ctx.state.workspaces.get(signIn.teamId);
    if (!ws) throw new WebApiError("invalid_auth");
    return memberClaims(ws, signIn.userId, signIn.scopes, ctx.baseUrl);
  },
};

export const openidMethods: MethodDefinition[] = [openidConnectToken, openidConnectUserInfo];
