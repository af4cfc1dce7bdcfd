"use client";

import { useCallback, useRef, useState } from "react";
import useSWRSubscription from "swr/subscription";
import { CONSOLE_REQUEST_HEADER } from "@/lib/console-request";
import { DEFAULT_MAX_PAGES, readNdjson, type FetchAllEvent } from "@/lib/explorer/fetch-all-events";
import { findCollection, type CollectionKind } from "@/lib/explorer/items";

/** One page of a walk, by hand or Fetch all: its items and upstream time. */
import type { PageTiming } from "@/lib/explorer/page-walk";

export type { PageTiming };

export interface FetchAllState {
  runId: number;
  method: string;
  status: "running" | "waiting" | "done" | "error" | "cancelled";
  pages: number;
  /** Every item so far, appended in place as pages arrive (a new array would cost O(n) per page). */
  items: unknown[];
  field: string;
  kind: CollectionKind;
  timings: PageTiming[];
  startedAt: number;
  endedAt: number | null;
  /** While waiting out a 429: when the walk resumes (epoch ms) and the Retry-After it honours. */
  retryAt: number | null;
  retryAfterS: number | null;
  capped: boolean;
  error: string | null;
  message: string | null;
}

interface Run {
  id: number;
  method: string;
  /** The query of /api/call/{method}/all. */
  query: string;
}

function initialState(run: Run): FetchAllState {
  return {
    runId: run.id,
    method: run.method,
    status: "running",
    pages: 0,
    items: [],
    field: "members",
    kind: "members",
    timings: [],
    startedAt: Date.now(),
    endedAt: null,
    retryAt: null,
    retryAfterS: null,
    capped: false,
    error: null,
    message: null,
  };
}

function apply(state: FetchAllState, event: FetchAllEvent): FetchAllState {
  switch (event.type) {
    case "page": {
      const collection = findCollection(event.response);
      if (collection) {
        const target = state.items;
        for (const item of collection.items) target.push(item);
      }
      return {
        ...state,
        status: "running",
        pages: event.page,
        field: collection?.field ?? state.field,
        kind: collection?.kind ?? state.kind,
        timings: [...state.timings, { page: event.page, count: event.count, ms: event.ms }],
        retryAt: null,
        retryAfterS: null,
      };
    }
    case "ratelimited":
      return { ...state, status: "waiting", retryAfterS: event.retryAfterS, retryAt: Date.now() + event.retryAfterS * 1000 };
    case "done":
      return { ...state, status: "done", capped: event.capped, endedAt: Date.now(), retryAt: null };
    case "resume":
      return state;
    case "error":
      return { ...state, status: "error", error: event.error, message: event.message ?? null, endedAt: Date.now(), retryAt: null };
  }
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
 */
export function useFetchAll() {
  const [run, setRun] = useState<Run | null>(null);
  const [cancelled, setCancelled] = useState<FetchAllState | null>(null);
  const latest = useRef<FetchAllState | null>(null);
  const nextId = useRef(1);

  const { data } = useSWRSubscription(
    run ? ["/api/call/all", run.id, run.method, run.query] : null,
    (_key, { next }: { next: (error?: Error | null, data?: FetchAllState) => void }) => {
      if (!run) return () => {};
      const controller = new AbortController();
      let state = initialState(run);
      latest.current = state;
      next(null, state);
      (async () => {
        let query = run.query;
        // Pages before the current request: a walk resumed in a new request numbers its pages from 1 again.
        let before = 0;
        try {
          for (;;) {
            const response = await fetch(`/api/call/${encodeURIComponent(run.method)}/all?${query}`, {
              signal: controller.signal,
              headers: { accept: "application/x-ndjson", [CONSOLE_REQUEST_HEADER]: "1" },
              cache: "no-store",
            });
            if (!response.ok || !response.body) {
              const body = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
              state = apply(state, { type: "error", error: body.error ?? `http_${response.status}`, message: body.message, page: state.pages + 1 });
              break;
            }
            let resumeAt: string | null = null;
            for await (const line of readNdjson(response.body)) {
              const event = line as FetchAllEvent;
              if (event.type === "resume") {
                resumeAt = event.cursor;
                break;
              }
              state = apply(state, renumber(event, before));
              latest.current = state;
              next(null, state);
            }
            if (resumeAt === null) break;
            before = state.pages;
            query = resumeQuery(run.query, resumeAt, before);
          }
          if (state.status === "running" || state.status === "waiting") {
            state = apply(state, { type: "error", error: "stream_ended", message: "The console ended the stream early.", page: state.pages + 1 });
          }
        } catch (error) {
          if (controller.signal.aborted) return;
          state = apply(state, {
            type: "error",
            error: "network_error",
            message: error instanceof Error ? error.message : String(error),
            page: state.pages + 1,
          });
        }
        latest.current = state;
        next(null, state);
      })();
      return () => controller.abort();
    },
  );

  const start = useCallback((method: string, query: string) => {
    setCancelled(null);
    setRun({ id: nextId.current++, method, query });
  }, []);

  const cancel = useCallback(() => {
    const last = latest.current;
    if (last && (last.status === "running" || last.status === "waiting")) {
      setCancelled({ ...last, status: "cancelled", endedAt: Date.now(), retryAt: null });
    }
    setRun(null);
  }, []);

  const state = run ? (data ?? null) : cancelled;
  return { state, start, cancel };
}
