import "server-only";
import { sql } from "drizzle-orm";
import { openBackend, type Backend, type BackendOptions } from "./backend";
import { ApiKeyCache } from "./api-key-cache";
import * as apiKeys from "./api-keys";
import { insertInstallations } from "./bulk-insert";
import * as collections from "./collections";
import { pageInstallations, type ListPageRequest, type ListPageResult } from "./installation-lists";
import * as configTokens from "./config-tokens";
import * as history from "./history";
import type { StoreContext } from "./context";
import { metrics } from "@/lib/metrics";
import { mapStoreError } from "./errors";
import { InstallationCache, type InstallationRef } from "./installation-cache";
import * as installations from "./installations";
import * as intents from "./intents";
import { sealingStatus, type SealingStatus } from "./key-status";
import { resealOlderSecrets, type ResealOutcome } from "./reseal";
import * as refreshClaims from "./refresh-claims";
import { postgresRefreshLock, processRefreshLock, type RefreshLockOptions } from "./refresh-lock";
import { Sealer, type SealingKey } from "./sealing";
import { SignOutCache } from "./sign-out-cache";
import * as signOuts from "./sign-outs";
import type {
  ClaimableToken,
  ExpiringToken,
  StoreApiKey,
  StoreTokenApiUse,
  InstallationSummary,
  RefreshIntent,
  IntentOutcome,
  StoreConfigToken,
  StoredInstallation,
  StoreInstallation,
  StorePastedWebhook,
  StoreTimelineEntry,
  StoreTokenKind,
  StoreTokenRow,
  WebhookSend,
  TimelinePage,
} from "./types";
import * as webhooks from "./webhooks";
import type { OwnerFilter } from "./webhooks";

/** Installations with their tokens and webhooks, and their timelines. */
export interface InstallationsStore {
  /**
   * The installation, or null. Served from the cache unless `fresh`: anything that spends a refresh token asks `fresh: true` under the refresh lock.
   * `shared`: a cached record is the cache's own, deeply frozen, not a copy (for a reader that changes nothing: the token API's warm path).
   */
  get(id: string, options?: { fresh?: boolean; shared?: boolean }): Promise<StoredInstallation | null>;
  /**
   * What `get(id, { shared: true })` would answer from the cache, without a promise: the cache's own frozen
   * record (null: known absent), or undefined when only `get` can say (not cached, or the cache is off). The
   * token API's warm path, which answers with no `await` at all (each promise costs Next.js's async hooks).
   */
  peek(id: string): StoredInstallation | null | undefined;
  /** Every installation (or those installed by one person; null: the operator), oldest first. Not cached. */
  list(options?: { installedBy?: string | null }): Promise<StoredInstallation[]>;
  /** A workspace's (or organisation's) installations: ids and apps, no secret. Cached until an installation is made or deleted on any instance. */
  inTeam(teamId: string): Promise<InstallationRef[]>;
  /** What `inTeam` would answer from the cache, without a promise (the cache's own list, frozen), or undefined when only `inTeam` can say. */
  peekTeam(teamId: string): readonly InstallationRef[] | undefined;
  /** Every installation's names, ids, state and token facts, oldest first, in one query and without unsealing a secret (for lists). */
  listSummaries(): Promise<InstallationSummary[]>;
  /**
   * Writes an installation, its bot and user tokens and its webhook in one transaction (with timeline
   * entries if given), every secret sealed with the newest key; answers it with its new version. With
   * `expectVersion`, only over that version (0: only a new one), else VersionConflictError.
   */
  put(record: StoreInstallation, options?: installations.PutOptions): Promise<StoredInstallation>;
  /** Forgets an installation with everything of it (tokens, timeline, intents); false when there was none. */
  delete(id: string): Promise<boolean>;
  /** A page of a list of installations (no secret), searched and filtered on indexes, with each filter's kept count: installation-lists.ts. */
  page(request: ListPageRequest): Promise<ListPageResult>;
  /** New installations (each at version 1, with its timeline), many in one transaction: seeding (lib/ops/seed). A taken id fails the whole batch. */
  insertMany(records: Array<{ record: StoreInstallation; timeline?: StoreTimelineEntry[] }>): Promise<number>;
  /** Imports an earlier version's record: per token kind the one issued later wins; other fields from the later-updated record. */
  import(
    record: StoreInstallation,
    options?: { timeline?: StoreTimelineEntry[] },
  ): Promise<{ installation: StoredInstallation; outcome: installations.ImportOutcome }>;
  /** Every token of an installation, per-person user tokens included. */
  listTokens(installationId: string): Promise<StoreTokenRow[]>;
  /** Rotating, unrevoked tokens expiring at or before `before` (epoch ms), soonest first, no secrets: for a background refresher. */
  tokensExpiringBefore(before: number, limit?: number): Promise<ExpiringToken[]>;
  /** The expiry (epoch ms) of the rotating token of an active installation that expires first, or null when none rotates. */
  nearestTokenExpiry(): Promise<number | null>;
  /** Appends timeline entries in the order given (oldest first); does not change the installation's version. */
  appendTimeline(installationId: string, entries: StoreTimelineEntry[]): Promise<void>;
  /** A page of the timeline, newest first; `before` is the last page's nextBefore; limit 1 to 200 (default 50). */
  pageTimeline<E extends StoreTimelineEntry = StoreTimelineEntry>(
    installationId: string,
    options?: { before?: number; limit?: number },
  ): Promise<TimelinePage<E>>;
  /** The newest `limit` entries of each installation's timeline (default 50), in one query; none for an installation without. */
  newestTimelines<E extends StoreTimelineEntry = StoreTimelineEntry>(
    installationIds: readonly string[],
    options?: { limit?: number },
  ): Promise<Map<string, TimelinePage<E>>>;
}

