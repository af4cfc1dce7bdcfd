import "server-only";
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, max, not, sql } from "drizzle-orm";
import type { Db, Tx } from "./backend";
import { announceChange, heardEverywhere, type StoreContext } from "./context";
import type { InstallationRef } from "./installation-cache";
import { UnreadableSecretError, VersionConflictError } from "./errors";
import { installations, refreshIntents, timelineEntries, tokens } from "./schema";
import { secretHash } from "./sealing";
import { namesOf, SUMMARY_COLUMNS, summaryOf } from "./installation-summary-row";
import type {
  ExpiringToken,
  InstallationSummary,
  StoredInstallation,
  StoreInstallation,
  StoreTimelineEntry,
  StoreToken,
  StoreTokenKind,
  StoreTokenRow,
  TimelinePage,
} from "./types";

type InstallationRow = typeof installations.$inferSelect;
type TokenRow = typeof tokens.$inferSelect;
type Reader = Db | Tx;

const KINDS: StoreTokenKind[] = ["bot", "user"];

// Each sealed column's purpose (the GCM associated data): a value moved to another column does not open.
export const PURPOSE = {
  token: "tokens.value",
  refreshToken: "tokens.refresh_token",
  webhookUrl: "installations.webhook_url",
  intentRefreshToken: "refresh_intents.refresh_token",
  pastedUrl: "pasted_webhooks.url",
  configToken: "config_tokens.token",
  configRefreshToken: "config_tokens.refresh_token",
} as const;

function tokenFromRow(ctx: StoreContext, row: TokenRow): StoreToken {
  const refreshToken = ctx.sealer.unsealOptional(row.refreshTokenSealed, PURPOSE.refreshToken);
  return {
    value: ctx.sealer.unseal(row.valueSealed, PURPOSE.token),
    ...(refreshToken !== undefined ? { refreshToken } : {}),
    ...(row.expiresAt !== null ? { expiresAt: row.expiresAt } : {}),
    scopes: row.scopes,
    ...(row.revoked ? { revoked: true } : {}),
    issuedAt: row.issuedAt,
  };
}

/** The record with its secrets opened; one that does not open names the installation and its version (a reinstall writes over it). */
function fromRows(ctx: StoreContext, row: InstallationRow, tokenRows: TokenRow[]): StoredInstallation {
  try {
    return openRows(ctx, row, tokenRows);
  } catch (error) {
    if (!(error instanceof UnreadableSecretError)) throw error;
    throw new UnreadableSecretError(error.keyId, `Installation ${row.id}: ${error.message}`, { id: row.id, version: row.version });
  }
}

function openRows(ctx: StoreContext, row: InstallationRow, tokenRows: TokenRow[]): StoredInstallation {
  const record: StoredInstallation = {
    ...namesOf(row),
    ...(row.botUserId !== null ? { botUserId: row.botUserId } : {}),
    ...(row.botId !== null ? { botId: row.botId } : {}),
    ...(row.upstreamInstanceId !== null ? { upstreamInstanceId: row.upstreamInstanceId } : {}),
    ...(row.authedUserId !== null ? { authedUserId: row.authedUserId } : {}),
    state: row.state as StoredInstallation["state"],
    ...(row.problem !== null ? { problem: row.problem } : {}),
    ...(row.uninstalledAt !== null ? { uninstalledAt: row.uninstalledAt } : {}),
    installedAt: row.installedAt,
    updatedAt: row.updatedAt,
    ...(row.installedBy !== null ? { installedBy: row.installedBy } : {}),
    version: row.version,
  };
  if (row.webhookUrlSealed !== null) {
    record.incomingWebhook = {
      url: ctx.sealer.unseal(row.webhookUrlSealed, PURPOSE.webhookUrl),
      channel: row.webhookChannel ?? "",
      channelId: row.webhookChannelId ?? "",
      ...(row.webhookConfigurationUrl !== null ? { configurationUrl: row.webhookConfigurationUrl } : {}),
    };
  }
  for (const t of tokenRows) {
    if (t.userId === null && (t.kind === "bot" || t.kind === "user")) record[t.kind] = tokenFromRow(ctx, t);
    else if (t.userId !== null && t.kind === "user") (record.people ??= {})[t.userId] = tokenFromRow(ctx, t);
  }
  return record;
}

