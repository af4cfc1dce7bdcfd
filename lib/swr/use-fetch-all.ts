"use client";

import { useCallback, useRef, useState, useSyncExternalStore } from "react";
import useSWRSubscription from "swr/subscription";
import { DEFAULT_MAX_PAGES, readNdjson, type FetchAllEvent } from "@/lib/explorer/fetch-all-events";
import { FetchAllProgress, walkPhase, type FetchAllState } from "@/lib/explorer/fetch-all-progress";
import type { PageTiming } from "@/lib/explorer/page-walk";
import { progressPublisher } from "@/lib/explorer/progress-publisher";
import { answerError, browserError, consoleFetch, readAnswer, toConsoleRequestError } from "./console-fetch";

// The explorer's views of a walk take its types from here, with its hooks.
export type { FetchAllState, PageTiming };

interface Run {
  id: number;
  method: string;
  /** The query of /api/call/{method}/all. */
  query: string;
}

/**
 * The longest the reading loop works before it lets the browser paint and answer input. Pages of a few
 * items arrive faster than they can be handled when the server is local: without a pause, a thousand of
 * them are read in one task, and Cancel cannot be clicked until it ends.
 */
const SLICE_MS = 8;

/** How often the views of a walk's progress render while it runs (see progressPublisher). */
const PROGRESS_MS = 100;

/**
 * The latest snapshot of a walk, for the few views that show its progress (the panel, the chart, the
 * table's length), each through useFetchAllProgress. The explorer itself renders only when the walk's
 * phase changes (walkPhase): re-rendering the whole page for every snapshot (its form, its inspector, its
 * history) was most of a frame's work.
 */
export class WalkFeed {
  private snapshot: FetchAllState | null = null;
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): FetchAllState | null => this.snapshot;

  set(snapshot: FetchAllState): void {
    this.snapshot = snapshot;
    for (const listener of this.listeners) listener();
  }
}

/**
 * The newest snapshot of the walk `state` belongs to: the feed's, which moves on between the explorer's
 * renders, or `state` itself once another walk has started.
 */
export function useFetchAllProgress(feed: WalkFeed, state: FetchAllState): FetchAllState {
  const live = useSyncExternalStore(feed.subscribe, feed.getSnapshot, feed.getSnapshot);
  return live?.runId === state.runId ? live : state;
}

/** Resolves in a new task: after the browser has had the chance to render and to handle input. */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  // A message, unlike a zero timeout, is not clamped to 4 ms once timers nest.
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/** Page numbers of a resumed request, counted from the start of the whole walk. */
function renumber(event: FetchAllEvent, before: number): FetchAllEvent {
  if (before === 0 || event.type === "done") return event;
  return { ...event, page: event.page + before };
}

/** The query that continues a walk from `cursor`, with the page cap reduced by the pages already walked. */
function resumeQuery(query: string, cursor: string, walked: number): string {
  const next = new URLSearchParams(query);
  next.set("cursor", cursor);
  const cap = Number(next.get("max_pages") ?? DEFAULT_MAX_PAGES);
  next.set("max_pages", String(Math.max(1, cap - walked)));
  return next.toString();
}

/**
 * "Fetch all": streams GET /api/call/{method}/all as an SWR subscription. Cancel unsubscribes, which aborts
 * the fetch; the server sees the disconnect and stops its upstream walk. What arrived before stays shown.
 * The items stay in the walk's FetchAllProgress, outside React; the views of its progress get a snapshot
 * at most every PROGRESS_MS, the explorer one each time the walk's phase changes.
 */
export function useFetchAll() {
  const [run, setRun] = useState<Run | null>(null);
  const [cancelled, setCancelled] = useState<FetchAllState | null>(null);
  const progressRef = useRef<FetchAllProgress | null>(null);
  const nextId = useRef(1);
  const [feed] = useState(() => new WalkFeed());

  const { data } = useSWRSubscription(
    run ? ["/api/call/all", run.id, run.method, run.query] : null,
    (_key, { next }: { next: (error?: Error | null, data?: FetchAllState) => void }) => {
      if (!run) return () => {};
      const controller = new AbortController();
      const progress = new FetchAllProgress(run.id, run.method);
      progressRef.current = progress;
      let phase: string | null = null;
      const frames = progressPublisher(() => {
        const snapshot = progress.snapshot();
        feed.set(snapshot);
        const now = walkPhase(snapshot);
        if (now !== phase) {
          phase = now;
          next(null, snapshot);
        }
      }, PROGRESS_MS);
      // The walk's views appear in a task after the click's, not in it: that task has already rendered the
      // explorer once, and the switch from a page's answer to the walk's panels is a render of its own.
      frames.request();
      (async () => {
        let query = run.query;
        // Pages before the current request: a walk resumed in a new request numbers its pages from 1 again.
        let before = 0;
        let sliceStarted = performance.now();
        try {
          for (;;) {
            const response = await consoleFetch(`/api/call/${encodeURIComponent(run.method)}/all?${query}`, {
              signal: controller.signal,
              headers: { accept: "application/x-ndjson" },
            });
            if (!response.ok) throw answerError(response.status, (await readAnswer(response)).text);
            // An answer without a body ends the walk as a stream that stopped early would.
            if (!response.body) break;
            let resumeAt: string | null = null;
            for await (const line of readNdjson(response.body)) {
              const event = line as FetchAllEvent;
              if (event.type === "resume") {
                resumeAt = event.cursor;
                break;
              }
              progress.apply(renumber(event, before));
              frames.request();
              if (performance.now() - sliceStarted > SLICE_MS) {
                await nextTask();
                if (controller.signal.aborted) return;
                sliceStarted = performance.now();
              }
            }
            if (resumeAt === null) break;
            before = progress.pages;
            query = resumeQuery(run.query, resumeAt, before);
          }
          if (progress.active) {
            const ended = browserError("stream_ended", 200);
            progress.apply({ type: "error", error: ended.code, message: ended.message, page: progress.pages + 1 });
          }
        } catch (error) {
          if (controller.signal.aborted) return;
          const failure = toConsoleRequestError(error);
          progress.apply({ type: "error", error: failure.code, message: failure.message, page: progress.pages + 1 });
        }
        frames.flush();
      })();
      return () => {
        frames.cancel();
        controller.abort();
      };
    },
  );

  const start = useCallback((method: string, query: string) => {
    setCancelled(null);
    setRun({ id: nextId.current++, method, query });
  }, []);

  const cancel = useCallback(() => {
    const progress = progressRef.current;
    if (progress?.active) {
      progress.cancel();
      const snapshot = progress.snapshot();
      feed.set(snapshot);
      setCancelled(snapshot);
    }
    setRun(null);
  }, [feed]);

  /** The walk as the explorer renders it: its counts are those of its last change of phase; `feed` has the newest. */
  const state = run ? (data ?? null) : cancelled;
  return { state, feed, start, cancel };
}
