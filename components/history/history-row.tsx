"use client";

import { memo } from "react";
import { requestFromHistory, type HistoryEntry } from "@/lib/explorer/history";
import { toSearchParams } from "@/lib/explorer/params";
import { formatBytes, formatMs } from "@/lib/format";
import { LocalTime } from "@/components/local-time";
import { Badge } from "@/components/ui/primitives";
import { argumentsLine } from "./history-text";

/** The explorer's link that puts an entry's request back in the form. */
function explorerLink(entry: HistoryEntry): string {
  return `/explorer?${toSearchParams(requestFromHistory(entry).request).toString()}`;
}

/**
 * One entry's row. Memoised: a page of 100 rows renders once per page, and a pick, a keystroke in the
 * search or an answer of the next query re-renders only the rows that changed. Its link to the explorer is
 * a plain anchor: a page of Next.js links would each prefetch as they scroll into view.
 */
export const HistoryRow = memo(function HistoryRow({
  entry: e,
  picked,
  installationName,
  onPick,
  onCompareRuns,
}: {
  entry: HistoryEntry;
  picked: boolean;
  installationName: string | undefined;
  onPick(entry: HistoryEntry): void;
  onCompareRuns(savedRequestId: string): Promise<void>;
}) {
  return (
    <tr data-entry={e.id} className="border-t border-slate-100 align-top">
      <td className="py-1">
        <input type="checkbox" checked={picked} onChange={() => onPick(e)} aria-label={`Pick ${e.method} ${e.summary} to compare`} />
      </td>
      <td className="min-w-0 py-1">
        <span className="block truncate">
          {e.kind === "all" && <span className="mr-1 rounded bg-slate-200 px-1 text-[10px] font-semibold uppercase text-slate-700">Fetch all</span>}
          {e.httpMethod === "POST" && <span className="mr-1 font-mono text-slate-600">POST{e.encoding === "json" ? " JSON" : ""}</span>}
          <a href={explorerLink(e)} className="font-mono font-medium text-slate-900 hover:underline" title="Open in the explorer">
            {e.method}
          </a>{" "}
          <span className="font-mono text-slate-500">{argumentsLine(e.params)}</span>
        </span>
        {e.stripped.length > 0 && <span className="block text-amber-800">Left out (credentials): {e.stripped.join(", ")}</span>}
        {e.savedRequestId && (
          <button type="button" className="text-emerald-800 hover:underline" onClick={() => void onCompareRuns(e.savedRequestId!)}>
            Compare this saved request&apos;s last two runs
          </button>
        )}
      </td>
      <td className="py-1">
        <Badge tone={e.ok ? "ok" : "error"}>{e.outcome}</Badge>
        <span className="block truncate font-mono text-slate-600">{e.summary}</span>
      </td>
      <td className="truncate py-1 text-slate-700">{installationName ?? e.installation}</td>
      <td className="py-1 text-slate-700">
        <LocalTime at={e.at} date="auto" />
      </td>
      <td className="py-1 text-right font-mono tabular-nums text-slate-600">
        {formatMs(e.ms)}
        <span className="block">
          {formatBytes(e.answerBytes)}
          {e.truncated && " · truncated"}
        </span>
      </td>
    </tr>
  );
});
