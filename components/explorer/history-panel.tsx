"use client";

import Link from "next/link";
import type { HistoryEntry } from "@/lib/explorer/history";
import { Panel } from "@/components/ui/primitives";
import { formatMs } from "@/lib/format";
import { argumentsLine } from "@/components/history/history-text";

/**
 * The newest entries of this person's lasting history (kept on the server, so a reload or another tab shows
 * them too), without tokens, each with what it answered; a click puts one back in the form. The History
 * page searches, compares and clears them.
 */
export function HistoryPanel({ entries, error, onPick }: { entries: HistoryEntry[]; error: Error | undefined; onPick(entry: HistoryEntry): void }) {
  return (
    <Panel
      title="History"
      actions={
        <Link href="/explorer/history" className="text-sm font-medium text-emerald-800 hover:underline">
          All history
        </Link>
      }
    >
      {error && <p className="mb-2 text-sm text-rose-700">The history could not be read: {error.message}</p>}
      {entries.length === 0 ? (
        <p className="text-sm text-slate-500">Calls you make appear here, kept for you across tabs and reloads (no tokens are kept).</p>
      ) : (
        <ol className="-mx-2 max-h-80 space-y-0.5 overflow-y-auto" aria-label="Request history">
          {entries.map((e) => (
            <li key={e.id}>
              <button
                type="button"
                onClick={() => onPick(e)}
                className="grid w-full grid-cols-[auto_minmax(0,1fr)_auto] items-baseline gap-2 rounded px-2 py-1 text-left text-xs hover:bg-slate-100"
              >
                <span className={`h-2 w-2 rounded-full ${e.ok ? "bg-emerald-500" : "bg-rose-500"}`}>
                  <span className="sr-only">{e.ok ? "ok" : "error"}</span>
                </span>
                <span className="min-w-0">
                  <span className="block truncate">
                    {e.kind === "all" && <span className="mr-1 rounded bg-slate-200 px-1 text-[10px] font-semibold uppercase text-slate-700">Fetch all</span>}
                    {e.httpMethod === "POST" && <span className="mr-1 font-mono text-slate-600">POST{e.encoding === "json" ? " JSON" : ""}</span>}
                    <span className="font-mono font-medium text-slate-900">{e.method}</span>{" "}
                    <span className="font-mono text-slate-500">{argumentsLine(e.params)}</span>
                  </span>
                  <span className={`block truncate font-mono ${e.ok ? "text-slate-600" : "text-rose-700"}`}>{e.summary || e.outcome}</span>
                </span>
                <span className="font-mono tabular-nums text-slate-500">
                  {e.count !== undefined ? `${e.count} · ` : ""}
                  {formatMs(e.ms)}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}