/** One query: the installation joined with its tokens, every person's user token too (a point read on the hot path's cache miss). */
async function readInstallation(ctx: StoreContext, db: Reader, id: string, forUpdate = false): Promise<StoredInstallation | null> {
  const query = db
    .select({ installation: installations, token: tokens })
    .from(installations)
    .leftJoin(tokens, eq(tokens.installationId, installations.id))
    .where(eq(installations.id, id));
  const rows = forUpdate ? await query.for("update", { of: installations }) : await query;
  if (rows.length === 0) return null;
  return fromRows(
    ctx,
    rows[0]!.installation,
    rows.flatMap((r) => (r.token ? [r.token] : [])),
  );
}

/**
 * The installation read fresh for a refresh of its `kind` token (one person's: `userId`), under that token's
 * refresh lock, and whether an intent to refresh that token started at or after `startedAfter` is still
 * unsettled (a holder that died: replay.ts): one statement where a refresh asked twice (PGlite is one
 * connection, and a storm of refreshes queues every other request behind its statements).
 */
export async function readForRefresh(
  ctx: StoreContext,
  id: string,
  token: { kind: StoreTokenKind; userId?: string; startedAfter: number },
): Promise<{ installation: StoredInstallation | null; unsettled: boolean }> {
  const ticket = ctx.cache.ticket(id);
  const rows = await ctx.db
    .select({
      installation: installations,
      token: tokens,
      unsettled: sql<boolean>`exists (select 1 from ${refreshIntents} where ${refreshIntents.installationId} = ${installations.id}
        and ${refreshIntents.settledAt} is null and ${refreshIntents.startedAt} >= ${token.startedAfter}
        and ${refreshIntents.kind} = ${token.kind} and coalesce(${refreshIntents.userId}, '') = ${token.userId ?? ""})`,
    })
    .from(installations)
    .leftJoin(tokens, eq(tokens.installationId, installations.id))
    .where(eq(installations.id, id));
  const record =
    rows.length === 0
      ? null
      : fromRows(
          ctx,
          rows[0]!.installation,
          rows.flatMap((r) => (r.token ? [r.token] : [])),
        );
  ctx.cache.put(id, record, ticket);
  return { installation: record, unsettled: rows.some((r) => r.unsettled === true) };
}

/**
 * The installation, from the cache unless `fresh` (what anything about to spend a refresh token must ask);
 * `shared`: the cache's frozen record rather than a copy, for a reader that changes nothing (the token API).
 */
export async function getInstallation(ctx: StoreContext, id: string, options: { fresh?: boolean; shared?: boolean } = {}): Promise<StoredInstallation | null> {
  if (!options.fresh) {
    const cached = ctx.cache.get(id, { shared: options.shared ?? false });
    if (cached !== undefined) return cached;
  }
  const ticket = ctx.cache.ticket(id);
  const record = await readInstallation(ctx, ctx.db, id);
  ctx.cache.put(id, record, ticket);
  return record;
}

/**
 * A workspace's (or organisation's) installations: which ids, of which apps (the token API's lookup by team).
 * Cached until an installation is made or deleted, here or on another instance (installation-cache.ts).
 */
export async function installationsInTeam(ctx: StoreContext, teamId: string): Promise<InstallationRef[]> {
  const cached = ctx.cache.getTeam(teamId);
  if (cached) return cached;
  const ticket = ctx.cache.teamTicket();
  const rows = await ctx.db
    .select({ id: installations.id, appKey: installations.appKey, appId: installations.appId })
    .from(installations)
    .where(eq(installations.teamId, teamId));
  const refs = rows.map((row) => ({ id: row.id, appKey: row.appKey, ...(row.appId !== null ? { appId: row.appId } : {}) }));
  ctx.cache.putTeam(teamId, refs, ticket);
  return refs;
}

/**
 * Every installation's names, ids, state and its tokens' facts (kind, rotating, expiry, revoked), without a
 * secret: nothing is unsealed, so a list of a thousand installations is searched and filtered from this in
 * one query, and only the page shown is read whole. Kept by the installation cache until any installation
 * changes (with PostgreSQL, as another instance announces it), as the cache keeps each installation.
 */
export async function listInstallationSummaries(ctx: StoreContext): Promise<InstallationSummary[]> {
  const cached = ctx.cache.getSummaries();
  if (cached) return cached;
  const ticket = ctx.cache.summariesTicket();
  const summaries = await readInstallationSummaries(ctx);
  ctx.cache.putSummaries(summaries, ticket);
  return summaries;
}

