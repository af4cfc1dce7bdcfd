/**
 * The emulator's shared types: the contract between its folders (options, apps, installations, tokens,
 * codes, the state, a request's context, Web API methods). Types only, and it imports only modules that
 * never import it back (events/types.ts, workspace/workspace.ts, core/request-body.ts), so any module may import it.
 */
import type { BodyLimits } from "./core/request-body";
import type { EventLog, EventsDisabled, RequestUrlVerification } from "./events/types";
import type { Workspace } from "./workspace/workspace";

export type { BodyLimits, Workspace };

/** A source of the current time, in epoch milliseconds. Tests inject a fake one. */
export interface Clock {
  now(): number;
}

/**
 * The platform's app manifest shape, reduced to the fields the emulator uses. Other keys (slash commands,
 * interactivity, app home, …) are kept as given and come back from apps.manifest.export, as on the platform.
 */
export interface AppManifest {
  _metadata?: { major_version?: number; minor_version?: number };
  display_information: { name: string; description?: string; background_color?: string; long_description?: string };
  features?: { bot_user?: { display_name: string; always_online?: boolean } };
  oauth_config?: {
    redirect_urls?: string[];
    scopes?: { bot?: string[]; user?: string[] };
  };
  settings?: {
    token_rotation_enabled?: boolean;
    org_deploy_enabled?: boolean;
    socket_mode_enabled?: boolean;
    is_hosted?: boolean;
    event_subscriptions?: { request_url?: string; bot_events?: string[]; user_events?: string[] };
  };
}

/** Event delivery: the same signature as the global fetch, injectable for tests. */
export type DeliverEvent = (url: string, init: RequestInit) => Promise<Response>;

export interface EmulatorOptions {
  /** Path prefix the emulator answers under: "" standalone, "/emulator" embedded in the console. */
  basePath?: string;
  /**
   * The base URL clients reach the emulator at, for the URLs it hands out (incoming webhooks, avatars,
   * workspace links). Default: the origin each request arrived at, plus basePath. A server behind a proxy
   * or a framework that rewrites the Host (Next.js answers 127.0.0.1 as localhost) sets it.
   */
  publicBaseUrl?: string;
  /** Time source (epoch ms). Default: the wall clock. */
  clock?: Clock;
  /** Members in each generated workspace (default 3000). */
  users?: number;
  /**
   * How many workspaces the emulated platform has (default 1): the first is generated from the seed, the
   * others from the seed and their number. An app installs into each separately, as on the platform.
   */
  workspaces?: number;
  /** Seed of the generated workspace and of the default apps' credentials (default "switchboard"). */
  seed?: string;
  /**
   * Each workspace starts with a history drawn from the seed (workspace/seed-content.ts: four channels of
   * messages, threads, reactions and files) rather than empty channels (default off; the console's turns it on).
   */
  seedContent?: boolean;
  /** How long a used refresh token is still accepted, replaying the same new pair (default 60). */
  refreshGraceSeconds?: number;
  /** How long a pagination cursor stays valid (default 900). */
  cursorTtlSeconds?: number;
  /** Rate limits per method tier, per workspace and app (default off). */
  rateLimits?: boolean;
  /**
   * The platform's 2025 limits for apps outside its Marketplace (default off): conversations.history and
   * conversations.replies take one call a minute (while rate limits are on) and page at most 15 objects.
   */
  nonMarketplaceRateLimits?: boolean;
  /** App manifests. Default: the two default apps, "rotation" (token rotation on) and "legacy" (off). */
  apps?: AppManifest[];
  /** Redirect URLs registered on the default apps, besides http://localhost:3000/oauth/callback. */
  redirectUrls?: string[];
  /** The default apps' event_subscriptions.request_url. */
  eventsRequestUrl?: string;
  /** How events are POSTed to an app's request URL (default: the global fetch). */
  deliverEvent?: DeliverEvent;
  /**
   * The only event request URLs an app may subscribe (default: any). The admin surface takes manifests
   * from whoever reaches it, and the emulator POSTs events to their request_url: the console's embedded
   * emulator allows only the console's own /api/events, so it cannot be aimed at another host.
   */
  eventRequestUrls?: string[];
  /**
   * The largest request body each surface reads, in bytes; past it the emulator answers 413 without reading
   * further (default: 1 MB for Web API methods and OAuth, 64 KB for the admin surface, 40 KB for incoming webhooks).
   */
  maxBodyBytes?: Partial<BodyLimits>;
  /** Who may use the admin surface (admin/admin-guard.ts). */
  admin?: AdminAccessOptions;
  /**
   * A directory to keep the state in across restarts (persist/journal.ts; created if missing, one emulator
   * at a time). Default: none, the state lives in memory for as long as the emulator runs.
   */
  dataDir?: string;
  /**
   * The ws:// (or wss://) base of the URLs apps.connections.open answers, without the `/link/` path: where
   * Socket Mode upgrades are taken. Default: the request's base URL with ws for http. The console names its own
   * loopback socket server here (lib/embedded-emulator-sockets.ts). May start that server on first use.
   */
  socketModeUrl?: () => Promise<string>;
  /** Where the emulator says what it dropped on reading its data directory back (default: console.warn). */
  warn?: (message: string) => void;
}