/** Refresh intents: a refresh token about to be spent, recorded before the platform call and settled after it. */
export interface IntentsStore {
  /** Records, in its own transaction committed before the platform call, that a refresh token is about to be spent. */
  record(intent: { installationId: string; kind: StoreTokenKind; userId?: string; refreshToken: string; startedAt: number }): Promise<RefreshIntent>;
  /** Unsettled intents started at or after `startedAfter` (younger than the grace period), oldest first: to replay. */
  listUnsettled(options: { startedAfter: number; installationId?: string }): Promise<RefreshIntent[]>;
  /** The newest intent for a refresh token, with its outcome once settled: was this refresh token spent, and how did it end. */
  findByRefreshToken(refreshToken: string): Promise<(RefreshIntent & { settledAt?: number; outcome?: IntentOutcome }) | null>;
  /** Settles an intent in one transaction: the new pair stored (unless a newer one already is: superseded), the old one spent, timeline entries. */
  settle(input: intents.SettleInput): Promise<intents.SettleResult>;
  /** Forgets intents settled before `settledBefore` (past the grace period); unsettled ones stay. Answers how many. */
  pruneSettled(settledBefore: number): Promise<number>;
}

/** Pasted webhooks and the proxy's send history; `owner` EVERY_OWNER (for admins) reads, renames and removes whoever's. */
export interface WebhooksStore {
  list(owner: OwnerFilter): Promise<StorePastedWebhook[]>;
  get(owner: OwnerFilter, id: string): Promise<StorePastedWebhook | null>;
  /** Keeps a checked webhook URL (sealed); the same URL pasted again by the same owner answers the one kept. */
  add(hook: { owner: string | null; url: string; label: string; maskedUrl: string; createdAt: number; id?: string }): Promise<StorePastedWebhook>;
  rename(owner: OwnerFilter, id: string, label: string): Promise<StorePastedWebhook | null>;
  remove(owner: OwnerFilter, id: string): Promise<boolean>;
  /** Records a send; the owner's history keeps the newest `keep` (default 200). */
  recordSend(owner: string | null, send: WebhookSend, options?: { keep?: number }): Promise<void>;
  /** The owner's sends, newest first (default 50). */
  listSends(owner: string | null, limit?: number): Promise<WebhookSend[]>;
}

/** App configuration token pairs, one per owner. */
export interface ConfigTokensStore {
  get(owner: string | null): Promise<StoreConfigToken | null>;
  put(owner: string | null, value: StoreConfigToken): Promise<void>;
  delete(owner: string | null): Promise<boolean>;
}

