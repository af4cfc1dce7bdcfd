import "server-only";
import { and, asc, eq, isNotNull, isNull, lt, lte, not, or, sql } from "drizzle-orm";
import { rowsOf } from "./backend";
import type { StoreContext } from "./context";
import { installations, tokens } from "./schema";
import type { ClaimableToken, StoreTokenKind } from "./types";

/**
 * How instances share a backlog of due tokens (the background refresher, issue 43). A clock jump makes
 * every token due at once; each instance reads the soonest tokens nobody has claimed, keeps those whose
 * planned time has come (the schedule's spread is computed in TypeScript, refresh-schedule.ts), and claims
 * them in one statement: `FOR UPDATE SKIP LOCKED` lets two instances claiming at the same moment each take
 * rows the other did not, and `refresh_claimed_until` keeps them apart after the claim commits. PGlite runs
 * the same SQL on its one connection, where the claim is simply this process's.
 *
 * A claim is a hint that spreads the work, not the guarantee: a claim whose lease ran out may be taken by
 * another instance while the first still works, and both then meet at the refresh lock, where the second
 * finds the new pair (no platform call). Leases are measured on the database's clock, which every instance
 * shares, never an instance's own.
 */

/** The database's clock, epoch ms: the one every instance reads. */
const dbNowMs = sql`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/**
 * Rotating, unrevoked tokens of active installations expiring at or before `before` that no instance holds
 * a live claim on, soonest first, without their secrets.
 */
export async function unclaimedTokensExpiringBefore(ctx: StoreContext, before: number, limit: number): Promise<ClaimableToken[]> {
  const rows = await ctx.db
    .select({ id: tokens.id, installationId: tokens.installationId, kind: tokens.kind, userId: tokens.userId, expiresAt: tokens.expiresAt })
    .from(tokens)
    .innerJoin(installations, eq(installations.id, tokens.installationId))
    .where(
      and(
        isNotNull(tokens.refreshTokenHash),
        not(tokens.revoked),
        lte(tokens.expiresAt, before),
        eq(installations.state, "active"),
        or(isNull(tokens.refreshClaimedUntil), lt(tokens.refreshClaimedUntil, dbNowMs)),
      ),
    )
    .orderBy(asc(tokens.expiresAt))
    .limit(limit);
  return rows.map((r) => ({
    tokenId: r.id,
    installationId: r.installationId,
    kind: r.kind as StoreTokenKind,
    ...(r.userId !== null ? { userId: r.userId } : {}),
    expiresAt: r.expiresAt!,
  }));
}

/**
 * Claims these tokens (their row ids) for `leaseMs`, skipping any another instance is claiming at this
 * moment (a row lock) or has claimed (a live lease). Answers the ids this call claimed, each with the lease
 * it set (what releaseClaims checks to give back only this claim).
 */
export async function claimTokens(ctx: StoreContext, tokenIds: readonly number[], leaseMs: number): Promise<Map<number, number>> {
  if (tokenIds.length === 0) return new Map();
  const ids = sql.join(
    tokenIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = await rowsOf<{ id: string | number; until: string | number }>(
    ctx.db,
    sql`with picked as (
          select id from tokens
          where id in (${ids}) and (refresh_claimed_until is null or refresh_claimed_until < ${dbNowMs})
          for update skip locked
        )
        update tokens set refresh_claimed_until = ${dbNowMs} + ${Math.trunc(leaseMs)}
        from picked where tokens.id = picked.id
        returning tokens.id, tokens.refresh_claimed_until as until`,
  );
  return new Map(rows.map((r) => [Number(r.id), Number(r.until)]));
}

/**
 * Gives claims back once their refreshes are done (a clock moved again finds them due at once), or, with
 * `afterMs`, keeps them that much longer from now (a refresh that waits its backoff or the platform's
 * Retry-After: no other instance asks meanwhile, and the claimant may take it again then). Only claims that
 * are still this one's (the lease claimTokens answered): a lease that ran out may have been taken by another
 * instance since, and its claim is not ours to clear.
 */
export async function releaseClaims(ctx: StoreContext, claims: ReadonlyMap<number, number>, afterMs = 0): Promise<void> {
  if (claims.size === 0) return;
  const leases = sql.join(
    [...claims].map(([id, until]) => sql`(${id}::bigint, ${until}::bigint)`),
    sql`, `,
  );
  const until = afterMs > 0 ? sql`${dbNowMs} + ${Math.trunc(afterMs)}` : sql`null`;
  await ctx.db.execute(
    sql`update tokens set refresh_claimed_until = ${until}
        from (values ${leases}) as mine(id, lease)
        where tokens.id = mine.id and tokens.refresh_claimed_until = mine.lease`,
  );
}