async function readInstallationSummaries(ctx: StoreContext): Promise<InstallationSummary[]> {
  const rows = await ctx.db
    .select({
      ...SUMMARY_COLUMNS,
      kind: tokens.kind,
      rotating: sql<boolean>`${tokens.refreshTokenSealed} is not null`,
      expiresAt: tokens.expiresAt,
      revoked: tokens.revoked,
    })
    .from(installations)
    .leftJoin(tokens, eq(tokens.installationId, installations.id))
    .orderBy(asc(installations.installedAt), asc(installations.id));
  const summaries: InstallationSummary[] = [];
  for (const row of rows) {
    let summary = summaries.at(-1);
    if (summary?.id !== row.id) {
      summary = summaryOf(row);
      summaries.push(summary);
    }
    if (row.kind === "bot" || row.kind === "user") {
      summary.tokens.push({ kind: row.kind, rotating: Boolean(row.rotating), expiresAt: row.expiresAt ?? null, revoked: Boolean(row.revoked) });
    }
  }
  return summaries;
}

export async function listInstallations(ctx: StoreContext, options: { installedBy?: string | null } = {}): Promise<StoredInstallation[]> {
  const where =
    options.installedBy === undefined
      ? undefined
      : options.installedBy === null
        ? isNull(installations.installedBy)
        : eq(installations.installedBy, options.installedBy);
  const rows = await ctx.db.select().from(installations).where(where).orderBy(asc(installations.installedAt), asc(installations.id));
  if (rows.length === 0) return [];
  const tokenRows = await ctx.db
    .select()
    .from(tokens)
    .where(
      inArray(
        tokens.installationId,
        rows.map((r) => r.id),
      ),
    );
  return rows.map((row) =>
    fromRows(
      ctx,
      row,
      tokenRows.filter((t) => t.installationId === row.id),
    ),
  );
}

function tokenValues(ctx: StoreContext, installationId: string, kind: StoreTokenKind, userId: string | null, token: StoreToken) {
  return {
    installationId,
    kind,
    userId,
    valueSealed: ctx.sealer.seal(token.value, PURPOSE.token),
    refreshTokenSealed: ctx.sealer.sealOptional(token.refreshToken, PURPOSE.refreshToken),
    refreshTokenHash: token.refreshToken === undefined ? null : secretHash(token.refreshToken),
    expiresAt: token.expiresAt ?? null,
    scopes: token.scopes,
    revoked: token.revoked ?? false,
    issuedAt: token.issuedAt,
  };
}

/**
 * Writes the record, its tokens (each person's user token too) and its webhook, every secret sealed afresh
 * with the newest key (so a record sealed with an older key is re-sealed by its next write). A record is
 * written whole, over the version it was read at: the tokens it no longer holds are gone.
 */
/** The installation's row (its webhook URL sealed), at this version. */
function installationValues(ctx: StoreContext, record: StoreInstallation, version: number) {
  const hook = record.incomingWebhook;
  return {
    id: record.id,
    appKey: record.appKey,
    appId: record.appId ?? null,
    appName: record.appName ?? null,
    teamId: record.team.id,
    teamName: record.team.name,
    enterpriseId: record.enterprise?.id ?? null,
    enterpriseName: record.enterprise?.name ?? null,
    isEnterpriseInstall: record.isEnterpriseInstall ?? false,
    botUserId: record.botUserId ?? null,
    botId: record.botId ?? null,
    upstreamInstanceId: record.upstreamInstanceId ?? null,
    authedUserId: record.authedUserId ?? null,
    state: record.state,
    problem: record.problem ?? null,
    uninstalledAt: record.uninstalledAt ?? null,
    installedAt: record.installedAt,
    updatedAt: record.updatedAt,
    installedBy: record.installedBy ?? null,
    version,
    webhookChannel: hook?.channel ?? null,
    webhookChannelId: hook?.channelId ?? null,
    webhookConfigurationUrl: hook?.configurationUrl ?? null,
    webhookUrlSealed: ctx.sealer.sealOptional(hook?.url, PURPOSE.webhookUrl),
  };
}