/**
 * The admin surface's access rules. A server reachable only on loopback answers browsers of its own pages
 * (by Origin and Host) and scripts that say its origin; one reachable beyond loopback answers the token only.
 */
export interface AdminAccessOptions {
  /** The surface's credential: `Authorization: Bearer <token>` is let in without an Origin, whatever the Host. */
  token?: string;
  /** Refuse every admin request that does not carry the token (the server is exposed). Requires `token`. */
  requireToken?: boolean;
  /**
   * Something in front of the surface lets a request without the token through only for a signed-in person
   * (the console when people sign in): a script gets in with the token alone, so the index page's command
   * names it. The emulator's own guard is unchanged.
   */
  scriptsNeedToken?: boolean;
  /**
   * The Host names browsers reach the surface at (core/hosts.ts): another Host is refused, and an Origin
   * must name one of them (or publicBaseUrl). Default: any Host, and the origin each request arrived at.
   */
  allowedHosts?: string[];
}

/** Options with every default filled in. */
export interface ResolvedOptions {
  basePath: string;
  publicBaseUrl: string | undefined;
  users: number;
  workspaces: number;
  seed: string;
  seedContent: boolean;
  refreshGraceSeconds: number;
  cursorTtlSeconds: number;
  rateLimits: boolean;
  nonMarketplaceRateLimits: boolean;
  apps: AppManifest[];
  redirectUrls: string[];
  eventsRequestUrl: string | undefined;
  deliverEvent: DeliverEvent;
  /** Undefined: any request URL. */
  eventRequestUrls: string[] | undefined;
  socketModeUrl: (() => Promise<string>) | undefined;
  maxBodyBytes: BodyLimits;
  admin: { token: string | undefined; requireToken: boolean; scriptsNeedToken: boolean; allowedHosts: string[] | undefined };
}

/** An app registered with the emulator: its manifest plus the credentials the platform would issue. */
export interface App {
  id: string;
  clientId: string;
  clientSecret: string;
  signingSecret: string;
  manifest: AppManifest;
  name: string;
  botScopes: string[];
  userScopes: string[];
  redirectUrls: string[];
  tokenRotationEnabled: boolean;
  eventsRequestUrl: string | undefined;
  botEvents: string[];
  /** The manifest's user events (absent in apps saved before they were read: none). */
  userEvents?: string[];
  /**
   * Set when the platform turned the app's event subscriptions off: fewer than 5% of its deliveries succeeded
   * in 60 minutes (events/event-health.ts). Cleared from the admin surface, as from the app's settings.
   */
  eventsDisabled?: EventsDisabled;
  /** The latest url_verification of the app's event request URL (none without one). */
  requestUrlVerification?: RequestUrlVerification;
}

export interface IncomingWebhook {
  hookId: string;
  channelId: string;
  channelName: string;
  /** The secret last path segment of {base}/services/{teamId}/{hookId}/{secret}. */
  secret: string;
  configurationUrl: string;
}

/** One app installed in the workspace. Reinstalling the same app reuses it. */
export interface Installation {
  id: string;
  teamId: string;
  appId: string;
  botUserId: string;
  botId: string;
  /** The user who clicked "Allow": owner of the user token. */
  authedUserId: string;
  botScopes: string[];
  userScopes: string[];
  incomingWebhook?: IncomingWebhook;
  installedAt: number;
  uninstalled: boolean;
  /** Successful refresh grants served (replays within the grace period not counted). */
  refreshGrants: number;
  /**
   * Refresh requests answered with tokens, grace-period replays included: a client that refreshes once
   * per refresh token keeps this equal to refreshGrants.
   */
  refreshRequests: number;
  /** Channels the bot user joined (conversations.join). */
  joinedChannels: Set<string>;
}

export type TokenKind = "bot" | "user" | "refresh";
/** What a token is. "expired" is not stored: it follows from expiresAt and the clock. */
export type StoredTokenState = "active" | "revoked" | "exchanged";
export type TokenState = StoredTokenState | "expired";