/** Token API keys (lib/token-api): kept by hash, never the key; and the audit of their uses. */
export interface ApiKeysStore {
  create(key: StoreApiKey & { keyHash: string }): Promise<StoreApiKey>;
  list(): Promise<StoreApiKey[]>;
  findByHash(keyHash: string): Promise<StoreApiKey | null>;
  /** The key `findByHash` would answer from the cache, without a promise (frozen), or undefined when only `findByHash` can say (unknown keys are never cached). */
  peekByHash(keyHash: string): StoreApiKey | undefined;
  revoke(id: string, at: number): Promise<StoreApiKey | null>;
  /** Audits uses of the token API (a batch, oldest first) and marks each key's last use. */
  recordUses(uses: StoreTokenApiUse[]): Promise<void>;
  listUses(keyId: string, options?: { limit?: number; before?: number }): Promise<Array<StoreTokenApiUse & { seq: number }>>;
  /** Forgets uses audited before `before` (epoch ms); answers how many. */
  pruneUses(before: number): Promise<number>;
}

/** Collections of saved requests (lib/collections): who may read or change one is the caller's question. */
export interface CollectionsStore {
  list(filter: collections.CollectionListFilter): Promise<collections.StoreCollection[]>;
  countOwned(owner: string | null): Promise<number>;
  get(id: string): Promise<collections.StoreCollectionWithRequests | null>;
  findByLinkHash(linkHash: string): Promise<string | null>;
  create(input: collections.NewCollection): Promise<collections.StoreCollectionWithRequests>;
  update(id: string, patch: collections.CollectionPatch, at: number): Promise<collections.StoreCollectionWithRequests | null>;
  delete(id: string): Promise<boolean>;
  addRequest(
    collectionId: string,
    request: collections.StoreRequestFields & { id: string },
    at: number,
    max: number,
  ): Promise<collections.StoreSavedRequest | "full" | null>;
  updateRequest(
    collectionId: string,
    requestId: string,
    patch: Partial<collections.StoreRequestFields>,
    at: number,
  ): Promise<collections.StoreSavedRequest | null>;
  removeRequest(collectionId: string, requestId: string, at: number): Promise<boolean>;
  reorder(collectionId: string, ids: readonly string[], at: number): Promise<collections.StoreSavedRequest[] | "mismatch" | null>;
}

/** Sign-outs: how many times each person (`<team id>:<user id>`) signed out. */
export interface SignOutsStore {
  /** A sign-in sealed with a lower count is over. Cached per process, kept in step across instances by NOTIFY. */
  generation(person: string): Promise<number>;
  /** Counts a sign-out of the person, on every instance, and answers the new count. */
  record(person: string, at: number): Promise<number>;
}

/** The explorer's lasting history, per person (null: the operator), bounded on write (history.ts). */
export interface HistoryStore {
  /** Records an entry, pruning the owner's to the newest 1,000 and 30 days; answers its id. */
  record(owner: string | null, entry: history.NewHistoryEntry): Promise<string>;
  /** A page of the owner's entries, newest first, without answers. */
  list(owner: string | null, query?: history.HistoryQuery): Promise<history.HistoryPage>;
  /** One of the owner's entries with its answer, or null. */
  get(owner: string | null, id: string): Promise<history.StoreHistoryEntry | null>;
  /** Forgets the owner's history; answers how many entries. */
  clear(owner: string | null): Promise<number>;
}

/**
 * The store's API, grouped by what it keeps: installations (with their tokens, webhooks and timelines),
 * refresh intents, pasted webhooks and their send history, app configuration tokens, token API keys,
 * sign-outs and collections of saved requests; beside them the refresh lock and what an operator asks of the store itself. Plain objects in
 * and out; secrets in clear only in this process's memory. Every method is one short transaction (or one
 * statement): none is ever held across a call to the platform, so a refresher reads, records its intent,
 * calls the platform with nothing open, then settles. A database that cannot be reached answers 503
 * `store_unavailable` (an AppError, the one guard every method passes) and changes nothing. `owner` null is
 * the console's operator; a signed-in person's is `<team id>:<user id>`.
 */
