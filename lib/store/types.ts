/**
 * What the store takes and gives: plain objects, secrets in clear (only ever in this process's memory; the
 * database holds them sealed). The shapes follow what the console keeps today (lib/session's
 * InstallationRecord, lib/webhooks, lib/app-config) so each moves over by a mapping, not a rewrite.
 */

export type StoreTokenKind = "bot" | "user";
export type StoreInstallationState = "active" | "needs_reinstall";

export interface StoreToken {
  value: string;
  /** Rotating tokens only. */
  refreshToken?: string;
  /** Epoch ms by this server's clock; absent for long-lived tokens. */
  expiresAt?: number;
  scopes: string[];
  revoked?: boolean;
  /**
   * When the platform issued it (epoch ms, the platform's time as the console knows it): of two tokens of
   * one kind, the one issued later wins (importInstallation, settleRefresh).
   */
  issuedAt: number;
}

export interface StoreIncomingWebhook {
  url: string;
  channel: string;
  channelId: string;
  configurationUrl?: string;
}

/** An installation with its bot and user tokens and its incoming webhook (what /api/call needs). */
export interface StoreInstallation {
  id: string;
  appKey: string;
  appId?: string;
  appName?: string;
  team: { id: string; name: string };
  enterprise?: { id: string; name: string };
  /** Installed for the whole organisation: `team` then names the organisation. */
  isEnterpriseInstall?: boolean;
  botUserId?: string;
  /** The bot's id (B…), from auth.test. */
  botId?: string;
  /** The emulator instance it was installed on (absent: the platform, or not known yet). */
  upstreamInstanceId?: string;
  authedUserId?: string;
  bot?: StoreToken;
  /** A user token that names no person (stored before user tokens were per person, or from a grant without authed_user). */
  user?: StoreToken;
  /** Each person's user token, by platform user id (one per installation and user: the row's user_id). */
  people?: Record<string, StoreToken>;
  incomingWebhook?: StoreIncomingWebhook;
  state: StoreInstallationState;
  problem?: string;
  uninstalledAt?: number;
  installedAt: number;
  updatedAt: number;
  /** Who installed it (the next issue's people); absent: the operator. */
  installedBy?: string;
}

/** What a list searches and filters by: an installation's names, ids and state, and its tokens' facts, with no secret. */
export type InstallationSummary = Pick<
  StoreInstallation,
  "id" | "appKey" | "appId" | "appName" | "team" | "enterprise" | "isEnterpriseInstall" | "state" | "authedUserId" | "installedBy" | "installedAt"
> & {
  tokens: Array<{ kind: StoreTokenKind; rotating: boolean; expiresAt: number | null; revoked: boolean }>;
};

/** An installation as read from the store: with the version its next conditional write must name. */
export interface StoredInstallation extends StoreInstallation {
  version: number;
}

/** A token row, for listings that also see per-person user tokens (userId set). */
export interface StoreTokenRow extends StoreToken {
  installationId: string;
  kind: StoreTokenKind;
  userId?: string;
}

/** A rotating token that expires soon, without its secrets: what a background refresher asks for. */
export interface ExpiringToken {
  installationId: string;
  kind: StoreTokenKind;
  userId?: string;
  expiresAt: number;
}

/** A due token as the background refresher claims it: its row's id names it in the claim. */
export interface ClaimableToken extends ExpiringToken {
  tokenId: number;
}

/** A timeline entry: the store keeps it as given (jsonb); the caller's schema checks it holds masked values only. */
export type StoreTimelineEntry = { at: number } & Record<string, unknown>;

export interface TimelinePage<E extends StoreTimelineEntry = StoreTimelineEntry> {
  /** Newest first, each with its sequence number. */
  entries: Array<{ seq: number; entry: E }>;
  /** Pass as `before` for the next (older) page; absent on the last page. */
  nextBefore?: number;
}

export interface RefreshIntent {
  id: number;
  installationId: string;
  kind: StoreTokenKind;
  userId?: string;
  /** The refresh token the refresher spends (the platform answers the same one again within its grace period). */
  refreshToken: string;
  startedAt: number;
}

/** How a refresh intent was settled: refreshed (the new pair stored), superseded (a newer token was already stored), failed (lib/installations/rotation/refresh.ts's RefreshOutcome is what the refresh answers). */
export type IntentOutcome = "refreshed" | "superseded" | `failed:${string}`;

export interface StorePastedWebhook {
  id: string;
  owner?: string;
  label: string;
  url: string;
  maskedUrl: string;
  createdAt: number;
}

/** One send of the webhook proxy, as its history keeps and shows it: what was sent and what came back, never the URL. */
export interface WebhookSend {
  id: string;
  webhookId: string;
  /** The webhook's label at the time of sending (its channel, or what the developer named it). */
  webhookLabel: string;
  sentAt: number;
  /** The start of the message text (or of the raw payload). */
  preview: string;
  /** The platform's HTTP status, or the proxy's own (400, 413, 502, 504) when there was no answer. */
  status: number;
  ok: boolean;
  /** The platform's plain-text answer, or the proxy's reason. */
  result: string;
  durationMs: number | null;
}

/** An app configuration token pair (lib/app-config/config-token-store.ts's StoredConfigToken). */
export interface StoreConfigToken {
  token: string;
  refreshToken: string;
  expiresAt: number;
  rotatedAt: number;
  teamId?: string;
  userId?: string;
}

/** A token API key as the store keeps it: never the key, only (elsewhere) its hash. */
export interface StoreApiKey {
  id: string;
  name: string;
  /** The key's first characters, to tell keys apart. */
  prefix: string;
  /** The app it serves: the console's app key, and the platform's app id when known. */
  appKey: string;
  appId?: string;
  /** The workspaces (or organisations) it may ask for; null: every one. */
  teamIds: string[] | null;
  createdAt: number;
  /** Who created it (a platform user id; absent: the operator). */
  createdBy?: string;
  revokedAt?: number;
  lastUsedAt?: number;
}

/** One use of the token API (its audit). */
export interface StoreTokenApiUse {
  keyId: string;
  teamId: string;
  installationId?: string;
  kind: "bot" | "user";
  userId?: string;
  refreshed: boolean;
  status: number;
  /** The error code answered, when it was not 200. */
  error?: string;
  at: number;
}
