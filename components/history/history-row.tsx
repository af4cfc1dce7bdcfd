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

/** Where an entry was called: its installation's name and workspace, or its id when this page does not know it. */
interface InstallationNaming {
  name: string;
  team: string;
}

/** The installation's name whole (it wraps, never cut), its workspace's id under it. */
function InstallationName({ naming, id }: { naming: InstallationNaming | undefined; id: string }) {
  return (
    <>
      <span className="block break-words text-slate-700">{naming?.name ?? id}</span>
      {naming && <span className="block font-mono text-[11px] text-slate-500">{naming.team}</span>}
    </>
  );
}

/**
 * One entry's row. Below the lg breakpoint its installation, time and size fold into the request's cell
 * (their columns hidden), so a phone's width shows each entry whole without scrolling sideways. Memoised: a page of 100 rows renders once per page, and a pick, a keystroke in the
 * search or an answer of the next query re-renders only the rows that changed. Its link to the explorer is
 * a plain anchor: a page of Next.js links would each prefetch as they scroll into view.
 */
export const HistoryRow = memo(function HistoryRow({
  entry: e,
  picked,
  installation,
  onPick,
  onCompareRuns,
}: {
  entry: HistoryEntry;
  picked: boolean;
  installation: InstallationNaming | undefined;
  onPick(entry: HistoryEntry): void;
  onCompareRuns(savedRequestId: string): Promise<void>;
}) {
  return (
    <tr data-entry={e.id} className="border-t border-slate-100 align-top">
      <td className="py-1 pr-2">
        <input type="checkbox" checked={picked} onChange={() => onPick(e)} aria-label={`Pick ${e.method} ${e.summary} to compare`} />
      </td>
      <td className="min-w-0 py-1 pr-3">
        <span className="block truncate">
          {e.kind === "all" && <span className="mr-1 rounded bg-slate-200 px-1 text-[10px] font-semibold uppercase text-slate-700">Fetch all</span>}
          {e.httpMethod === "POST" && <span className="mr-1 font-mono text-slate-600">POST{e.encoding === "json" ? " JSON" : ""}</span>}
          <a href={explorerLink(e)} className="font-mono font-medium text-slate-900 hover:underline" title="Open in the explorer">
            {e.method}
          </a>{" "}
          <span className="font-mono text-slate-500">{argumentsLine(e.params)}</span>
        </span>
        {e.stripped.length > 0 && <span className="block text-amber-800">Left out (credentials): {e.stripped.join(", ")}</span>}
        <span className="mt-0.5 block text-slate-600 lg:hidden">
          <InstallationName naming={installation} id={e.installation} />
          <LocalTime at={e.at} date="auto" /> · {formatMs(e.ms)} · {formatBytes(e.answerBytes)}
          {e.truncated && " · truncated"}
        </span>
        {e.savedRequestId && (
          <button type="button" className="text-emerald-800 hover:underline" onClick={() => void onCompareRuns(e.savedRequestId!)}>
            Compare this saved request&apos;s last two runs
          </button>
        )}
      </td>
      <td className="py-1 pr-3">
        <Badge tone={e.ok ? "ok" : "error"}>{e.outcome}</Badge>
        <span className="block truncate font-mono text-slate-600" title={e.summary}>
          {e.summary}
        </span>
      </td>
      <td className="hidden py-1 pr-3 lg:table-cell">
        <InstallationName naming={installation} id={e.installation} />
      </td>
      <td className="hidden py-1 pr-3 text-slate-700 lg:table-cell">
        <LocalTime at={e.at} date="auto" />
      </td>
      <td className="hidden py-1 text-right font-mono tabular-nums text-slate-600 lg:table-cell">
        {formatMs(e.ms)}
        <span className="block">
          {formatBytes(e.answerBytes)}
          {e.truncated && " · truncated"}
        </span>
      </td>
    </tr>
  );
});