async function writeInstallation(ctx: StoreContext, tx: Tx, record: StoreInstallation, version: number): Promise<void> {
  const values = installationValues(ctx, record, version);
  const { id: _id, ...update } = values;
  await tx.insert(installations).values(values).onConflictDoUpdate({ target: installations.id, set: update });
  const gone = await tx
    .delete(tokens)
    .where(eq(tokens.installationId, record.id))
    .returning({ id: tokens.id, kind: tokens.kind, userId: tokens.userId, claimedUntil: tokens.refreshClaimedUntil });
  // A token keeps its row id and a background refresher's claim on it across the rewrite (a save rewrites
  // every token row): else the claimant's release or Retry-After hold finds no row, the hold is lost, and
  // another instance asks the platform again at once.
  const kept = new Map(gone.map((t) => [`${t.kind}:${t.userId ?? ""}`, { id: t.id, refreshClaimedUntil: t.claimedUntil }]));
  const rows = [
    ...KINDS.flatMap((kind) => (record[kind] ? [tokenValues(ctx, record.id, kind, null, record[kind])] : [])),
    ...Object.entries(record.people ?? {}).map(([userId, token]) => tokenValues(ctx, record.id, "user", userId, token)),
  ].map((row) => ({ ...row, ...kept.get(`${row.kind}:${row.userId ?? ""}`) }));
  if (rows.length > 0) await tx.insert(tokens).values(rows);
  await announceChange(ctx, tx, record.id, version);
}

/**
 * Re-seals, with the newest key, whatever of an installation (its webhook URL, its tokens) an older key
 * sealed: for writes that do not rewrite the whole record (settleRefresh), so every write re-seals.
 */
export async function resealStale(ctx: StoreContext, tx: Tx, installationId: string): Promise<void> {
  const { sealer } = ctx;
  const [row] = await tx.select({ webhook: installations.webhookUrlSealed }).from(installations).where(eq(installations.id, installationId));
  if (row?.webhook && sealer.isStale(row.webhook)) {
    await tx
      .update(installations)
      .set({ webhookUrlSealed: sealer.seal(sealer.unseal(row.webhook, PURPOSE.webhookUrl), PURPOSE.webhookUrl) })
      .where(eq(installations.id, installationId));
  }
  const rows = await tx
    .select({ id: tokens.id, value: tokens.valueSealed, refresh: tokens.refreshTokenSealed })
    .from(tokens)
    .where(eq(tokens.installationId, installationId));
  for (const t of rows) {
    if (!sealer.isStale(t.value) && !(t.refresh && sealer.isStale(t.refresh))) continue;
    await tx
      .update(tokens)
      .set({
        valueSealed: sealer.seal(sealer.unseal(t.value, PURPOSE.token), PURPOSE.token),
        refreshTokenSealed: t.refresh === null ? null : sealer.seal(sealer.unseal(t.refresh, PURPOSE.refreshToken), PURPOSE.refreshToken),
      })
      .where(eq(tokens.id, t.id));
  }
}

/**
 * Timeline entries in the order given (oldest first): the order they were written in is the timeline's order,
 * never their `at`, which is the platform's time and moves back when the platform's clock does.
 */
async function insertTimeline(tx: Tx, installationId: string, entries: StoreTimelineEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.insert(timelineEntries).values(entries.map((entry) => ({ installationId, at: entry.at, entry })));
}

function stored(record: StoreInstallation, version: number): StoredInstallation {
  return { ...structuredClone(record), version };
}

export interface PutOptions {
  /** Write only if the stored version is this one (0: only if there is none); else VersionConflictError. */
  expectVersion?: number;
  /** Timeline entries written in the same transaction. */
  timeline?: StoreTimelineEntry[];
}

export async function putInstallation(ctx: StoreContext, record: StoreInstallation, options: PutOptions = {}): Promise<StoredInstallation> {
  let version = 0;
  let moved = false;
  try {
    await ctx.db.transaction(async (tx) => {
      const [current] = await tx
        .select({ version: installations.version, teamId: installations.teamId, appKey: installations.appKey, appId: installations.appId })
        .from(installations)
        .where(eq(installations.id, record.id))
        .for("update");
      if (options.expectVersion !== undefined && (current?.version ?? 0) !== options.expectVersion) {
        throw new VersionConflictError(record.id, options.expectVersion, current?.version);
      }
      version = (current?.version ?? 0) + 1;
      // What a workspace's lookup (inTeam) holds changed: every instance drops those lists, as for a new installation.
      moved = current !== undefined && (current.teamId !== record.team.id || current.appKey !== record.appKey || current.appId !== (record.appId ?? null));
      if (moved) await announceChange(ctx, tx, record.id, "moved");
      await writeInstallation(ctx, tx, record, version);
      await insertTimeline(tx, record.id, options.timeline ?? []);
    });
  } finally {
    ctx.cache.invalidate(record.id, { made: version === 1 || moved });
  }
  await heardEverywhere(ctx, record.id, version);
  return stored(record, version);
}

