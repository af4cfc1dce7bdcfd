import type { TimelineEntry } from "./timeline";
import type { InstallationPhase, TokenFacts } from "./lifecycle";

/**
 * What the browser sees of an installation, and how every page names one. Client components import this
 * module, so it holds no token and imports nothing that runs: the sealed record, with its tokens, its schema
 * and how it becomes this view, is record.ts (server-only).
 */

/**
 * Which app's credentials refresh and exchange an installation's tokens: the console's own, or (with the
 * embedded emulator) the emulator's legacy app, the one without token rotation that `/oauth/install?app=legacy`
 * installs. Its key is the emulator's name for it too (defaultAppCredentials(seed, "legacy")).
 */
export const APP_KEYS = ["console", "legacy"] as const;

export type AppKey = (typeof APP_KEYS)[number];

export type InstallationState = "active" | "needs_reinstall";

export interface TokenView {
  masked: string;
  maskedRefreshToken?: string;
  /** Epoch ms; null for a long-lived token. */
  expiresAt: number | null;
  rotating: boolean;
  revoked: boolean;
  scopes: string[];
}

/** What auth.test says a working token is: its workspace, its user (the bot user for a bot token) and the workspace's URL. */
export interface TokenIdentity {
  team: string | null;
  teamId: string | null;
  user: string | null;
  userId: string | null;
  url: string | null;
}

/** What the browser may see of an installation: no token, refresh token or webhook URL. */
export interface InstallationView {
  id: string;
  /** "Switchboard Rotation in Emulated Workspace 2": the app and the workspace (installationName). */
  name: string;
  app: NamedApp;
  team: { id: string; name: string };
  enterprise: { id: string; name: string } | null;
  /** Installed for the whole organisation (`team` then names the organisation). */
  isEnterpriseInstall: boolean;
  botUserId: string | null;
  authedUserId: string | null;
  /** The platform user who first installed it (kept across reinstalls): with admins, who may revoke, uninstall, forget and exchange. */
  installedBy: string | null;
  state: InstallationState;
  problem: string | null;
  bot: TokenView | null;
  /** The user token this person acts with: their own (user tokens belong to people), or none. */
  user: TokenView | null;
  /** Whose `user` is: a platform user id, or null (a token stored before tokens were per person names nobody). */
  userHolder: string | null;
  /** Every person's user token in this installation (one per person who installed with user scopes), `user`'s too. */
  userTokens: Array<{ userId: string | null; token: TokenView }>;
  incomingWebhook: { channel: string; channelId: string; maskedUrl: string } | null;
  uninstalledAt: number | null;
  /** Newest first, masked values only. */
  timeline: TimelineEntry[];
  /** Older entries than `timeline` holds are kept: GET /api/installations/{id}/timeline pages through them. */
  timelineMore?: boolean;
  installedAt: number;
  updatedAt: number;
}

/** What names an installation's app: its name when the upstream tells it (the emulator's manifest), else its id. */
export interface NamedApp {
  key: AppKey;
  id: string | null;
  name: string | null;
}

/**
 * How every page names an installation: the app and the workspace, "Switchboard Rotation in Emulated
 * Workspace 2". One workspace can hold several apps side by side (the console's and the emulator's legacy
 * app, or apps of your own), and their tokens, scopes, webhooks and mentions must not look alike. The app's
 * name comes from the emulator's manifest; against the real platform, which tells a token's holder no app
 * name, its app id ("A0123ABCD in Acme"). Given only an app key (an older caller), the workspace is named
 * with "· legacy app" for the emulator's legacy app, as before.
 */
export function installationName(team: { id: string; name: string }, app: AppKey | NamedApp): string {
  const workspace = team.name || team.id;
  if (typeof app === "string") return `${workspace}${app === "legacy" ? " · legacy app" : ""}`;
  const appLabel = app.name || app.id || (app.key === "legacy" ? "The emulator's legacy app" : "The console's app");
  return `${appLabel} in ${workspace}`;
}

/** Where the installation stands in the token lifecycle as a whole (lifecycle.ts). */
export function installationPhase(installation: Pick<InstallationView, "state" | "uninstalledAt">): InstallationPhase {
  if (installation.uninstalledAt) return "uninstalled";
  return installation.state;
}

/** What the lifecycle model needs of a token: never its value. */
export function tokenFactsOf(token: TokenView): TokenFacts {
  return { rotating: token.rotating, expiresAt: token.expiresAt, revoked: token.revoked };
}

/**
 * What the token and installation action routes answer: POST /api/tokens/{test,refresh,revoke,exchange},
 * POST /api/installations/{id}/uninstall and DELETE /api/installations/{id}.
 */
export interface InstallationActionAnswer {
  /** The platform's `ok` for the actions that call it (test, revoke, uninstall); true otherwise. */
  ok: boolean;
  /** The platform's JSON (test, revoke, uninstall), or null when it answered none. */
  platform?: unknown;
  /** Test: whether the token was refreshed before auth.test. */
  refreshed?: boolean;
  /** Test: who the token is, as auth.test answered it; null when it failed. */
  identity?: TokenIdentity | null;
  /** The installation as the action left it, its timeline included (all but forget). */
  installation?: InstallationView;
  /** Forget: the id of the installation forgotten. */
  forgotten?: string;
}
