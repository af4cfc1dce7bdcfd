"use client";

import { useEffect } from "react";
import useSWRInfinite from "swr/infinite";
import type { TimelinePageAnswer } from "@/lib/installations/page-timeline";
import type { TimelineEntry } from "@/lib/installations/timeline";
import { fetchJson, type ConsoleRequestError } from "./fetch-json";

const PAGE_SIZE = 20;

/**
 * An installation's whole timeline, a page at a time (GET /api/installations/{id}/timeline), once the person
 * asks for more than the newest entries the session carries (`expanded`). The pages follow one another by
 * the cursor each answers with, so they never overlap or leave a gap; when the session's newest entry
 * changes (an action added one), every page loaded is read again from the top.
 */
export function useTimeline(installationId: string, expanded: boolean, newestAt: number | undefined) {
  const base = `/api/installations/${encodeURIComponent(installationId)}/timeline?limit=${PAGE_SIZE}`;
  const pages = useSWRInfinite<TimelinePageAnswer, ConsoleRequestError>(
    (index, previous: TimelinePageAnswer | null) => {
      if (!expanded) return null;
      if (index === 0) return base;
      return previous?.nextBefore ? `${base}&before=${previous.nextBefore}` : null;
    },
    (url: string) => fetchJson<TimelinePageAnswer>(url),
    { revalidateFirstPage: false, revalidateOnFocus: false },
  );
  const { mutate } = pages;
  useEffect(() => {
    if (expanded) void mutate();
  }, [expanded, newestAt, mutate]);

  const loaded = pages.data ?? [];
  const last = loaded.at(-1);
  return {
    /** Every entry of the pages loaded, newest first; null until the first page came. */
    entries: loaded.length > 0 ? loaded.flatMap((page): TimelineEntry[] => page.entries) : null,
    /** Older entries are kept beyond the pages loaded. */
    hasOlder: last ? last.nextBefore !== null : true,
    loading: pages.isLoading || (pages.size > 0 && pages.data !== undefined && pages.data.length < pages.size),
    error: pages.error,
    /**
     * Loads the next older page. The first time (`expanded` just turned true) that is the first two pages:
     * the newest 20, which the session showed already, then the 20 before them.
     */
    showOlder: () => pages.setSize((size) => Math.max(2, size + 1)),
  };
}
