/**
 * The store's tables (Drizzle), one schema for PGlite and PostgreSQL 15+. Migrations are generated from this
 * file (npm run db:generate, into lib/store/migrations) and run at start (migrate.ts). Secrets live only in
 * the `*_sealed` columns (sealing.ts: AES-256-GCM, the key's id in each value); a column beside a secret
 * holds only what a lookup needs without it: a SHA-256 hash, a masked form. Times are epoch ms (bigint).
 *
 * No `server-only` here: drizzle-kit loads this file outside Next.js.
 */
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

const ms = (name: string) => bigint(name, { mode: "number" });

/** An installation of an app into a workspace: its names and ids, its state, its incoming webhook. */
export const installations = pgTable(
  "installations",
  {
    id: text("id").primaryKey(),
    appKey: text("app_key").notNull(),
    appId: text("app_id"),
    appName: text("app_name"),
    teamId: text("team_id").notNull(),
    teamName: text("team_name").notNull(),
    enterpriseId: text("enterprise_id"),
    enterpriseName: text("enterprise_name"),
    /** Installed for the whole organisation (team_id then holds the organisation's id). */
    isEnterpriseInstall: boolean("is_enterprise_install").notNull().default(false),
    botUserId: text("bot_user_id"),
    /** The bot's id (B…), from auth.test: what Bolt's ignoreSelf compares. */
    botId: text("bot_id"),
    /** The emulator's instance_id when it was installed (/.well-known/emulator): a reset or replaced emulator names another. */
    upstreamInstanceId: text("upstream_instance_id"),
    authedUserId: text("authed_user_id"),
    state: text("state").notNull(),
    problem: text("problem"),
    uninstalledAt: ms("uninstalled_at"),
    installedAt: ms("installed_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
    /** Who first installed it (a platform user id); null: the operator of a console without sign-in, or unknown. */
    installedBy: text("installed_by"),
    /** Bumped by every write: the optimistic check of putInstallation, and what a cache compares. */
    version: integer("version").notNull().default(1),
    webhookChannel: text("webhook_channel"),
    webhookChannelId: text("webhook_channel_id"),
    webhookConfigurationUrl: text("webhook_configuration_url"),
    webhookUrlSealed: text("webhook_url_sealed"),
    /**
     * Its tokens' facts, kept by a trigger on `tokens` (migration 0008_installation_lists, its hand-written end) whoever writes
     * them: a token rotates (revoked or not); a long-lived token is not revoked; the soonest expiry of its
     * rotating, unrevoked tokens. What the lists filter on, with an index each.
     */
    rotating: boolean("rotating").notNull().default(false),
    legacy: boolean("legacy").notNull().default(false),
    nextExpiry: ms("next_expiry"),
    /** What a list's search looks in (names and ids, lower case, one per line): a trigram index finds any part of it. */
    search: text("search").generatedAlwaysAs(
      sql`lower(team_name || chr(10) || team_id || chr(10) || id || chr(10) || coalesce(enterprise_name, '') || chr(10) || coalesce(enterprise_id, '') || chr(10) || coalesce(app_name, '') || chr(10) || coalesce(app_id, '') || chr(10) || coalesce(installed_by, ''))`,
    ),
  },
  (t) => [
    index("installations_team_idx").on(t.teamId),
    check("installations_state_check", sql`${t.state} in ('active', 'needs_reinstall')`),
    // Lists read a page in (installed_at, id) order, after a cursor: one index per filter kept (issue 43).
    index("installations_list_idx").on(t.installedAt, t.id),
    index("installations_needs_reinstall_idx")
      .on(t.installedAt, t.id)
      .where(sql`${t.state} = 'needs_reinstall'`),
    index("installations_rotating_idx")
      .on(t.installedAt, t.id)
      .where(sql`${t.rotating}`),
    index("installations_legacy_idx")
      .on(t.installedAt, t.id)
      .where(sql`${t.legacy}`),
    // "Expiring" lists the soonest first: (next_expiry, id) is its order and its cursor.
    index("installations_next_expiry_idx")
      .on(t.nextExpiry, t.id)
      .where(sql`${t.state} = 'active' and ${t.nextExpiry} is not null`),
    index("installations_org_idx")
      .on(t.enterpriseId)
      .where(sql`${t.isEnterpriseInstall}`),
    // pg_trgm (PGlite loads it: backend.ts): a substring of a name or id, typed key by key, stays indexed.
    index("installations_search_idx").using("gin", sql`${t.search} gin_trgm_ops`),
  ],
);

/**
 * How many installations each list filter holds, per scope, kept by a trigger on `installations` in the
 * writing transaction (never counted on a read): key `<scope> <filter>`, scope `*` (everyone's), `team:<id>`
 * (a workspace's own installs) or `org:<id>` (an organisation-wide install), filter all, needs_reinstall,
 * rotating or legacy. "Expiring" moves with the clock, so it is counted on its index instead.
 */
export const installationCounts = pgTable("installation_counts", {
  key: text("key").primaryKey(),
  n: bigint("n", { mode: "number" }).notNull(),
});

/**
 * An installation's tokens: its bot token and its user token (user_id null), and later one user token per
 * person (user_id set). `issued_at` is when the platform issued the token (its clock, ms): an older token
 * never overwrites a newer one.
 */
export const tokens = pgTable(
  "tokens",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    installationId: text("installation_id")
      .notNull()
      .references(() => installations.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    userId: text("user_id"),
    valueSealed: text("value_sealed").notNull(),
    refreshTokenSealed: text("refresh_token_sealed"),
    /** SHA-256 (base64url) of the refresh token: finds a token by its refresh token without the secret. */
    refreshTokenHash: text("refresh_token_hash"),
    expiresAt: ms("expires_at"),
    scopes: text("scopes").array().notNull(),
    revoked: boolean("revoked").notNull().default(false),
    issuedAt: ms("issued_at").notNull(),
    /**
     * Until when (the database's clock, epoch ms) one instance's background refresher has claimed this token
     * (refresh-claims.ts): the others pass it by. A hint that spreads the work; the refresh lock is what
     * keeps a refresh token from being spent twice.
     */
    refreshClaimedUntil: ms("refresh_claimed_until"),
  },
  (t) => [
    uniqueIndex("tokens_installation_kind_user_idx").on(t.installationId, t.kind, sql`coalesce(${t.userId}, '')`),
    // What a background refresher asks: the rotating tokens that expire soonest.
    index("tokens_expires_idx")
      .on(t.expiresAt)
      .where(sql`${t.refreshTokenHash} is not null and not ${t.revoked}`),
    index("tokens_refresh_hash_idx").on(t.refreshTokenHash),
    check("tokens_kind_check", sql`${t.kind} in ('bot', 'user')`),
  ],
);

/** What happened to an installation's tokens, kept in full: masked values only (the timeline's own schema checks). */
export const timelineEntries = pgTable(
  "timeline_entries",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    installationId: text("installation_id")
      .notNull()
      .references(() => installations.id, { onDelete: "cascade" }),
    at: ms("at").notNull(),
    entry: jsonb("entry").notNull(),
  },
  (t) => [index("timeline_installation_seq_idx").on(t.installationId, t.seq)],
);