/** How instances' background refreshers share a backlog of due tokens (refresh-claims.ts): a hint, the refresh lock is the guarantee. */
export interface RefreshClaimsStore {
  /** Rotating tokens of active installations expiring at or before `before` (epoch ms) that no instance has a live claim on, soonest first, no secrets. */
  unclaimedExpiringBefore(before: number, limit: number): Promise<ClaimableToken[]>;
  /** Claims these tokens (row ids) for `leaseMs` on the database's clock, skipping those another instance claims or holds; answers the ids claimed, each with its lease. */
  claim(tokenIds: readonly number[], leaseMs: number): Promise<Map<number, number>>;
  /** Gives these claims (id → the lease `claim` answered) back, or with `afterMs` keeps them that much longer from now; a claim another instance took since is left alone. */
  release(claims: ReadonlyMap<number, number>, afterMs?: number): Promise<void>;
}

export interface Store {
  readonly kind: "pglite" | "postgres";
  readonly installations: InstallationsStore;
  readonly intents: IntentsStore;
  readonly webhooks: WebhooksStore;
  readonly configTokens: ConfigTokensStore;
  readonly apiKeys: ApiKeysStore;
  readonly signOuts: SignOutsStore;
  readonly refreshClaims: RefreshClaimsStore;
  readonly history: HistoryStore;
  readonly collections: CollectionsStore;

  /** Runs `fn` holding the refresh lock of `key` (in this process and, with PostgreSQL, across instances); RefreshLockTimeoutError past `waitMs`. */
  withRefreshLock<T>(key: string, fn: () => Promise<T>, options?: RefreshLockOptions): Promise<T>;
  /** Asks the database for one row (readiness): resolves when it answers, 503 store_unavailable when it cannot be reached. */
  ping(): Promise<void>;
  /** Which keys the stored secrets are sealed with (one query, no secret opened): whether every one opens, which keys are still needed. */
  sealingStatus(): Promise<SealingStatus>;
  /** Re-seals with the current key every secret an older key sealed (the background pass at start; reseal.ts). */
  resealOlderSecrets(): Promise<ResealOutcome>;
  /** The installation cache's counters (hits, misses, invalidations) and whether it serves reads now. */
  cacheStats(): { hits: number; misses: number; invalidations: number; active: boolean };
  close(): Promise<void>;
}

export type OpenStoreOptions = BackendOptions & { keys: SealingKey[] };

/**
 * Every method is one transaction, so one the server ended to break a deadlock (40P01: two writers taking
 * the list counters of migration 0006 in a different order across statements) rolled back whole and is run
 * again, at most twice more.
 */
async function retryOnDeadlock<R>(run: () => Promise<R>): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const code = (error as { code?: unknown; cause?: { code?: unknown } }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
      if (code !== "40P01" || attempt >= 2) throw error;
    }
  }
}

