import "server-only";
import { and, asc, desc, eq, gte, isNull, lt, sql } from "drizzle-orm";
import { rowsOf, type Tx } from "./backend";
import { announceChange, heardEverywhere, type StoreContext } from "./context";
import { PURPOSE, readInstallation, resealStale, tokenValues } from "./installations";
import { installations, refreshIntents, timelineEntries, tokens } from "./schema";
import { secretHash } from "./sealing";
import type { RefreshIntent, IntentOutcome, StoredInstallation, StoreTimelineEntry, StoreToken, StoreTokenKind } from "./types";

/**
 * Refresh intents: before a refresher calls the platform with a refresh token, it records which token and
 * when (recordRefreshIntent, its own short transaction, committed before the call). Its answer is stored by
 * settleRefresh in ONE transaction: the new pair, the intent settled (the old refresh token is then known
 * spent), the installation's version bumped, the timeline entry. A process that died between the two left
 * an unsettled intent, which the next holder of the refresh lock replays with the same refresh token
 * within the platform's grace period. No transaction is ever held across the platform call.
 */

type IntentRow = typeof refreshIntents.$inferSelect;

function fromRow(ctx: StoreContext, row: IntentRow): RefreshIntent {
  return {
    id: row.id,
    installationId: row.installationId,
    kind: row.kind as StoreTokenKind,
    ...(row.userId !== null ? { userId: row.userId } : {}),
    refreshToken: ctx.sealer.unseal(row.refreshTokenSealed, PURPOSE.intentRefreshToken),
    startedAt: row.startedAt,
  };
}

export async function recordRefreshIntent(
  ctx: StoreContext,
  intent: { installationId: string; kind: StoreTokenKind; userId?: string; refreshToken: string; startedAt: number },
): Promise<RefreshIntent> {
  const [row] = await ctx.db
    .insert(refreshIntents)
    .values({
      installationId: intent.installationId,
      kind: intent.kind,
      userId: intent.userId ?? null,
      refreshTokenSealed: ctx.sealer.seal(intent.refreshToken, PURPOSE.intentRefreshToken),
      refreshTokenHash: secretHash(intent.refreshToken),
      startedAt: intent.startedAt,
    })
    .returning();
  return fromRow(ctx, row!);
}

/** Unsettled intents that started at or after `startedAfter` (younger than the grace period), oldest first. */
export async function listUnsettledIntents(ctx: StoreContext, options: { startedAfter: number; installationId?: string }): Promise<RefreshIntent[]> {
  const rows = await ctx.db
    .select()
    .from(refreshIntents)
    .where(
      and(
        isNull(refreshIntents.settledAt),
        gte(refreshIntents.startedAt, options.startedAfter),
        options.installationId === undefined ? undefined : eq(refreshIntents.installationId, options.installationId),
      ),
    )
    .orderBy(asc(refreshIntents.startedAt), asc(refreshIntents.id));
  return rows.map((row) => fromRow(ctx, row));
}

/** The newest intent that spent (or is spending) this refresh token, settled or not, with how it ended. */
export async function findIntentByRefreshToken(
  ctx: StoreContext,
  refreshToken: string,
): Promise<(RefreshIntent & { settledAt?: number; outcome?: IntentOutcome }) | null> {
  const [row] = await ctx.db
    .select()
    .from(refreshIntents)
    .where(eq(refreshIntents.refreshTokenHash, secretHash(refreshToken)))
    .orderBy(desc(refreshIntents.id))
    .limit(1);
  if (!row) return null;
  return {
    ...fromRow(ctx, row),
    ...(row.settledAt !== null ? { settledAt: row.settledAt } : {}),
    ...(row.outcome !== null ? { outcome: row.outcome as IntentOutcome } : {}),
  };
}

export interface SettleInput {
  intentId: number;
  settledAt: number;
  /** The new pair from the platform; absent when the refresh failed (then `failure` names the error code). */
  token?: StoreToken;
  failure?: string;
  /** Timeline entries written in the same transaction. */
  timeline?: StoreTimelineEntry[];
}

export interface SettleResult {
  outcome: IntentOutcome;
  /** The installation as stored after the settlement (null when it was deleted meanwhile). */
  installation: StoredInstallation | null;
}

/**
 * Settles an intent. With a new pair: stored in place of the token the intent spent when that is still the
 * stored one (or older than the new one); if a newer token was stored meanwhile, nothing is overwritten and
 * the outcome is `superseded`. A second settlement of one intent changes nothing and answers the first's outcome.
 *
 * In few statements (PGlite is one connection: each statement of a refresh storm waits before every other
 * request's): one locks the intent and its installation, one writes (settlementWrite), one reads the
 * installation back, inside the transaction, so the answer is what the settlement wrote even if the
 * installation is deleted the moment after.
 */
