import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/http/app-error";
import { maskWebhookUrl, maskToken, type IssuedToken, type TokenGrant } from "@/lib/platform";
import { APP_KEYS, installationName, type AppKey, type InstallationState, type InstallationView, type TokenView } from "./universal/view";
import { timelineSchema, type TimelineEntry } from "./universal/timeline";
import type { TokenKind } from "./universal/token-kind";
import { cappedExpiry } from "./universal/token-lifetime";
import { actingAs, allUserTokens, installationHolder, NOBODY } from "./user-tokens";

/**
 * An installation as the console works with it, read from the server's store (store.ts; lib/store keeps its
 * secrets sealed at rest): its tokens, refresh tokens and webhook URL in clear, so server-only.
 * toInstallationView() makes what the browser sees. installationSchema also reads the cookies that earlier
 * versions sealed installations in (legacy-cookies.ts imports them into the store).
 */

export interface StoredToken {
  value: string;
  /** Rotating tokens only. */
  refreshToken?: string;
  /** Epoch ms, by this server's clock; absent for long-lived tokens. */
  expiresAt?: number;
  scopes: string[];
  /** Revoked with auth.revoke from the console (a refresh issues a new one). */
  revoked?: boolean;
  /**
   * When the platform issued it (epoch ms, the platform's time): of two tokens of one kind the later-issued
   * one wins (a write that raced a refresh, an old cookie imported). Absent only in records made before the
   * store (legacy-cookies.ts derives it).
   */
  issuedAt?: number;
}

/** What an installation's id looks like (installationIdFor); anything else names no installation (404). */
export const INSTALLATION_ID = /^[A-Za-z0-9-]{1,64}$/;

/** An app's name is the platform's to choose: what a cookie keeps of it is cut to this. */
export const MAX_APP_NAME_CHARS = 80;

/**
 * An app key as a cookie or a request names it. Before the legacy app had one name it was "emulator-legacy"
 * here: installation and OAuth state cookies sealed then, and scripts written then, still say so.
 */
export const appKeySchema = z.enum([...APP_KEYS, "emulator-legacy"]).transform((key): AppKey => (key === "emulator-legacy" ? "legacy" : key));

const storedTokenSchema = z.object({
  value: z.string().min(1),
  refreshToken: z.string().min(1).optional(),
  expiresAt: z.number().optional(),
  scopes: z.array(z.string()),
  revoked: z.boolean().optional(),
});

/**
 * What an installation cookie must hold once unsealed. A seal proves the server made it, not that this
 * version of the server did: a value of another shape reads as absent, like a tampered cookie.
 */
export const installationSchema = z.object({
  id: z.string().regex(INSTALLATION_ID),
  appKey: appKeySchema,
  appId: z.string().optional(),
  team: z.object({ id: z.string(), name: z.string() }),
  enterprise: z.object({ id: z.string(), name: z.string() }).optional(),
  isEnterpriseInstall: z.boolean().optional(),
  botUserId: z.string().optional(),
  botId: z.string().optional(),
  upstreamInstanceId: z.string().optional(),
  authedUserId: z.string().optional(),
  installedBy: z.string().optional(),
  bot: storedTokenSchema.optional(),
  user: storedTokenSchema.optional(),
  incomingWebhook: z.object({ url: z.string(), channel: z.string(), channelId: z.string(), configurationUrl: z.string().optional() }).optional(),
  state: z.enum(["active", "needs_reinstall"]),
  problem: z.string().optional(),
  appName: z.string().max(MAX_APP_NAME_CHARS).optional(),
  uninstalledAt: z.number().optional(),
  timeline: timelineSchema.optional(),
  installedAt: z.number(),
  updatedAt: z.number(),
}) satisfies z.ZodType<InstallationRecord>;

