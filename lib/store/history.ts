import "server-only";
import { randomBytes } from "node:crypto";
import { and, desc, eq, ilike, lt, ne, or, sql, type SQL } from "drizzle-orm";
import type { StoreContext } from "./context";
import { explorerHistory } from "./history-schema";
import { ownedBy } from "./webhooks";

/**
 * The explorer's lasting history, per person (null: the operator). Every write prunes the person's entries
 * in the same transaction: older than 30 days, or beyond the newest 1,000, whichever leaves fewer. With
 * PostgreSQL, writes of one person are serialised by a transaction-scoped advisory lock on their owner: two
 * concurrent writes would otherwise each count without the other's uncommitted entry, and the bound would not
 * hold (PGlite runs one statement at a time: its write is one statement, recordHistory). Finding
 * the edge reads 1,001 entries of the (owner, seq) index; the delete finds the entries past it by that
 * index and the expired ones by the (owner, at) index, so a write costs about the person's 1,000 index
 * entries, however long the table.
 */

/** How many entries a person keeps, and for how long. */
export const HISTORY_KEPT = 1_000;
export const HISTORY_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** An entry as listed: everything but the answer. */
export interface StoreHistorySummary {
  id: string;
  at: number;
  kind: "call" | "all";
  method: string;
  installationId: string;
  tokenKind: string;
  httpMethod: string;
  encoding: string;
  args: Record<string, unknown>;
  stripped: string[];
  outcome: string;
  status: number;
  durationMs: number;
  summary: string;
  count: number | null;
  pages: number | null;
  answerBytes: number;
  truncated: boolean;
  savedRequestId: string | null;
}

/** An entry with its answer (JSON text, at most 64 KB; null when there was none to keep). */
export interface StoreHistoryEntry extends StoreHistorySummary {
  answer: string | null;
}

export type NewHistoryEntry = Omit<StoreHistoryEntry, "id"> & { id?: string };

export interface HistoryQuery {
  /** Part of the method's name, any case. */
  method?: string;
  installationId?: string;
  /** `ok`, `error` (anything but ok), or one outcome exactly (`channel_not_found`, `http_500`). */
  outcome?: string;
  savedRequestId?: string;
  /** The page's cursor: the last page's `next`. */
  before?: number;
  /** 1 to 200 (default 50). */
  limit?: number;
}

export interface HistoryPage {
  entries: StoreHistorySummary[];
  /** Where the next (older) page starts; null on the last. */
  next: number | null;
}

type Row = typeof explorerHistory.$inferSelect;

// Postgres text and jsonb hold no NUL character: an argument or answer with one keeps a replacement instead.
const NUL = /\u0000/g;
const withoutNul = (text: string) => text.replace(NUL, "\uFFFD");
const argsWithoutNul = (args: Record<string, unknown>): Record<string, unknown> =>
  JSON.stringify(args).includes("\\u0000") ? (JSON.parse(JSON.stringify(args).replaceAll("\\u0000", "\\ufffd")) as Record<string, unknown>) : args;

function summaryOf(row: Row): StoreHistorySummary {
  return {
    id: row.id,
    at: row.at,
    kind: row.kind === "all" ? "all" : "call",
    method: row.method,
    installationId: row.installationId,
    tokenKind: row.tokenKind,
    httpMethod: row.httpMethod,
    encoding: row.encoding,
    args: row.args,
    stripped: row.stripped,
    outcome: row.outcome,
    status: row.status,
    durationMs: row.durationMs,
    summary: row.summary,
    count: row.count,
    pages: row.pages,
    answerBytes: row.answerBytes,
    truncated: row.truncated,
    savedRequestId: row.savedRequestId,
  };
}

/**
 * Records an entry and prunes the owner's history to its bounds, atomically; answers the entry's id. With
 * PostgreSQL, in one transaction under the owner's lock. With PGlite, whose one connection runs one statement at a
 * time, the lock guards against nothing and the transaction's four more statements each wait their turn behind
 * every other request's: one statement, the insert and the prune together (the prune does not see the row the
 * same statement inserts, so it keeps one fewer of the others).
 */
