import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "./backend";
import { type StoreContext } from "./context";
import { CHANGE_CHANNEL } from "./installation-cache";
import { installationValues, tokenValues } from "./installations";
import { installations, timelineEntries, tokens } from "./schema";
import type { StoreInstallation, StoreTimelineEntry } from "./types";

/**
 * New installations, many in one transaction (npm run seed): multi-row inserts rather than a put each, so
 * 100,000 take minutes, not hours. Secrets are sealed as put seals them (the console reads them as any
 * other); every id must be new (a duplicate fails the whole batch, which changes nothing).
 */

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters in one statement (an installation row has 24). */
const ROWS_PER_STATEMENT = 1_000;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function insertAll(tx: Tx, table: typeof installations | typeof tokens | typeof timelineEntries, rows: object[]): Promise<void> {
  // Drizzle's insert types differ per table; each chunk holds rows of the one table given.
  for (const chunk of chunks(rows, ROWS_PER_STATEMENT)) await tx.insert(table).values(chunk as never);
}

export async function insertInstallations(ctx: StoreContext, records: Array<{ record: StoreInstallation; timeline?: StoreTimelineEntry[] }>): Promise<number> {
  if (records.length === 0) return 0;
  const installationRows = records.map(({ record }) => installationValues(ctx, record, 1));
  const tokenRows = records.flatMap(({ record }) => [
    ...(record.bot ? [tokenValues(ctx, record.id, "bot", null, record.bot)] : []),
    ...(record.user ? [tokenValues(ctx, record.id, "user", null, record.user)] : []),
    ...Object.entries(record.people ?? {}).map(([userId, token]) => tokenValues(ctx, record.id, "user", userId, token)),
  ]);
  const timelineRows = records.flatMap(({ record, timeline }) => (timeline ?? []).map((entry) => ({ installationId: record.id, at: entry.at, entry })));
  try {
    await ctx.db.transaction(async (tx) => {
      await insertAll(tx, installations, installationRows);
      await insertAll(tx, tokens, tokenRows);
      await insertAll(tx, timelineEntries, timelineRows);
      // Other instances hear of every new installation (their lists and caches), in one statement.
      if (ctx.notifies) {
        const payloads = records.map(({ record }) => `1 ${record.id}`);
        await tx.execute(sql`select pg_notify(${CHANGE_CHANNEL}, p) from unnest(${sql.param(payloads)}::text[]) as p`);
      }
    });
  } finally {
    for (const { record } of records) ctx.cache.invalidate(record.id, { made: true });
  }
  return records.length;
}
