/** auth.test and auth.revoke (spec 3 and 4.3, docs/spec/web-api.md). */
import { WebApiError } from "../../core/errors";
import { dispatchTokensRevoked, uninstallWithEvents } from "../../events/app-lifecycle-events";
import { isRefreshGraceOver, revokeToken, secondsUntilExpiry, tokenState } from "../../tokens/tokens";
import type { Caller, MethodContext, MethodDefinition } from "../../types";
import { memberAt, memberIndexOf } from "../../workspace/members";

/** A workspace's URL on the platform: `https://<domain>.slack.com/`. */
export function workspaceUrl(domain: string): string {
  return `https://${domain}.slack.com/`;
}

function userName(ctx: MethodContext, userId: string): string {
  const ws = ctx.ws;
  const index = memberIndexOf(ws, userId);
  return index >= 0 ? String(memberAt(ws, index, ctx.baseUrl).name) : userId;
}

const authTest: MethodDefinition = {
  name: "auth.test",
  tier: "special",
  auth: "token",
  json: true,
  handler(ctx) {
    const { token, installation } = ctx.caller as Caller;
    const team = ctx.ws.team;
    const isBot = token.family === "bot";
    // A user token is its member's own (each who installs keeps theirs).
    const userId = isBot ? installation.botUserId : (token.userId ?? installation.authedUserId);
    const expiresIn = secondsUntilExpiry(token, ctx.clock.now());
    return {
      // The workspace's URL, shaped as the platform answers it (the reference's example,
      // docs/reference/platform-methods/auth.test.json: "https://subarachnoid.slack.com/"): apps read the
      // workspace's domain from it, the same domain team.info and the OpenID claims answer.
      url: workspaceUrl(team.domain),
      team: team.name,
      user: userName(ctx, userId),
      team_id: team.id,
      user_id: userId,
      ...(isBot ? { bot_id: installation.botId } : {}),
      is_enterprise_install: false,
      ...(expiresIn !== undefined ? { expires_in: expiresIn } : {}),
    };
  },
};

/**
 * auth.revoke resolves its token itself: the original long-lived token after an exchange no longer
 * works for anything else, but revoking with it revokes the whole installation (spec section 3).
 * With rotation, one token (access or refresh) is revoked and the installation stays; without it, the
 * installation's authorization is revoked, which is the same as an uninstall.
 */
const authRevoke: MethodDefinition = {
  name: "auth.revoke",
  tier: 3,
  auth: "none",
  handler(ctx) {
    const now = ctx.clock.now();
    if (!ctx.token) throw new WebApiError("not_authed");
    const record = ctx.state.tokens.get(ctx.token);
    if (!record) throw new WebApiError("invalid_auth");
    const installation = ctx.state.installations.get(record.installationId);
    const app = ctx.state.apps.get(record.appId);
    if (!installation || !app || installation.uninstalled) throw new WebApiError("token_revoked");

    const current = tokenState(record, now);
    const graceOver = record.kind === "refresh" && isRefreshGraceOver(record, now, ctx.options.refreshGraceSeconds);
    if (current === "revoked" || graceOver) throw new WebApiError("token_revoked");
    if (current === "expired") throw new WebApiError("token_expired");

    const testOnly = ctx.params.test === "1" || ctx.params.test === "true";
    if (testOnly) return { revoked: false };
    if (current === "exchanged" || !app.tokenRotationEnabled) uninstallWithEvents(ctx, installation);
    else {
      revokeToken(record, now);
      dispatchTokensRevoked(ctx, installation, [record]);
    }
    return { revoked: true };
  },
};

export const authMethods: MethodDefinition[] = [authTest, authRevoke];