/** Forgets an installation with its tokens, timeline and refresh intents; false when there was none. */
export async function deleteInstallation(ctx: StoreContext, id: string): Promise<boolean> {
  let deleted: boolean;
  try {
    deleted = await ctx.db.transaction(async (tx) => {
      const rows = await tx.delete(installations).where(eq(installations.id, id)).returning({ id: installations.id });
      if (rows.length > 0) await announceChange(ctx, tx, id, "deleted");
      return rows.length > 0;
    });
  } finally {
    ctx.cache.invalidate(id, { made: true });
  }
  if (deleted) await heardEverywhere(ctx, id, "deleted");
  return deleted;
}

export type ImportOutcome = "created" | "merged" | "unchanged";

function newer(a: StoreToken | undefined, b: StoreToken | undefined): StoreToken | undefined {
  if (!a) return b;
  if (!b) return a;
  return b.issuedAt > a.issuedAt ? b : a;
}

/**
 * Imports an installation (a cookie of an earlier version): a new one is stored as it is; for one already
 * stored, each token kind keeps whichever token the platform issued later, and the other fields come from
 * whichever record was updated later. Timeline entries newer than the newest stored are appended.
 */
export async function importInstallation(
  ctx: StoreContext,
  record: StoreInstallation,
  options: { timeline?: StoreTimelineEntry[] } = {},
): Promise<{ installation: StoredInstallation; outcome: ImportOutcome }> {
  let imported: { installation: StoredInstallation; outcome: ImportOutcome };
  try {
    imported = await ctx.db.transaction(async (tx) => {
      const current = await readInstallation(ctx, tx, record.id, true);
      if (!current) {
        await writeInstallation(ctx, tx, record, 1);
        await insertTimeline(tx, record.id, options.timeline ?? []);
        return { installation: stored(record, 1), outcome: "created" as const };
      }
      const { version: _v, ...currentRecord } = current;
      const base = record.updatedAt > current.updatedAt ? record : currentRecord;
      const merged: StoreInstallation = { ...base, installedAt: Math.min(record.installedAt, current.installedAt) };
      for (const kind of KINDS) {
        const token = newer(current[kind], record[kind]);
        if (token) merged[kind] = token;
        else delete merged[kind];
      }
      const people = Object.fromEntries(
        [...new Set([...Object.keys(current.people ?? {}), ...Object.keys(record.people ?? {})])].map((userId) => [
          userId,
          newer(current.people?.[userId], record.people?.[userId])!,
        ]),
      );
      if (Object.keys(people).length > 0) merged.people = people;
      else delete merged.people;
      const [newest] = await tx
        .select({ at: max(timelineEntries.at) })
        .from(timelineEntries)
        .where(eq(timelineEntries.installationId, record.id));
      const after = newest?.at ?? -Infinity;
      const entries = (options.timeline ?? []).filter((e) => e.at > after);
      const unchanged = JSON.stringify(merged) === JSON.stringify(currentRecord) && entries.length === 0;
      if (unchanged) return { installation: current, outcome: "unchanged" as const };
      await writeInstallation(ctx, tx, merged, current.version + 1);
      await insertTimeline(tx, record.id, entries);
      return { installation: stored(merged, current.version + 1), outcome: "merged" as const };
    });
  } finally {
    // It may be a new installation: the workspace's list of them is read again.
    ctx.cache.invalidate(record.id, { made: true });
  }
  if (imported.outcome !== "unchanged") await heardEverywhere(ctx, record.id, imported.installation.version);
  return imported;
}

/** Every token of an installation, per-person user tokens included. */
export async function listTokens(ctx: StoreContext, installationId: string): Promise<StoreTokenRow[]> {
  const rows = await ctx.db.select().from(tokens).where(eq(tokens.installationId, installationId)).orderBy(asc(tokens.kind), asc(tokens.id));
  return rows.map((row) => ({
    installationId: row.installationId,
    kind: row.kind as StoreTokenKind,
    ...(row.userId !== null ? { userId: row.userId } : {}),
    ...tokenFromRow(ctx, row),
  }));
}

