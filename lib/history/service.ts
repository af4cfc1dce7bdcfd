import "server-only";
import { z } from "zod";
import { ownerOf } from "@/lib/access/viewer";
import { historyWritesSettled } from "@/lib/call/call-history";
import type { HistoryEntry, HistoryEntryWithAnswer, HistoryPageAnswer } from "@/lib/explorer/history";
import { AppError } from "@/lib/http/app-error";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
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
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, "cursor is the last page's `next`")
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

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
    ...(query.cursor ? { before: Number(query.cursor) } : {}),
    limit: query.limit,
  });
  return { entries: page.entries.map(historyView), next: page.next === null ? null : String(page.next) };
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
