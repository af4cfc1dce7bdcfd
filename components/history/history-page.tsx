"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useCallback, useMemo, useState } from "react";
import type { HistoryEntry, HistoryPageAnswer } from "@/lib/explorer/history";
import { fetchJson } from "@/lib/swr/console-fetch";
import { useClearHistory, useHistoryPage } from "@/lib/swr/use-history";
import { InstallationField } from "@/components/installations/installation-field";
import { useInstallationSearch, type InstallationOption } from "@/components/installations/use-installation-search";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { BUTTON, INPUT, Panel } from "@/components/ui/primitives";
import { CompareFilesPanel } from "./compare-files";
import { CompareView } from "./compare-view";
import { olderFirst, togglePicked } from "./history-picks";
import { HistoryRow } from "./history-row";
import { useCompare } from "./use-compare";

const PAGE_SIZES = [25, 50, 100] as const;

/**
 * The explorer's lasting history, searchable and paged: this person's calls and Fetch all runs (kept on the
 * server, the newest 1,000 for 30 days), filtered by method (as it is typed), installation and outcome;
 * two picked (or a saved request's last two runs) compared in a Web Worker; cleared after a confirmation.
 * `?savedRequestId=` opens it on one saved request's runs.
 */
export function HistoryPage() {
  const search = useSearchParams();
  const savedRequestId = search.get("savedRequestId") ?? "";
  const [method, setMethod] = useState("");
  // The installation filtered by, kept whole: a search that no longer finds it still shows what is filtered.
  const [installation, setInstallation] = useState<InstallationOption | null>(null);
  const [outcome, setOutcome] = useState("");
  const [limit, setLimit] = useState<number>(50);
  // The cursors of the pages before this one: Newer pops, Older pushes.
  const [cursors, setCursors] = useState<string[]>([]);
  // Picked entries are kept whole, not by id: a pick stays comparable from another page or filter.
  const [picked, setPicked] = useState<HistoryEntry[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [savedProblem, setSavedProblem] = useState<string | null>(null);

  const filters = { method, installation: installation?.id ?? "", outcome, ...(savedRequestId ? { savedRequestId } : {}) };
  const { data, error, isLoading } = useHistoryPage(filters, { cursor: cursors.at(-1) ?? null, limit });
  // Any installation this person may use, found by typing (issue 43: one among 100,000), as the explorer's picker.
  const picking = useInstallationSearch("");
  const offered =
    installation && !picking.installations.some((i) => i.id === installation.id) ? [installation, ...picking.installations] : picking.installations;
  const clear = useClearHistory();
  const { state: compareState, compare, close } = useCompare();

  const entries = useMemo(() => data?.entries ?? [], [data]);

  const refilter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setCursors([]);
    };

  const togglePick = useCallback((entry: HistoryEntry) => setPicked((current) => togglePicked(current, entry)), []);

  const comparePicked = () => {
    const pair = olderFirst(picked);
    if (pair) compare({ entryId: pair[0].id }, { entryId: pair[1].id });
  };

  const compareLastRuns = useCallback(
    async (id: string) => {
      setSavedProblem(null);
      try {
        const runs = await fetchJson<HistoryPageAnswer>(`/api/history?${new URLSearchParams({ savedRequestId: id, limit: "2" })}`);
        const [newer, older] = runs.entries;
        if (!newer || !older) {
          setSavedProblem("This saved request has run once: run it again to compare.");
          return;
        }
        compare({ entryId: older.id }, { entryId: newer.id });
      } catch (problem) {
        setSavedProblem(problem instanceof Error ? problem.message : String(problem));
      }
    },
    [compare],
  );

  const outcomes = [...new Set(entries.map((e) => e.outcome).filter((o) => o !== "ok"))];

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-lg font-semibold text-slate-900">Request history</h1>
        <Link href="/explorer" className="text-sm font-medium text-emerald-800 hover:underline">
          Back to the explorer
        </Link>
      </div>
      <p className="text-sm text-slate-600">
        Every call and Fetch all you make in the explorer, kept for you on the server: the newest 1,000, for 30 days. No token is kept: arguments that carry one
        are left out (each entry names them), and an answer is kept up to 64 KB.
        {savedRequestId && (
          <>
            {" "}
            Showing the runs of saved request <span className="font-mono">{savedRequestId}</span> (<Link href="/explorer/history">all history</Link>).
          </>
        )}
      </p>

      <Panel
        title="Search"
        actions={
          <button type="button" className={BUTTON.danger} onClick={() => setConfirming(true)} disabled={entries.length === 0 && cursors.length === 0}>
            Clear history…
          </button>
        }
      >
        <div className="grid gap-3 sm:grid-cols-[2fr_2fr_1fr_auto]">
          <label className="text-sm text-slate-700">
            Method
            <input className={INPUT} type="search" value={method} placeholder="conversations." onChange={(e) => refilter(setMethod)(e.target.value)} />
          </label>
          <div className="text-sm text-slate-700">
            <InstallationField
              searchLabel="Find an installation"
              label="Installation"
              anyLabel="Any installation"
              value={installation?.id ?? ""}
              installations={offered}
              picker={picking.picker}
              onChoose={(id) => refilter(setInstallation)(offered.find((i) => i.id === id) ?? null)}
            />
          </div>
          <label className="text-sm text-slate-700">
            Outcome
            <select className={INPUT} value={outcome} onChange={(e) => refilter(setOutcome)(e.target.value)}>
              <option value="">Any outcome</option>
              <option value="ok">ok</option>
              <option value="error">Any error</option>
              {outcomes
                .filter((o) => o !== outcome)
                .map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              {outcome !== "" && outcome !== "ok" && outcome !== "error" && <option value={outcome}>{outcome}</option>}
            </select>
          </label>
          <label className="text-sm text-slate-700">
            Per page
            <select className={INPUT} value={limit} onChange={(e) => (setLimit(Number(e.target.value)), setCursors([]))}>
              {PAGE_SIZES.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        </div>
      </Panel>

      <CompareView state={compareState} onClose={close} />
      {savedProblem && <p className="text-sm text-rose-700">{savedProblem}</p>}

      <Panel
        title={`Entries${isLoading ? " (loading…)" : ""}`}
        actions={
          <button type="button" className={BUTTON.primary} disabled={picked.length !== 2} onClick={comparePicked}>
            Compare {picked.length}/2 picked
          </button>
        }
      >
        {error && (
          <p className="mb-2 text-sm text-rose-700" role="alert">
            The history could not be read: {error.message}
          </p>
        )}
        {entries.length === 0 && !isLoading ? (
          <p className="text-sm text-slate-500">{cursors.length === 0 ? "No entry matches." : "No older entry."}</p>
        ) : (
          <table className="w-full table-fixed text-left text-xs">
            <thead className="text-[11px] uppercase tracking-wide text-slate-500">
              <tr>
                <th className="w-8 py-1 lg:w-20">
                  <span className="max-lg:sr-only">Compare</span>
                </th>
                <th className="py-1">Request</th>
                <th className="w-28 py-1 sm:w-44">Outcome</th>
                <th className="hidden w-56 py-1 lg:table-cell xl:w-72">Installation</th>
                <th className="hidden w-28 py-1 lg:table-cell">When</th>
                <th className="hidden w-24 py-1 text-right lg:table-cell">Time · size</th>
              </tr>
            </thead>
            <tbody aria-label="History entries">
              {entries.map((e) => (
                <HistoryRow
                  key={e.id}
                  entry={e}
                  picked={picked.some((p) => p.id === e.id)}
                  installation={data?.installations[e.installation]}
                  onPick={togglePick}
                  onCompareRuns={compareLastRuns}
                />
              ))}
            </tbody>
          </table>
        )}
        <div className="mt-3 flex gap-2">
          <button type="button" className={BUTTON.secondary} disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
            Newer
          </button>
          <button type="button" className={BUTTON.secondary} disabled={!data?.next} onClick={() => data?.next && setCursors((c) => [...c, data.next!])}>
            Older
          </button>
        </div>
      </Panel>

      <CompareFilesPanel compare={compare} />

      <ConfirmDialog
        open={confirming}
        title="Clear your request history?"
        confirmLabel="Clear history"
        busy={clear.isMutating}
        dies={["every call and Fetch all you made, with their answers"]}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          clear.trigger().then(
            () => {
              setConfirming(false);
              setCursors([]);
              setPicked([]);
              close();
            },
            // The dialog stays open and says why (clear.error below).
            () => {},
          );
        }}
      >
        Your history is removed from the console for good. Other people&apos;s histories are not touched.
        {clear.error && (
          <span role="alert" className="mt-2 block text-rose-700">
            It was not cleared: {clear.error.message}
          </span>
        )}
      </ConfirmDialog>
    </div>
  );
}
