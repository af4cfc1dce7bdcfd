import "server-only";
import { and, asc, gt, isNotNull, ne, sql } from "drizzle-orm";
import type { StoreContext } from "./context";
import { UnreadableSecretError } from "./errors";
import { SEALED_COLUMNS, sealedKeyId, type SealedColumn } from "./sealed-columns";

/** How many rows one pass reads at a time. */
const BATCH = 200;

export interface ResealOutcome {
  /** Secrets re-sealed with the current key. */
  resealed: number;
  /** Secrets left as they were because they do not open (a key this server does not have, or changed). */
  unreadable: number;
}

/**
 * Re-seals with the current key every secret an older key sealed, including those no write touches (pasted
 * webhooks, configuration tokens, an installation nobody uses), so that an old key can be removed once the
 * status says nothing needs it. Each value is replaced only if it is still the one read (compare and set): a
 * write that sealed a new value meanwhile wins, and no version or cache changes, since the secret is the same.
 */
export async function resealOlderSecrets(ctx: StoreContext): Promise<ResealOutcome> {
  const outcome: ResealOutcome = { resealed: 0, unreadable: 0 };
  for (const column of SEALED_COLUMNS) await resealColumn(ctx, column, outcome);
  return outcome;
}

async function resealColumn(ctx: StoreContext, column: SealedColumn, outcome: ResealOutcome): Promise<void> {
  const { sealer } = ctx;
  let after: string | number | undefined;
  for (;;) {
    const rows = (await ctx.db
      .select({ id: column.id, sealed: column.sealed })
      .from(column.table)
      .where(and(isNotNull(column.sealed), ne(sealedKeyId(column), sealer.currentKeyId), after === undefined ? undefined : gt(column.id, after)))
      .orderBy(asc(column.id))
      .limit(BATCH)) as Array<{ id: string | number; sealed: string }>;
    for (const row of rows) {
      let next: string;
      try {
        next = sealer.seal(sealer.unseal(row.sealed, column.purpose), column.purpose);
      } catch (error) {
        if (!(error instanceof UnreadableSecretError)) throw error;
        outcome.unreadable++;
        continue;
      }
      const updated = await ctx.db.execute(
        sql`update ${column.table} set ${sql.identifier(column.sealed.name)} = ${next} where ${column.id} = ${row.id} and ${column.sealed} = ${row.sealed}`,
      );
      outcome.resealed += Number(
        (updated as unknown as { rowCount?: number; affectedRows?: number }).rowCount ?? (updated as unknown as { affectedRows?: number }).affectedRows ?? 0,
      );
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}
