"use client";

import { useEffect, useRef, useState } from "react";
import useSWRInfinite from "swr/infinite";
import type { TimelinePageAnswer } from "@/lib/installations/actions/page-timeline";
import type { TimelineEntry } from "@/lib/installations/universal/timeline";
import { fetchJson, type ConsoleRequestError } from "./console-fetch";

const PAGE_SIZE = 20;

/**
 * An installation's whole timeline, a page at a time (GET /api/installations/{id}/timeline), once the person
 * asks for more than the newest entries the session carries. The pages follow one another by the cursor each
 * answers with, so they never overlap or leave a gap; when the session's newest entry changes (`newestAt`: an
 * action added one), every page loaded is read again from the top.
 */
export function useTimeline(installationId: string, newestAt: number | undefined) {
  const [expanded, setExpanded] = useState(false);
  const base = `/api/installations/${encodeURIComponent(installationId)}/timeline?limit=${PAGE_SIZE}`;
  const pages = useSWRInfinite<TimelinePageAnswer, ConsoleRequestError>(
    (index, previous: TimelinePageAnswer | null) => {
      if (!expanded) return null;
      if (index === 0) return base;
      return previous?.nextBefore ? `${base}&before=${previous.nextBefore}` : null;
    },
    (url: string) => fetchJson<TimelinePageAnswer>(url),
    // The first "Show older" loads two pages: the newest 20, which the session showed already, and the 20 before them.
    { initialSize: 2, revalidateFirstPage: false, revalidateOnFocus: false },
  );
  const { mutate } = pages;
  const seenNewest = useRef(newestAt);
  useEffect(() => {
    if (seenNewest.current === newestAt) return;
    seenNewest.current = newestAt;
    if (expanded) void mutate();
  }, [expanded, newestAt, mutate]);

  const loaded = pages.data ?? [];
  const last = loaded.at(-1);
  return {
    expanded,
    /** Every entry of the pages loaded, newest first; null until the first page came. */
    entries: loaded.length > 0 ? loaded.flatMap((page): TimelineEntry[] => page.entries) : null,
    /** Older entries are kept beyond the pages loaded (unknown, so true, until a page says). */
    hasOlder: last ? last.nextBefore !== null : true,
    loading: expanded && (pages.isLoading || (pages.data !== undefined && pages.data.length < pages.size && last?.nextBefore !== null)),
    error: pages.error,
    /** Loads the next older page (SWR does not page while its first key is null, hence `expanded` first). */
    showOlder: () => (expanded ? void pages.setSize((size) => size + 1) : setExpanded(true)),
  };
}
