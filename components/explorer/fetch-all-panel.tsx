"use client";

import { useNow } from "@/components/use-now";
import { useFetchAllProgress, type FetchAllState, type WalkFeed } from "@/lib/swr/use-fetch-all";
import { BUTTON, Badge, Panel, Stat } from "@/components/ui/primitives";
import { formatCount, formatMs } from "@/lib/format";

interface Props {
  /** The walk's newest snapshots, which this panel follows between the explorer's renders. */
  feed: WalkFeed;
  state: FetchAllState;
  /** The page cap the walk started with. */
  maxPages: number;
  onCancel(): void;
  onDownload(format: "json" | "csv"): void;
}

const STATUS_BADGE: Record<FetchAllState["status"], { tone: "ok" | "error" | "warn" | "neutral"; text: string }> = {
  running: { tone: "neutral", text: "walking" },
  waiting: { tone: "warn", text: "rate limited" },
  done: { tone: "ok", text: "complete" },
  error: { tone: "error", text: "failed" },
  cancelled: { tone: "warn", text: "cancelled" },
};

/** Progress of a server-side walk: pages, items, elapsed, rate, a Retry-After countdown, Cancel, downloads. */
export function FetchAllPanel({ feed, state: rendered, maxPages, onCancel, onDownload }: Props) {
  const state = useFetchAllProgress(feed, rendered);
  const active = state.status === "running" || state.status === "waiting";
  const now = useNow(200, active) ?? state.startedAt;
  const elapsed = (state.endedAt ?? now) - state.startedAt;
  const rate = elapsed > 0 ? (state.count / elapsed) * 1000 : 0;
  const remaining = state.retryAt ? Math.max(0, Math.ceil((state.retryAt - now) / 1000)) : null;
  // How many pages remain is unknown until next_cursor comes back empty: the bar pulses while pages arrive,
  // counts down a Retry-After wait, and fills when the walk ends.
  const bar =
    state.status === "waiting" && remaining !== null && state.retryAfterS
      ? { percent: (remaining / state.retryAfterS) * 100, className: "bg-amber-400" }
      : state.status === "running"
        ? { percent: 100, className: "animate-pulse bg-emerald-400" }
        : { percent: 100, className: state.status === "error" ? "bg-rose-500" : state.status === "done" && !state.capped ? "bg-emerald-500" : "bg-amber-400" };
  const badge = STATUS_BADGE[state.status];
  const finished = state.status === "done" || state.status === "cancelled" || state.status === "error";

  return (
    <Panel
      title={
        <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          Fetch all <span className="font-mono font-normal text-slate-500">{state.method}</span>
          <Badge tone={badge.tone}>{badge.text}</Badge>
          <span className="text-xs font-normal text-slate-500">page cap {formatCount(maxPages)}</span>
        </span>
      }
      actions={
        active ? (
          <button type="button" className={BUTTON.danger} onClick={onCancel}>
            Cancel
          </button>
        ) : (
          state.count > 0 && (
            <>
              <button type="button" className={BUTTON.secondary} onClick={() => onDownload("json")}>
                Download JSON
              </button>
              <button type="button" className={BUTTON.secondary} onClick={() => onDownload("csv")}>
                Download CSV
              </button>
            </>
          )
        )
      }
    >
      <div
        role="progressbar"
        aria-label="Fetch all progress"
        aria-valuetext={`${state.pages} pages, ${state.count} items${state.status === "waiting" ? `, waiting ${remaining ?? 0} s` : ""}`}
        {...(active ? {} : { "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": 100 })}
        className="h-2 overflow-hidden rounded-full bg-slate-100"
      >
        <div className={`h-full rounded-full transition-[width] duration-200 ${bar.className}`} style={{ width: `${bar.percent}%` }} />
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4" aria-live="polite">
        <Stat label="Pages" value={<span data-testid="fetch-all-pages">{formatCount(state.pages)}</span>} />
        <Stat label="Items" value={<span data-testid="fetch-all-items">{formatCount(state.count)}</span>} />
        <Stat label="Elapsed" value={formatMs(elapsed)} />
        <Stat label="Rate" value={`${formatCount(Math.round(rate))} items/s`} />
      </dl>
      {state.status === "waiting" && remaining !== null && (
        <p role="status" className="mt-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Rate limited (HTTP 429): the platform asked to wait {state.retryAfterS} s. Resuming in{" "}
          <strong className="font-mono tabular-nums" data-testid="retry-countdown">
            {remaining} s
          </strong>
          …
        </p>
      )}
      {finished && (
        <p className="mt-3 text-sm text-slate-600" role="status">
          {state.status === "done" &&
            (state.capped
              ? `Stopped at the page cap (${formatCount(state.pages)} pages); next_cursor still pointed further.`
              : `Every page fetched: next_cursor came back empty after ${formatCount(state.pages)} pages.`)}
          {state.status === "cancelled" && `Cancelled after ${formatCount(state.pages)} pages: the server stopped its walk.`}
          {state.status === "error" && (
            <span className="text-rose-700">
              Stopped on page {formatCount(state.pages + 1)}: <code className="font-mono font-semibold">{state.error}</code>
              {state.message ? ` (${state.message})` : ""}
            </span>
          )}
        </p>
      )}
    </Panel>
  );
}