/** One installation. */
export interface InstallationRecord {
  id: string;
  appKey: AppKey;
  appId?: string;
  team: { id: string; name: string };
  enterprise?: { id: string; name: string };
  /**
   * Installed for a whole organisation (Enterprise Grid's is_enterprise_install): `team` is then the
   * organisation (the platform names no team), and its members see it from any of its workspaces.
   */
  isEnterpriseInstall?: boolean;
  botUserId?: string;
  /** The bot's id (B…), from auth.test with the bot token (at install; for older records, the token API's first answer). */
  botId?: string;
  /**
   * The emulator's instance_id when it was installed (/.well-known/emulator; absent on the platform): an
   * emulator that names another was reset or replaced, and never issued this installation's tokens.
   */
  upstreamInstanceId?: string;
  authedUserId?: string;
  /** The platform user who first installed it (authed_user of the first install), kept across reinstalls: who may manage it (lib/access). */
  installedBy?: string;
  bot?: StoredToken;
  /**
   * The user token this record acts with: one person's (user tokens belong to people: each member who
   * installed with user scopes keeps their own), chosen when the record is read (user-tokens.ts). Absent
   * when none of them is this request's to use.
   */
  user?: StoredToken;
  /** Whose user token `user` is: a platform user id, or "" for one that names no person (stored before tokens were per person). */
  userHolder?: string;
  /**
   * Every user token of the installation by whose it is ("" names no person), as read: what a save writes,
   * with `user` in its holder's place. Absent on a record made in memory (a grant, a cookie): then `user` is all.
   */
  userTokens?: Record<string, StoredToken>;
  incomingWebhook?: { url: string; channel: string; channelId: string; configurationUrl?: string };
  state: InstallationState;
  /** Why the installation needs reinstalling: the platform's error code (`uninstalled` after apps.uninstall). */
  problem?: string;
  /** The app's name when the upstream tells it (the emulator's manifest); the app id names it otherwise. */
  appName?: string;
  /**
   * Set once apps.uninstall succeeded: the record stays (state needs_reinstall, no tokens, no webhook) so its
   * timeline does, until it is reinstalled or forgotten.
   */
  uninstalledAt?: number;
  /**
   * Newest first; masked values only (timeline.ts). A record read from the store holds the newest entries it
   * was read with (none on the hot path); entries an action puts first are appended by the next save.
   */
  timeline?: TimelineEntry[];
  /** Whether the store holds older entries than `timeline` shows (GET /api/installations/{id}/timeline pages them). */
  timelineMore?: boolean;
  installedAt: number;
  updatedAt: number;
  /** The store's version this record was read at: the next save expects it (store.ts). */
  version?: number;
}

const ID_SAFE = /[^A-Za-z0-9]/g;

/** One id per (team, app): installing the same app into the same team again replaces the record. */
export function installationIdFor(teamId: string, appId: string | undefined, appKey: AppKey): string {
  return `${teamId.replace(ID_SAFE, "")}-${(appId ?? appKey).replace(ID_SAFE, "")}`.slice(0, 64);
}

/** The installation's token of this kind, or 400 no_token. */
export function requireToken(installation: InstallationRecord, kind: TokenKind): StoredToken {
  const token = installation[kind];
  if (!token) throw new AppError("no_token", { message: `This installation has no ${kind} token.` });
  return token;
}

/** Its long-lived token of this kind, the one oauth.v2.exchange takes: 409 already_rotating for one that rotates. */
export function requireLongLivedToken(installation: InstallationRecord, kind: TokenKind): StoredToken {
  const token = requireToken(installation, kind);
  if (token.refreshToken) {
    throw new AppError("already_rotating", {
      message: `This ${kind} token already rotates: it was exchanged (or issued with rotation on), and a token is exchanged once.`,
    });
  }
  return token;
}

export function storedTokenFrom(token: IssuedToken, nowMs: number): StoredToken {
  return {
    value: token.accessToken,
    ...(token.refreshToken ? { refreshToken: token.refreshToken } : {}),
    ...(token.expiresInS !== undefined && token.refreshToken ? { expiresAt: nowMs + token.expiresInS * 1000 } : {}),
    scopes: token.scopes,
    issuedAt: nowMs,
  };
}

