import "server-only";
import { AppError } from "@/lib/http/app-error";
import type { Viewer } from "@/lib/viewer";
import { getStore } from "@/lib/store";
import { INSTALLATION_ID } from "../record";
import { requireInstallation } from "../visibility";
import { timelineEntrySchema, type TimelineEntry } from "../universal/timeline";

/** GET /api/installations/{id}/timeline's answer. */
export interface TimelinePageAnswer {
  ok: true;
  /** Newest first, masked values only. */
  entries: TimelineEntry[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: number | null;
}

/** The page size the installation card asks for: the session's view carries the newest 20. */
export const TIMELINE_PAGE_SIZE = 20;
export const MAX_TIMELINE_PAGE_SIZE = 100;

/**
 * A page of an installation's timeline from the store, newest first, before the sequence number `before`
 * (the last page's nextBefore). Every entry is checked against the timeline's schema on the way out, as on
 * every read: one that fails it (not masked, or of a kind this version does not know) is left out, never
 * shown. A malformed id, an unknown one and another team's answer alike, 404 `unknown_installation`.
 */
export async function pageInstallationTimeline({
  viewer,
  id,
  page,
}: {
  viewer: Viewer;
  id: string;
  page: { before?: number; limit: number };
}): Promise<TimelinePageAnswer> {
  if (!INSTALLATION_ID.test(id)) throw new AppError("unknown_installation");
  await requireInstallation(viewer, id);
  const store = await getStore();
  const { entries, nextBefore } = await store.installations.pageTimeline(id, {
    ...(page.before !== undefined ? { before: page.before } : {}),
    limit: page.limit,
  });
  return {
    ok: true,
    entries: entries.flatMap(({ entry }) => {
      const parsed = timelineEntrySchema.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    }),
    nextBefore: nextBefore ?? null,
  };
}
