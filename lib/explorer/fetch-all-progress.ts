import type { FetchAllEvent } from "./fetch-all-events";
import { findCollection, type CollectionKind } from "./items";
import type { PageTiming } from "./page-walk";

/** What the explorer shows of a Fetch all at one moment: a snapshot, made at most once per frame. */
export interface FetchAllState {
  runId: number;
  method: string;
  status: "running" | "waiting" | "done" | "error" | "cancelled";
  pages: number;
  /** Items in `items` when this snapshot was made. */
  count: number;
  /**
   * The walk's items: one array, appended in place as pages arrive and shared by every snapshot (a copy
   * per page would cost O(n) each), so it may hold more than `count` once later pages came in. Only the
   * rows a table shows are ever read from it.
   */
  items: readonly unknown[];
  field: string;
  kind: CollectionKind;
  /** One per page, appended in place like `items`. */
  timings: readonly PageTiming[];
  startedAt: number;
  endedAt: number | null;
  /** While waiting out a 429: when the walk resumes (epoch ms) and the Retry-After it honours. */
  retryAt: number | null;
  retryAfterS: number | null;
  capped: boolean;
  error: string | null;
  message: string | null;
}

type Head = Omit<FetchAllState, "count" | "items" | "timings">;

/**
 * A walk's progress as its NDJSON lines arrive, kept outside React: each line updates it in place for
 * the cost of its own items, and the explorer renders a snapshot of it once per frame however many pages
 * came in meanwhile (a render per page was what held the tab for seconds on a walk of small pages).
 */
export class FetchAllProgress {
  private readonly items: unknown[] = [];
  private readonly timings: PageTiming[] = [];
  private head: Head;

  constructor(runId: number, method: string, now = Date.now()) {
    this.head = {
      runId,
      method,
      status: "running",
      pages: 0,
      field: "members",
      kind: "members",
      startedAt: now,
      endedAt: null,
      retryAt: null,
      retryAfterS: null,
      capped: false,
      error: null,
      message: null,
    };
  }

  get pages(): number {
    return this.head.pages;
  }

  /** Whether the walk still runs (or waits out a 429). */
  get active(): boolean {
    return this.head.status === "running" || this.head.status === "waiting";
  }

  apply(event: FetchAllEvent, now = Date.now()): void {
    // A line read after Cancel, before the stream's end reached the reader, changes nothing: the views
    // follow this progress directly, and a cancelled walk shows what it had when it was stopped.
    if (this.head.status === "cancelled") return;
    switch (event.type) {
      case "page": {
        const collection = findCollection(event.response, this.head.method);
        if (collection) for (const item of collection.items) this.items.push(item);
        this.timings.push({ page: event.page, count: event.count, ms: event.ms });
        this.head = {
          ...this.head,
          status: "running",
          pages: event.page,
          field: collection?.field ?? this.head.field,
          kind: collection?.kind ?? this.head.kind,
          retryAt: null,
          retryAfterS: null,
        };
        return;
      }
      case "ratelimited":
        this.head = { ...this.head, status: "waiting", retryAfterS: event.retryAfterS, retryAt: now + event.retryAfterS * 1000 };
        return;
      case "done":
        this.head = { ...this.head, status: "done", capped: event.capped, endedAt: now, retryAt: null };
        return;
      case "resume":
        return;
      case "error":
        this.head = { ...this.head, status: "error", error: event.error, message: event.message ?? null, endedAt: now, retryAt: null };
    }
  }

  /** The walk stopped by the person (Cancel): what arrived stays. */
  cancel(now = Date.now()): void {
    if (this.active) this.head = { ...this.head, status: "cancelled", endedAt: now, retryAt: null };
  }

  snapshot(): FetchAllState {
    return { ...this.head, count: this.items.length, items: this.items, timings: this.timings };
  }
}

/**
 * What of a walk changes how the explorer lays itself out: its status and what it walks (the table's kind),
 * whether a first page has come, a 429's wait, how it ended. Its counts are not in it: they change with
 * every page, and only the views of its progress follow them.
 */
export function walkPhase(state: FetchAllState): string {
  return JSON.stringify([state.runId, state.status, state.field, state.kind, state.pages > 0, state.retryAt, state.capped, state.error]);
}