export interface TokenRecord {
  value: string;
  kind: TokenKind;
  installationId: string;
  appId: string;
  teamId: string;
  /** For a refresh token: which access token family it renews. For an access token: its own kind. */
  family: "bot" | "user";
  /**
   * The user family's: the member the token acts for (whoever installed with user scopes: each keeps their
   * own user token); a refresh or exchange hands it on to the token it issues.
   */
  userId?: string;
  /** Issued under token rotation (xoxe.… access tokens and xoxe-… refresh tokens). */
  rotating: boolean;
  state: StoredTokenState;
  issuedAt: number;
  /** Epoch ms; absent for long-lived tokens and refresh tokens. */
  expiresAt?: number;
  revokedAt?: number;
  /** Refresh tokens: when it was first used, and the pair that use issued (replayed in the grace period). */
  usedAt?: number;
  replacement?: { accessToken: string; refreshToken: string };
  /** Long-lived tokens after oauth.v2.exchange: the expiring access token issued for it. */
  exchangedFor?: string;
  /** Expiring tokens issued by oauth.v2.exchange: the long-lived token they replaced. */
  exchangedFrom?: string;
}

/**
 * An app-level token (`xapp-1-…`, socket-mode/app-tokens.ts): the app's own, made on its settings page, with
 * its own scopes (`connections:write` opens Socket Mode connections).
 */
export interface AppTokenRecord {
  value: string;
  appId: string;
  /** Unique among the app's active tokens. */
  name: string;
  scopes: string[];
  createdAt: number;
  revokedAt?: number;
}

/**
 * An app configuration token, for the platform's App Manifest API (outside the spec, docs/spec/web-api.md). A developer generates a pair per
 * workspace; it belongs to that member, not to an app or an installation, and works only for the
 * apps.manifest.* methods. The access token (xoxe.xoxp-1-…) expires after 12 hours; the refresh token
 * (xoxe-1-…) is exchanged once for a new pair by tooling.tokens.rotate.
 */
export interface ConfigTokenRecord {
  value: string;
  kind: "access" | "refresh";
  teamId: string;
  /** The member the token belongs to. */
  userId: string;
  issuedAt: number;
  /** Access tokens only: epoch ms. */
  expiresAt?: number;
  /** Refresh tokens: when it was first used, and the pair that use issued (replayed in the grace period). */
  usedAt?: number;
  replacement?: { token: string; refreshToken: string };
}

/** An OAuth authorization code (single use, 10 minutes). */
export interface AuthCode {
  code: string;
  appId: string;
  teamId: string;
  userId: string;
  botScopes: string[];
  userScopes: string[];
  redirectUri: string;
  /** The channel picked for the incoming webhook, when incoming-webhook was granted. */
  webhookChannelId?: string;
  issuedAt: number;
  expiresAt: number;
  used: boolean;
}

/**
 * A "Sign in with" code (openid/authorize.ts): single use, the same 10 minutes as an install's code, and
 * redeemable only at openid.connect.token (an install's code is not, nor the other way round).
 */
export interface SignInCode {
  code: string;
  appId: string;
  teamId: string;
  /** The member who signed in. */
  userId: string;
  /** Among openid, profile, email; openid always. */
  scopes: string[];
  redirectUri: string;
  /** Whether authorize was given redirect_uri: openid.connect.token then requires the same one. */
  redirectUriSent: boolean;
  nonce?: string;
  /** When the person chose to sign in (epoch ms): the ID token's auth_time. */
  authTime: number;
  issuedAt: number;
  expiresAt: number;
  used: boolean;
}

/**
 * The user token a sign-in hands out (xoxp-…): it belongs to the member and the app, not to an
 * installation (signing in installs nothing), and answers openid.connect.userInfo.
 */
export interface SignInToken {
  value: string;
  appId: string;
  teamId: string;
  userId: string;
  scopes: string[];
  authTime: number;
  issuedAt: number;
}

/**
 * A message chat.scheduleMessage queued: posted to its channel once the emulator's clock passes post_at
 * (the next Web API call after that moment delivers it), until then listed by chat.scheduledMessages.list.
 */
export interface ScheduledMessage {
  id: string;
  teamId: string;
  channelId: string;
  appId: string;
  installationId: string;
  /** The author: the bot user (with botId) or the member of a user token. */
  user: string;
  botId?: string;
  /** Epoch seconds. */
  postAt: number;
  dateCreated: number;
  text: string;
  blocks?: unknown[];
  attachments?: unknown[];
  threadTs?: string;
}

/** A channel bookmark (bookmarks.add), in the platform's shape. */
export interface Bookmark {
  id: string;
  teamId: string;
  channel_id: string;
  title: string;
  link: string;
  emoji: string | null;
  icon_url: string | null;
  type: "link";
  entity_id: string | null;
  /** Epoch seconds; date_updated is 0 until the first edit. */
  date_created: number;
  date_updated: number;
  rank: string;
  last_updated_by_user_id: string;
  last_updated_by_team_id: string;
  shortcut_id: string | null;
  app_id: string | null;
}

