/**
 * oauth.v2.access (code grant and refresh grant) and oauth.v2.exchange, with the response shape of
 * spec 2.1 and 2.2 (docs/spec/web-api.md) and the rotation rules of spec section 3.
 */
import { workspaceOf } from "../../store";
import { WebApiError } from "../../core/errors";
import { incomingWebhookUrl, installFromCode, type IssuedTokens } from "../../oauth/installations";
import { EXPIRING_TOKEN_LIFETIME_S, enforceActiveTokenLimit, isRefreshGraceOver, issueRotatingPair, secondsUntilExpiry, tokenState } from "../../tokens/tokens";
import type { App, Installation, MethodContext, MethodDefinition, TokenRecord } from "../../types";
import { touch } from "../../core/change-tracking";

/** Fields every OAuth response carries about the app and the workspace. */
function installationFields(ctx: MethodContext, app: App, installation: Installation) {
  const team = workspaceOf(ctx.state, installation.teamId).team;
  return {
    app_id: app.id,
    team: { id: team.id, name: team.name },
    // The emulated workspace is not part of an Enterprise Grid organization: the platform sends null.
    enterprise: null,
    is_enterprise_install: false,
  };
}

function expiringFields(tokens: IssuedTokens, now: number) {
  if (!tokens.refresh) return {};
  return {
    expires_in: secondsUntilExpiry(tokens.access, now) ?? EXPIRING_TOKEN_LIFETIME_S,
    refresh_token: tokens.refresh.value,
  };
}

function botFields(installation: Installation, tokens: IssuedTokens, now: number) {
  return {
    access_token: tokens.access.value,
    token_type: "bot",
    scope: installation.botScopes.join(","),
    bot_user_id: installation.botUserId,
    ...expiringFields(tokens, now),
  };
}

/** The member a user token acts for (its own, since each member who installs keeps theirs), or the installer. */
function authedUser(installation: Installation, tokens: IssuedTokens | undefined, now: number) {
  if (!tokens) return { id: installation.authedUserId };
  return {
    id: tokens.access.userId ?? installation.authedUserId,
    scope: installation.userScopes.join(","),
    access_token: tokens.access.value,
    token_type: "user",
    ...expiringFields(tokens, now),
  };
}

/**
 * A refresh or exchange result for one token. A bot token's fields are at top level (spec 2.1). A user
 * token's are in authed_user (spec 2.2) and also at top level with token_type "user", which is where
 * the official SDK's token refresh reads them.
 */
function tokenResponse(ctx: MethodContext, app: App, installation: Installation, tokens: IssuedTokens) {
  const now = ctx.clock.now();
  const base = installationFields(ctx, app, installation);
  if (tokens.access.family === "bot") return { ...botFields(installation, tokens, now), ...base };
  return {
    access_token: tokens.access.value,
    token_type: "user",
    scope: installation.userScopes.join(","),
    ...expiringFields(tokens, now),
    ...base,
    authed_user: authedUser(installation, tokens, now),
  };
}

function redeemCode(ctx: MethodContext, app: App) {
  const now = ctx.clock.now();
  const code = ctx.state.codes.get(ctx.params.code ?? "");
  if (!code || code.used || now >= code.expiresAt || code.appId !== app.id) throw new WebApiError("invalid_code");
  // redirect_uri is optional here; when given it must be the one of the authorize request.
  if (ctx.params.redirect_uri && ctx.params.redirect_uri !== code.redirectUri) throw new WebApiError("bad_redirect_uri");
  code.used = true;
  touch(code);

  const { installation, bot, user } = installFromCode(ctx.state, app, code, ctx.baseUrl, now);
  const webhookUrl = incomingWebhookUrl(installation, ctx.baseUrl);
  const hook = code.webhookChannelId ? installation.incomingWebhook : undefined;
  return {
    ...(bot ? botFields(installation, bot, now) : {}),
    ...installationFields(ctx, app, installation),
    authed_user: authedUser(installation, user, now),
    ...(hook && webhookUrl
      ? {
          incoming_webhook: {
            channel: `#${hook.channelName}`,
            channel_id: hook.channelId,
            configuration_url: hook.configurationUrl,
            url: webhookUrl,
          },
        }
      : {}),
  };
}