/** Opens a store: the database (migrated), its cache (listening, with PostgreSQL) and its refresh lock. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const backend = await openBackend(options);
  try {
    return await storeOn(backend, options.keys);
  } catch (error) {
    await backend.close();
    throw error;
  }
}

/** The store over an opened backend (openStore's second half; tests also reach the backend's SQL directly). Closing it closes the backend unless `ownsBackend` is false. */
export async function storeOn(backend: Backend, keys: SealingKey[], options: { ownsBackend?: boolean } = {}): Promise<Store> {
  const cache = new InstallationCache(backend.dedicatedClient);
  await cache.start();
  const ctx: StoreContext = { db: backend.db, sealer: new Sealer(keys), cache, notifies: backend.kind === "postgres" };
  const signOutCache = new SignOutCache(backend.dedicatedClient);
  await signOutCache.start();
  const keyCache = new ApiKeyCache(backend.dedicatedClient);
  await keyCache.start();
  const keyCtx: apiKeys.ApiKeyContext = { ...ctx, keys: keyCache };
  const signOutCtx: signOuts.SignOutContext = { db: backend.db, cache: signOutCache, notifies: backend.kind === "postgres" };
  const lock = backend.lockPool ? postgresRefreshLock(backend.lockPool) : processRefreshLock();
  const where = backend.where;

  /** Every method: a lost database becomes 503 store_unavailable; one transaction ended by a deadlock runs again (not the refresh lock's holder, which calls the platform). */
  const guard =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>, options: { retry?: boolean } = {}) =>
    async (...args: A): Promise<R> => {
      try {
        return await (options.retry === false ? fn(...args) : retryOnDeadlock(() => fn(...args)));
      } catch (error) {
        const mapped = mapStoreError(where, error);
        // Only a database out of reach counts: a conflict or a lock wait is the store working as it should.
        if (mapped !== error) metrics().storeErrors.inc({ kind: backend.kind });
        throw mapped;
      }
    };

  return {
    kind: backend.kind,
    installations: {
      get: guard((id: string, o?: { fresh?: boolean; shared?: boolean }) => installations.getInstallation(ctx, id, o)),
      // No guard: the cache never reaches the database.
      peek: (id: string) => cache.get(id, { shared: true }),
      peekTeam: (teamId: string) => cache.getTeam(teamId, { shared: true }),
      list: guard((o?: { installedBy?: string | null }) => installations.listInstallations(ctx, o)),
      listSummaries: guard(() => installations.listInstallationSummaries(ctx)),
      inTeam: guard((teamId: string) => installations.installationsInTeam(ctx, teamId)),
      put: guard((record: StoreInstallation, o?: installations.PutOptions) => installations.putInstallation(ctx, record, o)),
      delete: guard((id: string) => installations.deleteInstallation(ctx, id)),
      page: guard((request: ListPageRequest) => pageInstallations(ctx, request)),
      insertMany: guard((records: Array<{ record: StoreInstallation; timeline?: StoreTimelineEntry[] }>) => insertInstallations(ctx, records)),
      import: guard((record: StoreInstallation, o?: { timeline?: StoreTimelineEntry[] }) => installations.importInstallation(ctx, record, o)),
      listTokens: guard((id: string) => installations.listTokens(ctx, id)),
      tokensExpiringBefore: guard((before: number, limit?: number) => installations.tokensExpiringBefore(ctx, before, limit)),
      nearestTokenExpiry: guard(async () => (await installations.tokensExpiringBefore(ctx, Number.MAX_SAFE_INTEGER, 1))[0]?.expiresAt ?? null),
      appendTimeline: guard((id: string, entries: StoreTimelineEntry[]) => installations.appendTimeline(ctx, id, entries)),
      pageTimeline: <E extends StoreTimelineEntry = StoreTimelineEntry>(id: string, o?: { before?: number; limit?: number }) =>
        guard(() => installations.pageTimeline<E>(ctx, id, o))(),
      newestTimelines: <E extends StoreTimelineEntry = StoreTimelineEntry>(ids: readonly string[], o?: { limit?: number }) =>
        guard(() => installations.newestTimelines<E>(ctx, ids, o))(),
    },
    intents: {
      record: guard((intent: Parameters<IntentsStore["record"]>[0]) => intents.recordRefreshIntent(ctx, intent)),
      listUnsettled: guard((o: { startedAfter: number; installationId?: string }) => intents.listUnsettledIntents(ctx, o)),
      findByRefreshToken: guard((refreshToken: string) => intents.findIntentByRefreshToken(ctx, refreshToken)),
      settle: guard((input: intents.SettleInput) => intents.settleRefresh(ctx, input)),
      pruneSettled: guard((settledBefore: number) => intents.pruneSettledIntents(ctx, settledBefore)),
    },
    webhooks: {
      list: guard((owner: OwnerFilter) => webhooks.listPastedWebhooks(ctx, owner)),
      get: guard((owner: OwnerFilter, id: string) => webhooks.getPastedWebhook(ctx, owner, id)),
      add: guard((hook: Parameters<WebhooksStore["add"]>[0]) => webhooks.addPastedWebhook(ctx, hook)),
      rename: guard((owner: OwnerFilter, id: string, label: string) => webhooks.renamePastedWebhook(ctx, owner, id, label)),
      remove: guard((owner: OwnerFilter, id: string) => webhooks.removePastedWebhook(ctx, owner, id)),
      recordSend: guard((owner: string | null, send: WebhookSend, o?: { keep?: number }) => webhooks.recordWebhookSend(ctx, owner, send, o)),
      listSends: guard((owner: string | null, limit?: number) => webhooks.listWebhookSends(ctx, owner, limit)),
    },
    configTokens: {
      get: guard((owner: string | null) => configTokens.getConfigToken(ctx, owner)),
      put: guard((owner: string | null, value: StoreConfigToken) => configTokens.putConfigToken(ctx, owner, value)),
      delete: guard((owner: string | null) => configTokens.deleteConfigToken(ctx, owner)),
    },
    apiKeys: {
      create: guard((key: StoreApiKey & { keyHash: string }) => apiKeys.createApiKey(ctx, key)),
      list: guard(() => apiKeys.listApiKeys(ctx)),
      findByHash: guard((keyHash: string) => apiKeys.findApiKeyByHash(keyCtx, keyHash)),
      peekByHash: (keyHash: string) => keyCache.get(keyHash),
      revoke: guard((id: string, at: number) => apiKeys.revokeApiKey(keyCtx, id, at)),
      recordUses: guard((uses: StoreTokenApiUse[]) => apiKeys.recordTokenApiUses(ctx, uses)),
      listUses: guard((keyId: string, o?: { limit?: number; before?: number }) => apiKeys.listTokenApiUses(ctx, keyId, o)),
      pruneUses: guard((before: number) => apiKeys.pruneTokenApiUses(ctx, before)),
    },
    signOuts: {
      generation: guard((person: string) => signOuts.signOutGeneration(signOutCtx, person)),
      record: guard((person: string, at: number) => signOuts.recordSignOut(signOutCtx, person, at)),
    },
    refreshClaims: {
      unclaimedExpiringBefore: guard((before: number, limit: number) => refreshClaims.unclaimedTokensExpiringBefore(ctx, before, limit)),
      claim: guard((tokenIds: readonly number[], leaseMs: number) => refreshClaims.claimTokens(ctx, tokenIds, leaseMs)),
      release: guard((claims: ReadonlyMap<number, number>, afterMs?: number) => refreshClaims.releaseClaims(ctx, claims, afterMs)),
    },
    history: {
      record: guard((owner: string | null, entry: history.NewHistoryEntry) => history.recordHistory(ctx, owner, entry)),
      list: guard((owner: string | null, query?: history.HistoryQuery) => history.listHistory(ctx, owner, query)),
      get: guard((owner: string | null, id: string) => history.getHistoryEntry(ctx, owner, id)),
      clear: guard((owner: string | null) => history.clearHistory(ctx, owner)),
    },
    collections: {
      list: guard((filter: collections.CollectionListFilter) => collections.listCollections(ctx, filter)),
      countOwned: guard((owner: string | null) => collections.countOwnedCollections(ctx, owner)),
      get: guard((id: string) => collections.getCollection(ctx, id)),
      findByLinkHash: guard((linkHash: string) => collections.findCollectionByLinkHash(ctx, linkHash)),
      create: guard((input: collections.NewCollection) => collections.createCollection(ctx, input)),
      update: guard((id: string, patch: collections.CollectionPatch, at: number) => collections.updateCollection(ctx, id, patch, at)),
      delete: guard((id: string) => collections.deleteCollection(ctx, id)),
      addRequest: guard((id: string, request: collections.StoreRequestFields & { id: string }, at: number, max: number) =>
        collections.addSavedRequest(ctx, id, request, at, max),
      ),
      updateRequest: guard((id: string, requestId: string, patch: Partial<collections.StoreRequestFields>, at: number) =>
        collections.updateSavedRequest(ctx, id, requestId, patch, at),
      ),
      removeRequest: guard((id: string, requestId: string, at: number) => collections.removeSavedRequest(ctx, id, requestId, at)),
      reorder: guard((id: string, ids: readonly string[], at: number) => collections.reorderSavedRequests(ctx, id, ids, at)),
    },
    withRefreshLock: <T>(key: string, fn: () => Promise<T>, o?: RefreshLockOptions) => guard(() => lock(key, fn, o), { retry: false })(),
    ping: guard(async () => {
      await backend.db.execute(sql`select 1`);
    }),
    sealingStatus: guard(() => sealingStatus(ctx)),
    resealOlderSecrets: guard(() => resealOlderSecrets(ctx)),
    cacheStats: () => ({ ...cache.stats, active: cache.active }),
    async close() {
      await cache.close();
      await signOutCache.close();
      await keyCache.close();
      if (options.ownsBackend !== false) await backend.close();
    },
  };
}
