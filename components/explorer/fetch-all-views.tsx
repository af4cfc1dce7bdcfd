"use client";

import { useMemo } from "react";
import { useFetchAllProgress, type FetchAllState, type WalkFeed } from "@/lib/swr/use-fetch-all";
import { formatCount } from "@/lib/format";
import { JsonViewer } from "./json-viewer";
import { PageTimings } from "./page-timings";
import { ResultsTable } from "./results-table";

/**
 * The parts of the explorer that follow a Fetch all page by page. Each reads the walk's newest snapshot
 * from its feed and renders on its own, a few times a second, while the rest of the page renders only
 * when the walk's phase changes (lib/swr/use-fetch-all.ts).
 */
interface WalkProps {
  feed: WalkFeed;
  /** The walk as the explorer last rendered it. */
  state: FetchAllState;
}

/** "Fetch all (2,000 items, walking)", for the switch between the walk by hand and the walk of everything. */
export function FetchAllModeLabel({ feed, state }: WalkProps) {
  const walk = useFetchAllProgress(feed, state);
  const walking = walk.status === "running" || walk.status === "waiting";
  return `Fetch all (${formatCount(walk.count)} items, ${walking ? "walking" : walk.status})`;
}

export function FetchAllTable({ feed, state }: WalkProps) {
  const walk = useFetchAllProgress(feed, state);
  const walking = walk.status === "running" || walk.status === "waiting";
  return (
    <ResultsTable
      kind={walk.kind}
      items={walk.items}
      version={walk.pages}
      emptyText={walking && walk.pages === 0 ? "Waiting for the first page…" : "No items in this walk."}
    />
  );
}

export function FetchAllJson({ feed, state }: WalkProps) {
  const walk = useFetchAllProgress(feed, state);
  const value = useMemo(
    // A walk appends to `items` in place: a copy per snapshot lets the (memoised) tree see it grow, and is
    // made only while the JSON view is shown.
    () => ({ method: walk.method, pages: walk.pages, count: walk.count, [walk.field]: walk.items.slice(0, walk.count) }),
    // Its page count says when `items` grew.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the snapshot changes identity on every tick; these fields are what the copy depends on
    [walk.runId, walk.pages, walk.status],
  );
  return <JsonViewer value={value} label={walk.method} />;
}

export function FetchAllTimings({ feed, state }: WalkProps) {
  const walk = useFetchAllProgress(feed, state);
  return <PageTimings timings={walk.timings} />;
}
