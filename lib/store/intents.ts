import "server-only";
import { and, asc, desc, eq, gte, isNull, lt, sql } from "drizzle-orm";
import { announceChange, heardEverywhere, type StoreContext } from "./context";
import { insertTimeline, PURPOSE, readInstallation, resealStale, tokenValues } from "./installations";
import { installations, refreshIntents, tokens } from "./schema";
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
 */
export async function settleRefresh(ctx: StoreContext, input: SettleInput): Promise<SettleResult> {
  let installationId: string | undefined;
  let announced: number | undefined;
  let settled: { outcome: IntentOutcome; owned: boolean };
  try {
    settled = await ctx.db.transaction(async (tx) => {
      const [intent] = await tx.select().from(refreshIntents).where(eq(refreshIntents.id, input.intentId)).for("update");
      if (!intent) throw new Error(`no refresh intent ${input.intentId}`);
      installationId = intent.installationId;
      if (intent.settledAt !== null) return { outcome: intent.outcome as IntentOutcome, owned: true };
      let outcome: IntentOutcome = `failed:${input.failure ?? "unknown"}`;
      const [owner] = await tx.select({ version: installations.version }).from(installations).where(eq(installations.id, intent.installationId)).for("update");
      if (input.token && owner) {
        const [current] = await tx
          .select({ id: tokens.id, hash: tokens.refreshTokenHash, issuedAt: tokens.issuedAt })
          .from(tokens)
          .where(
            and(eq(tokens.installationId, intent.installationId), eq(tokens.kind, intent.kind), sql`coalesce(${tokens.userId}, '') = ${intent.userId ?? ""}`),
          )
          .for("update");
        const replaces = !current || current.hash === intent.refreshTokenHash || current.issuedAt < input.token.issuedAt;
        if (replaces) {
          const values = tokenValues(ctx, intent.installationId, intent.kind as StoreTokenKind, intent.userId, input.token);
          if (current) await tx.update(tokens).set(values).where(eq(tokens.id, current.id));
          else await tx.insert(tokens).values(values);
          await tx
            .update(installations)
            .set({ version: owner.version + 1, updatedAt: input.settledAt })
            .where(eq(installations.id, intent.installationId));
          // With one key nothing can be sealed with an older one: two reads saved on every refresh.
          if (ctx.sealer.keys.length > 1) await resealStale(ctx, tx, intent.installationId);
          await announceChange(ctx, tx, intent.installationId, owner.version + 1);
          announced = owner.version + 1;
          outcome = "refreshed";
        } else {
          outcome = "superseded";
        }
      }
      if (owner) await insertTimeline(tx, intent.installationId, input.timeline ?? []);
      await tx.update(refreshIntents).set({ settledAt: input.settledAt, outcome }).where(eq(refreshIntents.id, intent.id));
      return { outcome, owned: owner !== undefined };
    });
  } finally {
    if (installationId !== undefined) ctx.cache.invalidate(installationId);
  }
  // The installation as stored now, read once the settlement committed, while this instance waits to hear its
  // announcement back: the refreshed token is answered only once every instance has heard of it (a token API
  // asked next serves it). The two at once: a round trip less for a request waiting for its refresh.
  const id = installationId!;
  const [installation] = await Promise.all([
    settled.owned ? readInstallation(ctx, ctx.db, id) : null,
    announced !== undefined ? heardEverywhere(ctx, id, announced) : undefined,
  ]);
  return { outcome: settled.outcome, installation };
}

/**
 * Forgets settled intents settled before `settledBefore` (once past the grace period nothing replays them, and a
 * spent refresh token is worthless); unsettled ones are kept. Answers how many went.
 */
export async function pruneSettledIntents(ctx: StoreContext, settledBefore: number): Promise<number> {
  const deleted = await ctx.db.delete(refreshIntents).where(lt(refreshIntents.settledAt, settledBefore)).returning({ id: refreshIntents.id });
  return deleted.length;
}