export async function recordHistory(ctx: StoreContext, owner: string | null, entry: NewHistoryEntry): Promise<string> {
  const id = entry.id ?? `h_${randomBytes(12).toString("base64url")}`;
  const insert = (db: StoreContext["db"]) =>
    db.insert(explorerHistory).values({
      ...entry,
      id,
      owner,
      method: withoutNul(entry.method),
      summary: withoutNul(entry.summary),
      args: argsWithoutNul(entry.args),
      answer: entry.answer === null ? null : withoutNul(entry.answer),
    });
  if (ctx.oneConnection) {
    await ctx.db.execute(sql`with added as (${insert(ctx.db).getSQL()}) ${pruneBeyond(ctx, owner, entry.at, HISTORY_KEPT - 1)}`);
    return id;
  }
  await ctx.db.transaction(async (tx) => {
    // Held until the transaction ends; a write of another person takes another lock.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`explorer_history:${owner ?? ""}`}))`);
    await insert(tx as unknown as StoreContext["db"]);
    await tx.execute(pruneBeyond(ctx, owner, entry.at, HISTORY_KEPT));
  });
  return id;
}

/** Deletes the owner's entries older than 30 days before `at`, and those past the newest `kept` (one statement). */
function pruneBeyond(ctx: StoreContext, owner: string | null, at: number, kept: number): SQL {
  // The seq of the newest entry past the bound, if the owner has that many (none: only the expired go).
  const edge = ctx.db
    .select({ seq: explorerHistory.seq })
    .from(explorerHistory)
    .where(ownedBy(explorerHistory.owner, owner))
    .orderBy(desc(explorerHistory.seq))
    .offset(kept)
    .limit(1);
  const expired = lt(explorerHistory.at, at - HISTORY_DAYS * DAY_MS);
  return sql`delete from ${explorerHistory} where ${and(ownedBy(explorerHistory.owner, owner), or(expired, sql`${explorerHistory.seq} <= (${edge})`))}`;
}

function outcomeIs(outcome: string): SQL {
  if (outcome === "error") return ne(explorerHistory.outcome, "ok");
  return eq(explorerHistory.outcome, outcome);
}

/** `%` and `_` typed in a search are letters, not patterns. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A page of the owner's history, newest first, filtered. */
export async function listHistory(ctx: StoreContext, owner: string | null, query: HistoryQuery = {}): Promise<HistoryPage> {
  const limit = Math.min(200, Math.max(1, query.limit ?? 50));
  const rows = await ctx.db
    .select()
    .from(explorerHistory)
    .where(
      and(
        ownedBy(explorerHistory.owner, owner),
        query.before !== undefined ? lt(explorerHistory.seq, query.before) : undefined,
        query.method ? ilike(explorerHistory.method, `%${likeEscaped(query.method)}%`) : undefined,
        query.installationId ? eq(explorerHistory.installationId, query.installationId) : undefined,
        query.outcome ? outcomeIs(query.outcome) : undefined,
        query.savedRequestId ? eq(explorerHistory.savedRequestId, query.savedRequestId) : undefined,
      ),
    )
    .orderBy(desc(explorerHistory.seq))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return { entries: page.map(summaryOf), next: rows.length > limit ? page.at(-1)!.seq : null };
}

/** One of the owner's entries with its answer; null when the owner has none with that id. */
export async function getHistoryEntry(ctx: StoreContext, owner: string | null, id: string): Promise<StoreHistoryEntry | null> {
  const [row] = await ctx.db
    .select()
    .from(explorerHistory)
    .where(and(eq(explorerHistory.id, id), ownedBy(explorerHistory.owner, owner)));
  return row ? { ...summaryOf(row), answer: row.answer } : null;
}

/** Forgets the owner's whole history (nobody else's); answers how many entries. */
export async function clearHistory(ctx: StoreContext, owner: string | null): Promise<number> {
  const deleted = await ctx.db.delete(explorerHistory).where(ownedBy(explorerHistory.owner, owner)).returning({ seq: explorerHistory.seq });
  return deleted.length;
}
