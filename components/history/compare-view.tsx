"use client";

import { useState } from "react";
import type { PreviewChange } from "@/lib/explorer/compare";
import { formatBytes, formatCount, formatMs } from "@/lib/format";
import { BUTTON, Panel } from "@/components/ui/primitives";
import type { CompareState } from "./compare-runner";

/** Rows rendered at first: a long diff shows the rest on request, so the page stays responsive. */
const FIRST_ROWS = 200;

const KIND_TEXT = { added: "added", removed: "removed", changed: "changed" } as const;
const KIND_TONE = { added: "text-emerald-700", removed: "text-rose-700", changed: "text-amber-800" } as const;

function ChangeRow({ change }: { change: PreviewChange }) {
  return (
    <li className="grid grid-cols-[5rem_minmax(0,16rem)_minmax(0,1fr)] items-baseline gap-2 border-b border-slate-100 py-1 font-mono text-xs">
      <span className={`font-semibold ${KIND_TONE[change.kind]}`}>{KIND_TEXT[change.kind]}</span>
      <span className="break-all text-slate-900">{change.path}</span>
      <span className="min-w-0 break-all">
        {change.kind !== "added" && <del className="mr-2 bg-rose-50 text-rose-800 no-underline">{change.before}</del>}
        {change.kind !== "removed" && <ins className="bg-emerald-50 text-emerald-800 no-underline">{change.after}</ins>}
      </span>
    </li>
  );
}

/** The structural diff of two answers, as the worker found it: counts, then each path with its values. */
export function CompareView({ state, onClose }: { state: CompareState; onClose(): void }) {
  const [all, setAll] = useState(false);
  if (state.status === "idle") return null;
  return (
    <Panel
      title="Compare answers"
      actions={
        <button type="button" className={BUTTON.ghost} onClick={onClose}>
          Close
        </button>
      }
    >
      {state.status === "running" ? (
        <p className="text-sm text-slate-600" role="status">
          Comparing…
        </p>
      ) : !state.answer.ok ? (
        <p className="text-sm text-rose-700" role="alert">
          {state.answer.message}
        </p>
      ) : (
        <div className="space-y-2">
          <p className="text-sm text-slate-700">
            From <span className="font-mono">{state.answer.left.label}</span> ({formatBytes(state.answer.left.bytes)}) to{" "}
            <span className="font-mono">{state.answer.right.label}</span> ({formatBytes(state.answer.right.bytes)}), in {formatMs(state.answer.ms)}.
          </p>
          <p className="text-sm font-medium text-slate-800" role="status">
            {state.answer.changed + state.answer.added + state.answer.removed === 0
              ? "The two answers are the same."
              : `${formatCount(state.answer.changed)} changed · ${formatCount(state.answer.added)} added · ${formatCount(state.answer.removed)} removed`}
          </p>
          {state.answer.partial && (
            <p className="rounded bg-amber-50 px-2 py-1 text-sm text-amber-900">
              The diff is partial: the history kept only the first 64 KB of a truncated answer, so changes past that are not seen.
            </p>
          )}
          {state.answer.limited && <p className="text-sm text-slate-600">The first {formatCount(state.answer.changes.length)} changes are listed.</p>}
          {state.answer.changes.length > 0 && (
            <ol aria-label="Differences" className="max-h-[32rem] overflow-y-auto">
              {(all ? state.answer.changes : state.answer.changes.slice(0, FIRST_ROWS)).map((change, i) => (
                <ChangeRow key={i} change={change} />
              ))}
            </ol>
          )}
          {!all && state.answer.changes.length > FIRST_ROWS && (
            <button type="button" className={BUTTON.secondary} onClick={() => setAll(true)}>
              Show all {formatCount(state.answer.changes.length)} listed
            </button>
          )}
        </div>
      )}
    </Panel>
  );
}
