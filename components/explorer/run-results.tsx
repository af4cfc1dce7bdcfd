"use client";

import type { RunStep } from "@/lib/collections/universal/run";
import { formatMs } from "@/lib/format";
import { Badge } from "@/components/ui/primitives";
import { JsonViewer } from "./json-viewer";
import type { CollectionRun } from "./use-collection-run";

function StepBadge({ step }: { step: RunStep }) {
  const o = step.outcome;
  if (o.status === "skipped") return <Badge tone="neutral">not run</Badge>;
  if (o.status === "not_sent") return <Badge tone="error">not sent</Badge>;
  return <Badge tone={o.ok ? "ok" : "error"}>{o.ok ? "ok: true" : `ok: false · ${o.error}`}</Badge>;
}

/** A run's steps as they end: each one's outcome, timing and answer (opened on demand), and why a step was not sent. */
export function RunResults({ run, installationLabel }: { run: CollectionRun; installationLabel: string }) {
  const shown = run.steps.length > 0 ? run.steps : [];
  const answered = shown.filter((s) => s.outcome.status === "answered").length;
  return (
    <section aria-label="Run results" className="space-y-2 border-t border-slate-100 pt-3">
      <p role="status" className="text-xs text-slate-600">
        {run.running ? `Running against ${installationLabel}…` : `Ran against ${installationLabel}: ${answered} of ${run.size} answered.`}
      </p>
      <ol className="space-y-2">
        {shown.map((step, i) => (
          <li key={`${step.requestId}-${i}`} className="rounded-md border border-slate-200 p-2 text-xs">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-semibold text-slate-800">
                {i + 1}. {step.name}
              </span>
              <span className="font-mono text-slate-600">{step.method}</span>
              <StepBadge step={step} />
              {step.outcome.status === "answered" && (
                <span className="font-mono tabular-nums text-slate-600">
                  {step.outcome.upstreamMs !== null ? `upstream ${formatMs(step.outcome.upstreamMs)} · ` : ""}
                  {formatMs(step.outcome.roundTripMs)} in all
                </span>
              )}
            </div>
            {step.outcome.status === "not_sent" && <p className="mt-1 text-rose-700">{step.outcome.error}</p>}
            {step.outcome.status === "answered" && (
              <details className="mt-1">
                <summary className="cursor-pointer text-slate-700">
                  Answer{" "}
                  {step.args.length > 0 && `(sent ${step.args.map((a) => `${a.key}=${a.value.length > 24 ? `${a.value.slice(0, 24)}…` : a.value}`).join(" ")})`}
                </summary>
                <JsonViewer value={step.outcome.body} label={`${step.name} answer`} />
              </details>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