/**
 * A refresh about to be asked of the platform: recorded before the call, settled in the transaction that
 * stores its answer. One unsettled and younger than the grace period is replayed with the same refresh token.
 */
export const refreshIntents = pgTable(
  "refresh_intents",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    installationId: text("installation_id")
      .notNull()
      .references(() => installations.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    userId: text("user_id"),
    refreshTokenSealed: text("refresh_token_sealed").notNull(),
    refreshTokenHash: text("refresh_token_hash").notNull(),
    startedAt: ms("started_at").notNull(),
    settledAt: ms("settled_at"),
    /** refreshed, superseded (a newer pair was already stored), failed:<code>. */
    outcome: text("outcome"),
  },
  (t) => [
    index("refresh_intents_unsettled_idx")
      .on(t.startedAt)
      .where(sql`${t.settledAt} is null`),
    index("refresh_intents_hash_idx").on(t.refreshTokenHash),
  ],
);

/** Incoming webhooks people pasted: the URL sealed, a masked form to show, a hash to find a repeat paste. */
export const pastedWebhooks = pgTable(
  "pasted_webhooks",
  {
    id: text("id").primaryKey(),
    /** Who pasted it (the next issue's people); null: the operator. */
    owner: text("owner"),
    label: text("label").notNull(),
    urlSealed: text("url_sealed").notNull(),
    urlHash: text("url_hash").notNull(),
    maskedUrl: text("masked_url").notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [uniqueIndex("pasted_webhooks_owner_url_idx").on(sql`coalesce(${t.owner}, '')`, t.urlHash)],
);

/** The webhook proxy's send history: what was sent and what came back, never the URL. */
export const webhookSends = pgTable(
  "webhook_sends",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    id: text("id").notNull().unique(),
    owner: text("owner"),
    webhookId: text("webhook_id").notNull(),
    webhookLabel: text("webhook_label").notNull(),
    sentAt: ms("sent_at").notNull(),
    preview: text("preview").notNull(),
    status: integer("status").notNull(),
    ok: boolean("ok").notNull(),
    result: text("result").notNull(),
    durationMs: integer("duration_ms"),
  },
  (t) => [index("webhook_sends_owner_seq_idx").on(t.owner, t.seq)],
);