export interface FaultSettings {
  /** Added to every response. */
  latencyMs: number;
  /** Fraction 0..1 of requests answered with HTTP 500. */
  errorRate: number;
  /** Fraction 0..1 of requests whose connection is dropped. */
  dropRate: number;
  /** When non-empty, only these Web API methods are affected. */
  methods: string[];
}

export interface EmulatorState {
  /**
   * Names this emulator's state: made when the state is created, new after POST /admin/reset. A client that
   * remembers it (the console, with each installation) notices an emulator that was reset or replaced.
   */
  instanceId: string;
  apps: Map<string, App>;
  installations: Map<string, Installation>;
  tokens: Map<string, TokenRecord>;
  /** App configuration tokens (access and refresh) by value: apart from the OAuth tokens, which belong to installations. */
  configTokens: Map<string, ConfigTokenRecord>;
  /** App-level tokens (xapp-1-…) by value (socket-mode/app-tokens.ts). */
  appTokens: Map<string, AppTokenRecord>;
  codes: Map<string, AuthCode>;
  /** "Sign in with" codes and the tokens they were exchanged for (openid/). */
  signIns: { codes: Map<string, SignInCode>; tokens: Map<string, SignInToken> };
  /** The first workspace: where a consent page without a chosen workspace installs. */
  workspace: Workspace;
  /** Every workspace by team id, the first included. */
  workspaces: Map<string, Workspace>;
  /** Each workspace's events by team id, kept by the events module (events/deliveries.ts). */
  eventLogs: Map<string, EventLog>;
  /** chat.scheduleMessage's queue by scheduled_message_id, every workspace's (web-api/methods/chat-scheduled.ts). */
  scheduledMessages: Map<string, ScheduledMessage>;
  /** Channel bookmarks by id, every workspace's (web-api/methods/bookmarks.ts). */
  bookmarks: Map<string, Bookmark>;
  rateLimitsEnabled: boolean;
  /** The non-Marketplace profile (web-api/rate-limit.ts). */
  nonMarketplaceLimits: boolean;
  /** Recent request times (epoch ms) per rate-limit key, newest last. */
  rateWindows: Map<string, number[]>;
  faults: FaultSettings;
}

/** The context every handler (Web API method, webhook, admin route) gets. */
export interface RequestContext {
  request: Request;
  state: EmulatorState;
  clock: Clock;
  options: ResolvedOptions;
  /** Absolute origin + basePath of this request, for example http://localhost:3000/emulator. */
  baseUrl: string;
}

/** Who is calling a token-authenticated method. */
export interface Caller {
  token: TokenRecord;
  installation: Installation;
  app: App;
  /** The scopes of this token (bot scopes for a bot token, user scopes for a user token). */
  scopes: string[];
}

export interface MethodContext extends RequestContext {
  /** Every parameter, from the query string, a form-encoded body or a JSON body (JSON values stringified). */
  params: Record<string, string>;
  /** The token presented (Authorization: Bearer, else the token parameter), whatever its state. */
  token: string | undefined;
  /** Set for auth "token" methods (verified active); null otherwise. */
  caller: Caller | null;
  /** Set for auth "client" methods: the app whose client_id and client_secret were given. */
  clientApp: App | null;
  /** Set for auth "config" methods: the app configuration token presented (its workspace and member). */
  developer: ConfigTokenRecord | null;
  /** The workspace the call is about: the caller's, else the first. */
  ws: Workspace;
}

export type RateTier = 1 | 2 | 3 | 4 | "special";

export interface MethodDefinition {
  name: string;
  tier: RateTier;
  /**
   * "token": a valid token is required (not_authed / invalid_auth / token_expired / token_revoked).
   * "client": client_id + client_secret (form or HTTP Basic) are checked by the handler's own rules.
   * "config": an app configuration token (the apps.manifest.* methods); bot and user tokens are refused.
   * "none": no credentials.
   */
  auth: "token" | "client" | "config" | "none";
  /**
   * Whether a JSON body's parameters are read (the platform's json_input_supported: auth.test,
   * chat.postMessage, conversations.join). Other methods ignore a JSON body.
   */
  json?: boolean;
  /** Any one of the listed scopes for the token's kind; otherwise missing_scope with needed/provided. */
  scopes?: { bot?: string[]; user?: string[] };
  /** For a cursor-paginated method: the name of the list it pages (members, channels, messages). */
  pages?: string;
  /** Returns the success body without `ok` (the router adds ok:true); throws WebApiError for errors. */
  handler(ctx: MethodContext): Promise<Record<string, unknown>> | Record<string, unknown>;
}