function pairOf(ctx: MethodContext, replacement: { accessToken: string; refreshToken: string }): { access: TokenRecord; refresh: TokenRecord } {
  const access = ctx.state.tokens.get(replacement.accessToken) as TokenRecord;
  const refresh = ctx.state.tokens.get(replacement.refreshToken) as TokenRecord;
  return { access, refresh };
}

function refreshGrant(ctx: MethodContext, app: App) {
  const now = ctx.clock.now();
  const record = ctx.state.tokens.get(ctx.params.refresh_token ?? "");
  if (!record || record.kind !== "refresh" || record.appId !== app.id || record.state !== "active") {
    throw new WebApiError("invalid_refresh_token");
  }
  const installation = ctx.state.installations.get(record.installationId);
  if (!installation || installation.uninstalled) throw new WebApiError("invalid_refresh_token");

  if (record.usedAt !== undefined) {
    // A used refresh token is accepted for the grace period and replays the same new pair, so that a
    // client which lost the first response (or raced itself) does not lose the installation.
    if (isRefreshGraceOver(record, now, ctx.options.refreshGraceSeconds) || !record.replacement) {
      throw new WebApiError("invalid_refresh_token");
    }
    // The replay only stands for a pair that is still alive: once its access token was revoked
    // (auth.revoke, the active-token limit) or its refresh token revoked or used, ok:true would hand
    // out dead tokens.
    const replayed = pairOf(ctx, record.replacement);
    if (tokenState(replayed.access, now) !== "active" || replayed.refresh.state !== "active" || replayed.refresh.usedAt !== undefined) {
      throw new WebApiError("invalid_refresh_token");
    }
    installation.refreshRequests += 1;
    touch(installation);
    return tokenResponse(ctx, app, installation, replayed);
  }

  // A member's user token renews as theirs.
  const pair = issueRotatingPair(ctx.state, installation, record.family, now, record.userId);
  record.usedAt = now;
  record.replacement = { accessToken: pair.access.value, refreshToken: pair.refresh.value };
  installation.refreshGrants += 1;
  installation.refreshRequests += 1;
  touch(record);
  touch(installation);
  enforceActiveTokenLimit(ctx.state, installation.id, record.family, now, record.userId);
  return tokenResponse(ctx, app, installation, pair);
}

const oauthV2Access: MethodDefinition = {
  name: "oauth.v2.access",
  tier: "special",
  auth: "client",
  handler(ctx) {
    const app = ctx.clientApp as App;
    const grantType = ctx.params.grant_type || "authorization_code";
    if (grantType === "authorization_code") return redeemCode(ctx, app);
    if (grantType === "refresh_token") return refreshGrant(ctx, app);
    throw new WebApiError("invalid_grant_type");
  },
};

const oauthV2Exchange: MethodDefinition = {
  name: "oauth.v2.exchange",
  tier: 3,
  auth: "client",
  handler(ctx) {
    const app = ctx.clientApp as App;
    const now = ctx.clock.now();
    if (!app.tokenRotationEnabled) throw new WebApiError("token_rotation_not_enabled");
    if (!ctx.token) throw new WebApiError("not_authed");
    const record = ctx.state.tokens.get(ctx.token);
    // Only a long-lived (xoxb-/xoxp-) token of this app can be exchanged.
    if (!record || record.kind === "refresh" || record.rotating || record.appId !== app.id) {
      throw new WebApiError("invalid_token");
    }
    if (record.state === "exchanged") throw new WebApiError("token_already_exchanged");
    const installation = ctx.state.installations.get(record.installationId);
    if (!installation || installation.uninstalled || tokenState(record, now) !== "active") {
      throw new WebApiError("authorization_not_found");
    }

    const pair = issueRotatingPair(ctx.state, installation, record.family, now, record.userId);
    pair.access.exchangedFrom = record.value;
    record.state = "exchanged";
    record.exchangedFor = pair.access.value;
    touch(record);
    touch(pair.access);
    return tokenResponse(ctx, app, installation, pair);
  },
};

export const oauthMethods: MethodDefinition[] = [oauthV2Access, oauthV2Exchange];
