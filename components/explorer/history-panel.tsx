"use client";

import type { HistoryEntry } from "@/lib/explorer/history";
import { BUTTON, Panel } from "@/components/ui/primitives";
import { formatMs } from "@/lib/format";

/** This tab's calls and Fetch all runs, newest first, without tokens, each with what it answered; a click puts one back in the form. */
export function HistoryPanel({ entries, onPick, onClear }: { entries: HistoryEntry[]; onPick(entry: HistoryEntry): void; onClear(): void }) {
  return (
    <Panel
      title="History"
      actions={
        entries.length > 0 && (
          <button type="button" className={BUTTON.ghost} onClick={onClear}>
            Clear
          </button>
        )
      }
    >
      {entries.length === 0 ? (
        <p className="text-sm text-slate-500">Calls you make in this tab appear here (no tokens are kept).</p>
      ) : (
        <ol className="-mx-2 max-h-80 space-y-0.5 overflow-y-auto" aria-label="Request history">
          {entries.map((e) => {
            const params = Object.entries(e.params)
              .map(([k, v]) => `${k}=${v.length > 16 ? `${v.slice(0, 16)}…` : v}`)
              .join(" ");
            return (
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
                      <span className="font-mono font-medium text-slate-900">{e.method}</span> <span className="font-mono text-slate-500">{params}</span>
                    </span>
                    <span className={`block truncate font-mono ${e.ok ? "text-slate-600" : "text-rose-700"}`}>
                      {e.summary ?? e.error ?? (e.ok ? "ok" : "error")}
                    </span>
                  </span>
                  <span className="font-mono tabular-nums text-slate-500">
                    {e.count !== undefined ? `${e.count} · ` : ""}
                    {formatMs(e.ms)}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </Panel>
  );
}