/**
 * What of a previous record's authorization a new grant may keep: everything while it lives, so exchanging
 * only the bot token keeps the user tokens; nothing once it died (needs reinstall, or uninstalled), since
 * its tokens and webhook died with it (spec 3, rows 2, 7 and 8). A token that works again (an exchanged
 * one, pasted) comes from another authorization and never brings them back.
 */
function livingAuthorization(previous: InstallationRecord | undefined): {
  bot?: StoredToken;
  userTokens: Record<string, StoredToken>;
  incomingWebhook?: InstallationRecord["incomingWebhook"];
} {
  if (!previous || previous.state !== "active" || previous.uninstalledAt) return { userTokens: {} };
  return {
    ...(previous.bot ? { bot: previous.bot } : {}),
    userTokens: allUserTokens(previous),
    ...(previous.incomingWebhook ? { incomingWebhook: previous.incomingWebhook } : {}),
  };
}

/**
 * Builds (or updates) an installation from an oauth.v2.access / oauth.v2.exchange grant. Tokens and the
 * webhook the grant does not carry keep their previous values while the previous authorization lives
 * (livingAuthorization); names and ids always do. A grant's user token is its authed user's: each person
 * who installs with user scopes keeps their own (user-tokens.ts), and installing again updates the one
 * installation. An exchanged user token stays with whoever held the long-lived one (`userHolder`).
 * An organisation-wide install names no team: the organisation stands in its place.
 */
export function installationFromGrant(
  grant: TokenGrant,
  appKey: AppKey,
  nowMs: number,
  previous?: InstallationRecord,
  appName?: string,
  options: { userHolder?: string } = {},
): InstallationRecord {
  const team = grant.team ?? (grant.isEnterpriseInstall ? grant.enterprise : undefined) ?? previous?.team;
  if (!team) throw new Error("the platform's answer names no team");
  const appId = grant.appId ?? previous?.appId;
  const kept = livingAuthorization(previous);
  const bot = grant.bot ? storedTokenFrom(grant.bot, nowMs) : kept.bot;
  const userTokens = kept.userTokens;
  // A user token stored before tokens were per person was the installer's of then: it becomes theirs by name
  // before this grant makes someone else the installer (user-tokens.ts counts a nameless one as the last installer's).
  if (userTokens[NOBODY] && previous?.authedUserId && !userTokens[previous.authedUserId]) {
    userTokens[previous.authedUserId] = userTokens[NOBODY];
    delete userTokens[NOBODY];
  }
  const grantHolder = options.userHolder ?? grant.authedUserId ?? NOBODY;
  if (grant.user) userTokens[grantHolder] = storedTokenFrom(grant.user, nowMs);
  const enterprise = grant.enterprise ?? previous?.enterprise;
  const isEnterpriseInstall = grant.isEnterpriseInstall ?? previous?.isEnterpriseInstall;
  const botUserId = grant.botUserId ?? previous?.botUserId;
  // The same bot user is the same bot; another (a reinstall on a replaced emulator) is learned again.
  const botId = botUserId === previous?.botUserId ? previous?.botId : undefined;
  const authedUserId = grant.authedUserId ?? previous?.authedUserId;
  const installedBy = previous?.installedBy ?? grant.authedUserId;
  const incomingWebhook = grant.incomingWebhook ?? kept.incomingWebhook;
  const name = (appName ?? previous?.appName)?.slice(0, MAX_APP_NAME_CHARS);
  const record: InstallationRecord = {
    id: previous?.id ?? installationIdFor(team.id, appId, appKey),
    appKey,
    ...(appId ? { appId } : {}),
    team,
    ...(enterprise ? { enterprise } : {}),
    ...(isEnterpriseInstall ? { isEnterpriseInstall } : {}),
    ...(botUserId ? { botUserId } : {}),
    ...(botId ? { botId } : {}),
    ...(previous?.upstreamInstanceId ? { upstreamInstanceId: previous.upstreamInstanceId } : {}),
    ...(authedUserId ? { authedUserId } : {}),
    ...(installedBy ? { installedBy } : {}),
    ...(bot ? { bot } : {}),
    ...(incomingWebhook ? { incomingWebhook } : {}),
    state: "active",
    ...(name ? { appName: name } : {}),
    ...(previous?.timeline ? { timeline: previous.timeline } : {}),
    installedAt: previous?.installedAt ?? nowMs,
    updatedAt: nowMs,
    ...(previous?.version !== undefined ? { version: previous.version } : {}),
  };
  // It acts with the token this grant issued; without one, with whichever the previous record acted with.
  const holder = grant.user
    ? grantHolder
    : previous?.userHolder !== undefined && userTokens[previous.userHolder]
      ? previous.userHolder
      : installationHolder(userTokens, authedUserId);
  return actingAs(record, userTokens, holder);
}