export async function settleRefresh(ctx: StoreContext, input: SettleInput): Promise<SettleResult> {
  let installationId: string | undefined;
  let announced: number | undefined;
  let settled: SettleResult;
  try {
    settled = await ctx.db.transaction(async (tx) => {
      // The intent and its installation locked in one statement (an installation's writers all take its row first).
      // An intent goes with its installation (on delete cascade): no row is no intent.
      const [locked] = await tx
        .select({ intent: refreshIntents, version: installations.version })
        .from(refreshIntents)
        .innerJoin(installations, eq(installations.id, refreshIntents.installationId))
        .where(eq(refreshIntents.id, input.intentId))
        .for("update", { of: [refreshIntents, installations] });
      if (!locked) throw new Error(`no refresh intent ${input.intentId}`);
      const { intent } = locked;
      installationId = intent.installationId;
      if (intent.settledAt !== null) return { outcome: intent.outcome as IntentOutcome, installation: await readInstallation(ctx, tx, intent.installationId) };
      const written = await settlementWrite(ctx, tx, intent, input);
      if (written.version !== null) {
        // With one key nothing can be sealed with an older one: two reads saved on every refresh.
        if (ctx.sealer.keys.length > 1) await resealStale(ctx, tx, intent.installationId);
        await announceChange(ctx, tx, intent.installationId, written.version);
        announced = written.version;
      }
      return { outcome: written.outcome, installation: await readInstallation(ctx, tx, intent.installationId) };
    });
  } finally {
    if (installationId !== undefined) ctx.cache.invalidate(installationId);
  }
  // The refreshed token is answered only once every instance has heard of it (a token API asked next serves it).
  if (announced !== undefined) await heardEverywhere(ctx, installationId!, announced);
  return settled;
}

/**
 * A settlement's writes in one statement: the new pair over the stored token if that is still the one the intent
 * spent or older than the new one (checked on the row as it is now, under its lock), or as a new row when there
 * is none; the installation's version bumped when the pair went in; the timeline entries; the intent settled
 * (refreshed, superseded, or failed:<code> without a pair). Answers the outcome and the new version (null: none).
 */
async function settlementWrite(ctx: StoreContext, tx: Tx, intent: IntentRow, input: SettleInput): Promise<{ outcome: IntentOutcome; version: number | null }> {
  const id = intent.installationId;
  const entries = input.timeline ?? [];
  const timeline =
    entries.length === 0
      ? sql``
      : sql`, entries as (insert into ${timelineEntries} (installation_id, at, entry) values ${sql.join(
          entries.map((entry) => sql`(${id}, ${entry.at}::bigint, ${JSON.stringify(entry)}::jsonb)`),
          sql`, `,
        )})`;
  if (!input.token) {
    const failed: IntentOutcome = `failed:${input.failure ?? "unknown"}`;
    await tx.execute(
      sql`with done as (update ${refreshIntents} set settled_at = ${input.settledAt}, outcome = ${failed} where id = ${intent.id})${timeline} select 1`,
    );
    return { outcome: failed, version: null };
  }
  const v = tokenValues(ctx, id, intent.kind as StoreTokenKind, intent.userId, input.token);
  const sameToken = sql`installation_id = ${id} and kind = ${intent.kind} and coalesce(user_id, '') = ${intent.userId ?? ""}`;
  const scopes = sql`array[${sql.join(
    v.scopes.map((scope) => sql`${scope}`),
    sql`, `,
  )}]::text[]`;
  const [row] = await rowsOf<{ outcome: IntentOutcome; version: number | string | null }>(
    tx,
    sql`with
      replaced as (
        update ${tokens} set value_sealed = ${v.valueSealed}, refresh_token_sealed = ${v.refreshTokenSealed}, refresh_token_hash = ${v.refreshTokenHash},
          expires_at = ${v.expiresAt}, scopes = ${scopes}, revoked = ${v.revoked}, issued_at = ${v.issuedAt}
        where ${sameToken} and (refresh_token_hash = ${intent.refreshTokenHash} or issued_at < ${v.issuedAt})
        returning id),
      added as (
        insert into ${tokens} (installation_id, kind, user_id, value_sealed, refresh_token_sealed, refresh_token_hash, expires_at, scopes, revoked, issued_at)
        select ${id}::text, ${intent.kind}::text, ${v.userId}::text, ${v.valueSealed}::text, ${v.refreshTokenSealed}::text, ${v.refreshTokenHash}::text,
          ${v.expiresAt}::bigint, ${scopes}, ${v.revoked}::boolean, ${v.issuedAt}::bigint
        where not exists (select 1 from ${tokens} where ${sameToken})
        returning id),
      bumped as (
        update ${installations} set version = version + 1, updated_at = ${input.settledAt}
        where id = ${id} and exists (select 1 from replaced union all select 1 from added)
        returning version)${timeline},
      done as (
        update ${refreshIntents} set settled_at = ${input.settledAt},
          outcome = case when exists (select 1 from bumped) then 'refreshed' else 'superseded' end
        where id = ${intent.id}
        returning outcome)
    select (select outcome from done) as outcome, (select version from bumped) as version`,
  );
  return { outcome: row!.outcome, version: row!.version === null ? null : Number(row!.version) };
}

/**
 * Forgets settled intents settled before `settledBefore` (once past the grace period nothing replays them, and a
 * spent refresh token is worthless); unsettled ones are kept. Answers how many went.
 */
export async function pruneSettledIntents(ctx: StoreContext, settledBefore: number): Promise<number> {
  const deleted = await ctx.db.delete(refreshIntents).where(lt(refreshIntents.settledAt, settledBefore)).returning({ id: refreshIntents.id });
  return deleted.length;
}
