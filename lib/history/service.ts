import "server-only";
import { z } from "zod";
import { ownerOf } from "@/lib/access/viewer";
import { historyWritesSettled } from "@/lib/call/call-history";
import type { HistoryEntry, HistoryEntryWithAnswer, HistoryInstallationName, HistoryPageAnswer } from "@/lib/explorer/history";
import { AppError } from "@/lib/http/app-error";
import { canSee } from "@/lib/installations/universal/rights";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import { installationName } from "@/lib/installations/universal/view";
import { getStore, type StoreHistoryEntry, type StoreHistorySummary } from "@/lib/store";
import type { Viewer } from "@/lib/viewer";

/**
 * The explorer's history routes (GET, DELETE /api/history; GET /api/history/{id}): always the viewer's own
 * entries (ownerOf: the signed-in person, or the operator without sign-in). An admin reads no one else's:
 * a person's requests are theirs.
 */

/** GET /api/history's query: filters, the cursor of the page, its size. */
export const HistoryListQuery = z.object({
  method: z.string().trim().max(200, "method is at most 200 characters").optional(),
  installation: z.string().trim().max(200).optional(),
  outcome: z
    .string()
    .trim()
    .max(100)
    .regex(/^[a-z0-9_]*$/, "outcome is ok, error or an error code")
    .optional(),
  savedRequestId: z.string().max(64, "savedRequestId is at most 64 characters").optional(),
  /** Read by historyCursorPosition (a malformed one answers 400 invalid_cursor, not the 422 of a bad query). */
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * The cursor of GET /api/history: opaque to the client (base64url of `h1:<seq>`, the keyset's position),
 * so that it is passed back as it came and can change form without breaking a client.
 */
function historyCursor(seq: number): string {
  return Buffer.from(`h1:${seq}`, "utf8").toString("base64url");
}

/** The keyset position a cursor holds; a cursor the history did not give (or one past a safe integer) is invalid_cursor. */
function historyCursorPosition(cursor: string): number {
  const decoded = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  const digits = /^h1:([1-9][0-9]{0,15})$/.exec(decoded)?.[1];
  const seq = digits === undefined ? NaN : Number(digits);
  // The installations' lists' code (lib/installations/list-cursor.ts), with the history's own words.
  if (!Number.isSafeInteger(seq)) {
    throw new AppError("invalid_cursor", { message: "This cursor is not one the history gave: send the `next` of the last page, or none for the first page." });
  }
  return seq;
}

export function historyView(entry: StoreHistorySummary): HistoryEntry {
  return {
    id: entry.id,
    at: entry.at,
    method: entry.method,
    installation: entry.installationId,
    tokenKind: entry.tokenKind as TokenKind,
    httpMethod: entry.httpMethod === "POST" ? "POST" : "GET",
    encoding: entry.encoding === "json" ? "json" : "form",
    params: entry.args,
    stripped: entry.stripped,
    kind: entry.kind,
    outcome: entry.outcome,
    status: entry.status,
    ok: entry.outcome === "ok",
    ms: entry.durationMs,
    ...(entry.count !== null ? { count: entry.count } : {}),
    ...(entry.pages !== null ? { pages: entry.pages } : {}),
    summary: entry.summary,
    answerBytes: entry.answerBytes,
    truncated: entry.truncated,
    ...(entry.savedRequestId ? { savedRequestId: entry.savedRequestId } : {}),
  };
}

export async function listHistoryFor(viewer: Viewer, query: z.infer<typeof HistoryListQuery>): Promise<HistoryPageAnswer> {
  // The calls this person just made are recorded after their answers: read once they are in.
  await historyWritesSettled(ownerOf(viewer));
  const page = await (
    await getStore()
  ).history.list(ownerOf(viewer), {
    ...(query.method ? { method: query.method } : {}),
    ...(query.installation ? { installationId: query.installation } : {}),
    ...(query.outcome ? { outcome: query.outcome } : {}),
    ...(query.savedRequestId ? { savedRequestId: query.savedRequestId } : {}),
    ...(query.cursor ? { before: historyCursorPosition(query.cursor) } : {}),
    limit: query.limit,
  });
  const entries = page.entries.map(historyView);
  return { entries, next: page.next === null ? null : historyCursor(page.next), installations: await installationNames(viewer, entries) };
}

/**
 * The names of a page's installations, so an entry shows where it was called whichever of 100,000
 * installations that was, not only those of the session's first page. One the viewer may no longer see is left
 * out: its id shows. Each distinct id is a point read of the installation cache (a person's page names a few
 * installations; at most one per entry, 200); a miss reads the record whole, as the explorer's call with it did,
 * and nothing of it but the names leaves here.
 */
async function installationNames(viewer: Viewer, entries: HistoryEntry[]): Promise<Record<string, HistoryInstallationName>> {
  const store = await getStore();
  const ids = [...new Set(entries.map((e) => e.installation))];
  const named = await Promise.all(
    ids.map(async (id) => {
      const stored = await store.installations.get(id, { shared: true });
      if (!stored || !canSee(viewer, stored)) return undefined;
      const app = { key: stored.appKey === "legacy" ? ("legacy" as const) : ("console" as const), id: stored.appId ?? null, name: stored.appName ?? null };
      return [id, { name: installationName(stored.team, app), team: stored.team.id }] as const;
    }),
  );
  return Object.fromEntries(named.filter((n) => n !== undefined));
}

export async function historyEntryFor(viewer: Viewer, id: string): Promise<HistoryEntryWithAnswer> {
  await historyWritesSettled(ownerOf(viewer));
  const entry: StoreHistoryEntry | null = id.length <= 100 ? await (await getStore()).history.get(ownerOf(viewer), id) : null;
  if (!entry) throw new AppError("unknown_history_entry");
  return { ...historyView(entry), answer: entry.answer };
}

export async function clearHistoryFor(viewer: Viewer): Promise<number> {
  // A call answered just before the clear is cleared with the rest, not written after it.
  await historyWritesSettled(ownerOf(viewer));
  return (await getStore()).history.clear(ownerOf(viewer));
}
