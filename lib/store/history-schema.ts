/**
 * The explorer's lasting history (lib/store/history.ts): every call and Fetch all a person made, kept per
 * person (`owner`: `<team id>:<user id>`, null the operator of a console without sign-in). No credential is
 * kept: the arguments come without them (the names dropped are listed in `stripped`), and the answer, cut
 * to 64 KB, has token-shaped strings masked. Bounded per person on write: the newest 1,000 and 30 days.
 *
 * No `server-only` here: drizzle-kit loads the schema outside Next.js.
 */
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";

export const explorerHistory = pgTable(
  "explorer_history",
  {
    /** Orders a person's entries (newest first) and is the keyset cursor: ids are opaque, seq is not shown. */
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    id: text("id").notNull().unique(),
    owner: text("owner"),
    at: bigint("at", { mode: "number" }).notNull(),
    /** `call` (one request) or `all` (a Fetch all walk). */
    kind: text("kind").notNull(),
    method: text("method").notNull(),
    installationId: text("installation_id").notNull(),
    tokenKind: text("token_kind").notNull(),
    httpMethod: text("http_method").notNull(),
    /** How a POST's arguments went: `form` or `json`. */
    encoding: text("encoding").notNull(),
    /** The arguments as sent, credentials dropped (JSON values for a JSON body, strings otherwise). */
    args: jsonb("args").$type<Record<string, unknown>>().notNull(),
    /** Names of the arguments dropped as credentials or token-shaped values. */
    stripped: text("stripped").array().notNull(),
    /** `ok`, the platform's error code, `http_<status>` for an HTTP failure without one, `cancelled` or `paused` (a walk: see walk-history.ts). */
    outcome: text("outcome").notNull(),
    status: integer("status").notNull(),
    durationMs: integer("duration_ms").notNull(),
    /** What the answer said, in a line ("ok · 50 members · more pages", "missing_scope · needs chat:write"). */
    summary: text("summary").notNull(),
    count: integer("count"),
    pages: integer("pages"),
    /** The answer as JSON text (a walk's: its items), at most 64 KB; `truncated` when it was cut. */
    answer: text("answer"),
    answerBytes: integer("answer_bytes").notNull(),
    truncated: boolean("truncated").notNull(),
    /** The saved request this run came from (the collections' id, no foreign key: a deleted one leaves its runs). */
    savedRequestId: text("saved_request_id"),
  },
  (t) => [
    index("explorer_history_owner_seq_idx").on(t.owner, t.seq),
    // The 30-day prune on each write (lib/store/history.ts) reads the person's expired entries by it.
    index("explorer_history_owner_at_idx").on(t.owner, t.at),
    index("explorer_history_saved_idx")
      .on(t.owner, t.savedRequestId, t.seq)
      .where(sql`${t.savedRequestId} is not null`),
    check("explorer_history_kind_check", sql`${t.kind} in ('call', 'all')`),
  ],
);