/** App configuration tokens people pasted, one pair per owner (null: the operator). */
export const configTokens = pgTable(
  "config_tokens",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    owner: text("owner"),
    tokenSealed: text("token_sealed").notNull(),
    refreshTokenSealed: text("refresh_token_sealed").notNull(),
    expiresAt: ms("expires_at").notNull(),
    rotatedAt: ms("rotated_at").notNull(),
    teamId: text("team_id"),
    userId: text("user_id"),
  },
  (t) => [uniqueIndex("config_tokens_owner_idx").on(sql`coalesce(${t.owner}, '')`)],
);

/**
 * API keys of the token API (lib/token-api): for the app's own backend. The key is shown once; only its
 * SHA-256 hash is kept (a key is 256 random bits: a fast hash is enough), with its first characters to
 * tell keys apart. Scoped to one app (its id, or the console's app key when the platform named none),
 * optionally to some workspaces.
 */
export const apiKeys = pgTable("api_keys", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  keyHash: text("key_hash").notNull().unique(),
  /** The key's first characters ("sbk_Ab3d"), never enough to use it. */
  prefix: text("prefix").notNull(),
  appKey: text("app_key").notNull(),
  appId: text("app_id"),
  /** Workspaces (or organisations) it may ask for; null: every one the app is installed in. */
  teamIds: jsonb("team_ids").$type<string[] | null>(),
  createdAt: ms("created_at").notNull(),
  createdBy: text("created_by"),
  revokedAt: ms("revoked_at"),
  lastUsedAt: ms("last_used_at"),
});

/** Every use of the token API: which key, which installation and token, whether it refreshed, what it answered. */
export const tokenApiUses = pgTable(
  "token_api_uses",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    keyId: text("key_id").notNull(),
    teamId: text("team_id").notNull(),
    installationId: text("installation_id"),
    kind: text("kind").notNull(),
    userId: text("user_id"),
    refreshed: boolean("refreshed").notNull(),
    status: integer("status").notNull(),
    error: text("error"),
    at: ms("at").notNull(),
  },
  (t) => [index("token_api_uses_key_seq_idx").on(t.keyId, t.seq)],
);

/** Sign-outs live in a file of their own (sign-out-schema.ts). */
export { signOuts } from "./sign-out-schema";

/** The explorer's history lives in a file of its own (history-schema.ts). */
export { explorerHistory } from "./history-schema";
/**
 * Saved requests' collections (lib/collections), one owner each (`<team id>:<user id>`; null: the operator).
 * Shared with the owner's team (read-only for its members) and by link: only the link's SHA-256 hash is kept,
 * so the store cannot give a link back, only recognise it.
 */
export const collections = pgTable(
  "collections",
  {
    id: text("id").primaryKey(),
    owner: text("owner"),
    /** The owner's name when they made it, to say whose a shared collection is. */
    ownerName: text("owner_name").notNull(),
    /** The owner's workspace: whom "shared with the team" means. Null: the operator. */
    teamId: text("team_id"),
    name: text("name").notNull(),
    sharedWithTeam: boolean("shared_with_team").notNull().default(false),
    linkHash: text("link_hash").unique(),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [
    index("collections_owner_idx").on(t.owner),
    index("collections_team_shared_idx")
      .on(t.teamId)
      .where(sql`${t.sharedWithTeam}`),
  ],
);

/** A named request of a collection, in its place: never a token (lib/collections refuses and strips them before). */
export const savedRequests = pgTable(
  "saved_requests",
  {
    id: text("id").primaryKey(),
    collectionId: text("collection_id")
      .notNull()
      .references(() => collections.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    method: text("method").notNull(),
    httpMethod: text("http_method").notNull(),
    encoding: text("encoding").notNull(),
    tokenKind: text("token_kind").notNull(),
    /** The arguments, in the order written: [{ key, value }]. */
    args: jsonb("args").$type<Array<{ key: string; value: string }>>().notNull(),
    /** Values taken from an earlier step's answer when the collection runs: [{ param, step, path }]. */
    bindings: jsonb("bindings").$type<Array<{ param: string; step: number; path: string }>>().notNull(),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [
    index("saved_requests_collection_idx").on(t.collectionId, t.position),
    check("saved_requests_http_method_check", sql`${t.httpMethod} in ('GET', 'POST')`),
    check("saved_requests_encoding_check", sql`${t.encoding} in ('form', 'json')`),
    check("saved_requests_token_kind_check", sql`${t.tokenKind} in ('bot', 'user')`),
  ],
);
