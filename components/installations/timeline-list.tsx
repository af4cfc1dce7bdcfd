"use client";

import { useId } from "react";
import type { TimelineEntry } from "@/lib/installations/universal/timeline";
import { useTimeline } from "@/lib/swr/use-timeline";
import { describeTimelineEntry, type TimelineText } from "@/lib/installations/universal/timeline-text";
import { LocalTime } from "@/components/local-time";

/** A result the server could not put in the timeline (the request failed before it reached the platform): shown, marked, not kept. */
export interface UnsavedEntry {
  at: number;
  title: string;
  detail: string;
}

const DOT: Record<TimelineText["tone"], string> = {
  ok: "bg-emerald-600",
  warn: "bg-amber-500",
  error: "bg-rose-600",
  neutral: "bg-slate-400",
};

type Row = { key: string; at: number; text: TimelineText; unsaved: boolean };

/** A masked token as the timeline writes it: kept on one line, in the token typeface. */
const MASKED_TOKEN = /((?:xoxe\.xox[a-z]-|xox[a-z]-|xoxe-)…[A-Za-z0-9]{0,4})/;

function WithTokens({ text }: { text: string }) {
  return (
    <>
      {text.split(MASKED_TOKEN).map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} className="whitespace-nowrap font-mono text-slate-800">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

/**
 * Keys that stay the same when newer entries arrive on top (an entry's content, and which of its identical
 * twins it is, counted from the oldest), so a new entry is the only node the log adds.
 */
function keyed(entries: TimelineEntry[]): Row[] {
  const seen = new Map<string, number>();
  const rows: Row[] = [];
  for (const entry of [...entries].reverse()) {
    const content = JSON.stringify(entry);
    const twin = seen.get(content) ?? 0;
    seen.set(content, twin + 1);
    rows.push({ key: `${content}#${twin}`, at: entry.at, text: describeTimelineEntry(entry), unsaved: false });
  }
  return rows.reverse();
}

/**
 * The stored rows in the store's order (the order things happened in, newest first: never re-sorted by their
 * time, which is the platform's and moves back when its clock does), each unsaved row placed above the first
 * stored row older than it.
 */
function withUnsaved(stored: Row[], unsaved: Row[]): Row[] {
  const rows = [...stored];
  for (const row of [...unsaved].sort((a, b) => b.at - a.at)) {
    const at = rows.findIndex((r) => !r.unsaved && r.at <= row.at);
    rows.splice(at === -1 ? rows.length : at, 0, row);
  }
  return rows;
}

/**
 * The installation's timeline, newest first, each entry with its time. A live log: what an action adds is
 * announced (role="log"), and nothing replaces what was there. The session carries the newest entries
 * (`entries`); the store keeps every one, and "Show older" pages through the rest (`more`: there are older).
 */
export function TimelineList({
  installationId,
  entries,
  more,
  unsaved,
  name,
}: {
  installationId: string;
  entries: TimelineEntry[];
  more: boolean;
  unsaved: UnsavedEntry[];
  name: string;
}) {
  const headingId = useId();
  const older = useTimeline(installationId, entries[0]?.at);
  // Once older pages are asked for, the pages (read again from the top after every action) are the list.
  const shown = older.expanded && older.entries ? older.entries : entries;
  const canShowOlder = older.expanded ? older.hasOlder : more;
  const rows = withUnsaved(
    keyed(shown),
    unsaved.map((entry) => ({
      key: `unsaved-${entry.at}-${entry.title}`,
      at: entry.at,
      text: { title: entry.title, detail: entry.detail, tone: "error" as const },
      unsaved: true,
    })),
  );

  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          Timeline
        </h3>
        <p className="text-xs text-slate-600">Newest first · every entry kept on the server · tokens masked</p>
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing recorded yet.</p>
      ) : (
        // Focusable so that a keyboard can scroll it.
        <div
          role="log"
          aria-label={`Timeline of ${name}`}
          tabIndex={0}
          className="max-h-[24rem] overflow-y-auto rounded-md border border-slate-200 focus-visible:outline-2 focus-visible:outline-emerald-600"
        >
          <ol className="divide-y divide-slate-100">
            {rows.map((row) => {
              return (
                <li key={row.key} className="grid gap-x-3 px-3 py-2 sm:grid-cols-[7rem_minmax(0,1fr)]">
                  <LocalTime at={row.at} date="auto" className="pt-0.5 text-xs tabular-nums text-slate-600" />
                  <div className="min-w-0">
                    <p className="flex items-center gap-2 text-sm font-medium text-slate-900">
                      <span aria-hidden className={`h-2 w-2 shrink-0 rounded-full ${DOT[row.text.tone]}`} />
                      <span className="min-w-0 break-words">{row.text.title}</span>
                    </p>
                    <p className="break-words pl-4 text-xs text-slate-600">
                      <WithTokens text={row.text.detail} />
                      {row.unsaved && <span> · not kept: the request failed before the platform answered</span>}
                    </p>
                  </div>
                </li>
              );
            })}
          </ol>
        </div>
      )}
      {(canShowOlder || older.error) && (
        <div className="flex flex-wrap items-center gap-3">
          {canShowOlder && (
            <button
              type="button"
              onClick={older.showOlder}
              disabled={older.loading}
              aria-label={`Show older entries of the timeline of ${name}`}
              className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-xs font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-emerald-600 disabled:opacity-60"
            >
              {older.loading ? "Loading older entries…" : "Show older"}
            </button>
          )}
          {older.error && (
            <p role="alert" className="text-xs text-rose-700">
              Older entries could not be read: {older.error.message}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
