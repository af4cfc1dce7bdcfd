/**
 * Installations: an app installed in the workspace, created by the OAuth code exchange and ended by
 * apps.uninstall (or auth.revoke without rotation), as spec 3 (docs/spec/web-api.md) says. One per app:
 * reinstalling reuses it.
 */
import { randomBytes } from "node:crypto";
import { issueRotatingPair, issueToken, randomAlphanumeric, revokeInstallationTokens, enforceActiveTokenLimit, tokenState } from "../tokens/tokens";
import type { App, AuthCode, EmulatorState, Installation, TokenRecord } from "../types";
import { workspaceOf } from "../store";
import { findChannel } from "../workspace/channels";
import { addBotUser, markBotUserDeleted } from "../workspace/members";
import { touch } from "../core/change-tracking";

export interface IssuedTokens {
  access: TokenRecord;
  refresh?: TokenRecord;
}

export interface InstallResult {
  installation: Installation;
  bot?: IssuedTokens;
  user?: IssuedTokens;
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}

function randomId(prefix: string): string {
  return `${prefix}0${randomBytes(5).toString("hex").toUpperCase().slice(0, 9)}`;
}

/** The installation's active long-lived token of one kind (a member's own, for a user token), which a reinstall hands out again. */
function activeLongLivedToken(state: EmulatorState, installationId: string, family: "bot" | "user", now: number, userId: string) {
  for (const record of state.tokens.values()) {
    if (
      record.installationId === installationId &&
      record.kind === family &&
      (family === "bot" || record.userId === userId) &&
      !record.rotating &&
      tokenState(record, now) === "active"
    ) {
      return record;
    }
  }
  return undefined;
}

/** Tokens for the install's installer (installation.authedUserId): the bot's, or the installer's own user token. */
function issueFor(state: EmulatorState, app: App, installation: Installation, family: "bot" | "user", now: number): IssuedTokens {
  const userId = installation.authedUserId;
  if (app.tokenRotationEnabled) {
    const pair = issueRotatingPair(state, installation, family, now, family === "user" ? userId : undefined);
    enforceActiveTokenLimit(state, installation.id, family, now, family === "user" ? userId : undefined);
    return pair;
  }
  // Without rotation a reinstall returns the same long-lived token (the same member's, for a user token), as the platform does.
  const existing = activeLongLivedToken(state, installation.id, family, now, userId);
  return { access: existing ?? issueToken(state, installation, { kind: family, family, rotating: false, now }) };
}

/**
 * Installs (or reinstalls) the app of a redeemed code. Granted scopes accumulate across installs
 * (the platform adds scopes on reinstall; removing one needs an uninstall).
 */
export function installFromCode(state: EmulatorState, app: App, code: AuthCode, baseUrl: string, now: number): InstallResult {
  const ws = workspaceOf(state, code.teamId);
  const bot = addBotUser(ws, { appId: app.id, appName: app.name }, now);
  let installation = [...state.installations.values()].find((i) => i.appId === app.id && i.teamId === code.teamId);
  if (!installation) {
    installation = {
      id: randomId("I"),
      teamId: code.teamId,
      appId: app.id,
      botUserId: bot.userId,
      botId: bot.botId,
      authedUserId: code.userId,
      botScopes: [],
      userScopes: [],
      installedAt: now,
      uninstalled: false,
      refreshGrants: 0,
      refreshRequests: 0,
      joinedChannels: new Set(),
    };
    state.installations.set(installation.id, installation);
  }
  if (installation.uninstalled) {
    installation.uninstalled = false;
    installation.botScopes = [];
    installation.userScopes = [];
    installation.joinedChannels = new Set();
    delete installation.incomingWebhook;
  }
  installation.installedAt = now;
  installation.authedUserId = code.userId;
  installation.botScopes = union(installation.botScopes, code.botScopes);
  installation.userScopes = union(installation.userScopes, code.userScopes);

  const channel = code.webhookChannelId ? findChannel(ws, code.webhookChannelId) : undefined;
  if (channel) {
    // The platform adds the app to the channel picked for the webhook.
    installation.joinedChannels.add(channel.id);
    // Each install that grants incoming-webhook creates a new webhook; the newest one is the live one.
    const hookId = randomId("B");
    installation.incomingWebhook = {
      hookId,
      channelId: channel.id,
      channelName: channel.name,
      // 24 letters and digits, like the platform's webhook secrets.
      secret: randomAlphanumeric(24),
      configurationUrl: `${baseUrl}/#app-${app.id}`,
    };
  }
  touch(installation);

  return {
    installation,
    ...(code.botScopes.length > 0 ? { bot: issueFor(state, app, installation, "bot", now) } : {}),
    ...(code.userScopes.length > 0 ? { user: issueFor(state, app, installation, "user", now) } : {}),
  };
}

/** {base}/services/{team}/{hook}/{secret}: the secret URL an incoming webhook answers at. */
export function incomingWebhookUrl(installation: Installation, baseUrl: string): string | undefined {
  const hook = installation.incomingWebhook;
  return hook ? `${baseUrl}/services/${installation.teamId}/${hook.hookId}/${hook.secret}` : undefined;
}

/** Ends an installation: every token revoked, webhooks dead, the bot user marked deleted. */
export function uninstall(state: EmulatorState, installation: Installation, now: number): void {
  revokeInstallationTokens(state, installation.id, now);
  installation.uninstalled = true;
  touch(installation);
  markBotUserDeleted(workspaceOf(state, installation.teamId), installation.appId);
}
