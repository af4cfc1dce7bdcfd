"use client";

import { useCallback, useRef, useState } from "react";
import useSWRSubscription from "swr/subscription";
import { CONSOLE_REQUEST_HEADER } from "@/lib/console-request";
import { DEFAULT_MAX_PAGES, readNdjson, type FetchAllEvent } from "@/lib/explorer/fetch-all-events";
import { FetchAllProgress, type FetchAllState } from "@/lib/explorer/fetch-all-progress";

/** One page of a walk, by hand or Fetch all: its items and upstream time. */
import type { PageTiming } from "@/lib/explorer/page-walk";

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

/**
 * Calls `publish` at most once per animation frame however often `request` is called, so that a walk's
 * pages cost one render a frame, not one each; `flush` publishes now (a walk's last word).
 */
function framePublisher(publish: () => void) {
  let frame: number | null = null;
  const cancel = () => {
    if (frame !== null) cancelAnimationFrame(frame);
    frame = null;
  };
  return {
    request() {
      frame ??= requestAnimationFrame(() => {
        frame = null;
        publish();
      });
    },
    flush() {
      cancel();
      publish();
    },
    cancel,
  };
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
 * The items stay in the walk's FetchAllProgress, outside React; React gets a snapshot once per frame.
 */
export function useFetchAll() {
  const [run, setRun] = useState<Run | null>(null);
  const [cancelled, setCancelled] = useState<FetchAllState | null>(null);
  const progressRef = useRef<FetchAllProgress | null>(null);
  const nextId = useRef(1);

  const { data } = useSWRSubscription(
    run ? ["/api/call/all", run.id, run.method, run.query] : null,
    (_key, { next }: { next: (error?: Error | null, data?: FetchAllState) => void }) => {
      if (!run) return () => {};
      const controller = new AbortController();
      const progress = new FetchAllProgress(run.id, run.method);
      progressRef.current = progress;
      const frames = framePublisher(() => next(null, progress.snapshot()));
      frames.flush();
      (async () => {
        let query = run.query;
        // Pages before the current request: a walk resumed in a new request numbers its pages from 1 again.
        let before = 0;
        let sliceStarted = performance.now();
        try {
          for (;;) {
            const response = await fetch(`/api/call/${encodeURIComponent(run.method)}/all?${query}`, {
              signal: controller.signal,
              headers: { accept: "application/x-ndjson", [CONSOLE_REQUEST_HEADER]: "1" },
              cache: "no-store",
            });
            if (!response.ok || !response.body) {
              const body = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
              progress.apply({ type: "error", error: body.error ?? `http_${response.status}`, message: body.message, page: progress.pages + 1 });
              break;
            }
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
            progress.apply({ type: "error", error: "stream_ended", message: "The console ended the stream early.", page: progress.pages + 1 });
          }
        } catch (error) {
          if (controller.signal.aborted) return;
          progress.apply({
            type: "error",
            error: "network_error",
            message: error instanceof Error ? error.message : String(error),
            page: progress.pages + 1,
          });
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
      setCancelled(progress.snapshot());
    }
    setRun(null);
  }, []);

  const state = run ? (data ?? null) : cancelled;
  return { state, start, cancel };
}