function tokenView(token: StoredToken | undefined): TokenView | null {
  if (!token) return null;
  return {
    masked: maskToken(token.value),
    ...(token.refreshToken ? { maskedRefreshToken: maskToken(token.refreshToken) } : {}),
    expiresAt: token.expiresAt ?? null,
    rotating: Boolean(token.refreshToken),
    revoked: token.revoked ?? false,
    scopes: token.scopes,
  };
}

/** The view with no token said to live longer than the platform's lifetime from `nowMs` (the platform's time). */
export function withCappedExpiries(view: InstallationView, nowMs: number): InstallationView {
  const cap = (token: TokenView | null): TokenView | null => (token?.expiresAt != null ? { ...token, expiresAt: cappedExpiry(token.expiresAt, nowMs) } : token);
  return { ...view, bot: cap(view.bot), user: cap(view.user), userTokens: view.userTokens.map((t) => ({ ...t, token: cap(t.token)! })) };
}

export function toInstallationView(installation: InstallationRecord): InstallationView {
  const hook = installation.incomingWebhook;
  const app = { key: installation.appKey, id: installation.appId ?? null, name: installation.appName ?? null };
  return {
    id: installation.id,
    name: installationName(installation.team, app),
    app,
    team: installation.team,
    enterprise: installation.enterprise ?? null,
    isEnterpriseInstall: installation.isEnterpriseInstall ?? false,
    botUserId: installation.botUserId ?? null,
    authedUserId: installation.authedUserId ?? null,
    installedBy: installation.installedBy ?? null,
    state: installation.state,
    problem: installation.problem ?? null,
    bot: tokenView(installation.bot),
    user: tokenView(installation.user),
    userHolder: installation.userHolder || null,
    userTokens: Object.entries(allUserTokens(installation)).map(([holder, token]) => ({ userId: holder || null, token: tokenView(token)! })),
    incomingWebhook: hook ? { channel: hook.channel, channelId: hook.channelId, maskedUrl: maskWebhookUrl(hook.url) } : null,
    uninstalledAt: installation.uninstalledAt ?? null,
    timeline: installation.timeline ?? [],
    timelineMore: installation.timelineMore ?? false,
    installedAt: installation.installedAt,
    updatedAt: installation.updatedAt,
  };
}

/** The parts of an installation whose change must reach the store: its tokens, its state, its newest timeline entry. */
export function tokenFingerprint(installation: InstallationRecord): string {
  const t = (s: StoredToken | undefined) => (s ? [s.value, s.refreshToken ?? "", s.expiresAt ?? 0, s.revoked ? 1 : 0] : null);
  return JSON.stringify([
    t(installation.bot),
    t(installation.user),
    installation.state,
    installation.problem ?? "",
    installation.uninstalledAt ?? 0,
    installation.timeline?.length ?? 0,
    installation.timeline?.[0] ?? null,
  ]);
}