/**
 * Rotating, unrevoked tokens of active installations expiring at or before `before`, soonest first, without
 * their secrets. One that needs reinstalling keeps its rows (its timeline says what they were) but has
 * nothing left to refresh: listed, its dead tokens would come first in every batch for ever.
 */
export async function tokensExpiringBefore(ctx: StoreContext, before: number, limit = 100): Promise<ExpiringToken[]> {
  const rows = await ctx.db
    .select({ installationId: tokens.installationId, kind: tokens.kind, userId: tokens.userId, expiresAt: tokens.expiresAt })
    .from(tokens)
    .innerJoin(installations, eq(installations.id, tokens.installationId))
    .where(and(isNotNull(tokens.refreshTokenHash), not(tokens.revoked), lte(tokens.expiresAt, before), eq(installations.state, "active")))
    .orderBy(asc(tokens.expiresAt))
    .limit(limit);
  return rows.map((r) => ({
    installationId: r.installationId,
    kind: r.kind as StoreTokenKind,
    ...(r.userId !== null ? { userId: r.userId } : {}),
    expiresAt: r.expiresAt!,
  }));
}

/** Appends timeline entries (in the order they happened) without touching the installation's version or cache. */
export async function appendTimeline(ctx: StoreContext, installationId: string, entries: StoreTimelineEntry[]): Promise<void> {
  await ctx.db.transaction((tx) => insertTimeline(tx, installationId, entries));
}

export const MAX_TIMELINE_PAGE = 200;

/** A page of the timeline, newest first: `before` is the previous page's nextBefore; limit 1 to 200 (default 50). */
export async function pageTimeline<E extends StoreTimelineEntry = StoreTimelineEntry>(
  ctx: StoreContext,
  installationId: string,
  options: { before?: number; limit?: number } = {},
): Promise<TimelinePage<E>> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 50), 1), MAX_TIMELINE_PAGE);
  const rows = await ctx.db
    .select({ seq: timelineEntries.seq, entry: timelineEntries.entry })
    .from(timelineEntries)
    .where(and(eq(timelineEntries.installationId, installationId), options.before === undefined ? undefined : lt(timelineEntries.seq, options.before)))
    .orderBy(desc(timelineEntries.seq))
    .limit(limit + 1);
  const page = rows.slice(0, limit).map((r) => ({ seq: r.seq, entry: r.entry as E }));
  return { entries: page, ...(rows.length > limit ? { nextBefore: page[page.length - 1]!.seq } : {}) };
}

/**
 * The newest `limit` entries of each installation's timeline (newest first), in one query however many
 * installations: a list of installations never asks once per installation. An installation without entries
 * has none in the map.
 */
export async function newestTimelines<E extends StoreTimelineEntry = StoreTimelineEntry>(
  ctx: StoreContext,
  installationIds: readonly string[],
  options: { limit?: number } = {},
): Promise<Map<string, TimelinePage<E>>> {
  const pages = new Map<string, TimelinePage<E>>();
  if (installationIds.length === 0) return pages;
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 50), 1), MAX_TIMELINE_PAGE);
  const ranked = ctx.db
    .select({
      installationId: timelineEntries.installationId,
      seq: timelineEntries.seq,
      entry: timelineEntries.entry,
      rank: sql<number>`row_number() over (partition by ${timelineEntries.installationId} order by ${timelineEntries.seq} desc)`.as("rank"),
    })
    .from(timelineEntries)
    .where(inArray(timelineEntries.installationId, [...installationIds]))
    .as("ranked");
  const rows = await ctx.db
    .select({ installationId: ranked.installationId, seq: ranked.seq, entry: ranked.entry, rank: ranked.rank })
    .from(ranked)
    .where(lte(ranked.rank, limit + 1))
    .orderBy(asc(ranked.installationId), desc(ranked.seq));
  for (const row of rows) {
    const page = pages.get(row.installationId) ?? { entries: [] };
    if (Number(row.rank) > limit) page.nextBefore = page.entries[page.entries.length - 1]!.seq;
    else page.entries.push({ seq: Number(row.seq), entry: row.entry as E });
    pages.set(row.installationId, page);
  }
  return pages;
}

export { readInstallation, installationValues, tokenValues };
