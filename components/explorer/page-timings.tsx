"use client";

import type { PageTiming } from "@/lib/swr/use-fetch-all";
import { Panel } from "@/components/ui/primitives";
import { formatCount, formatMs } from "@/lib/format";

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Every page's bar in one path: a walk of a thousand pages redraws its chart each frame, and a rect per
 * page made that thousands of attribute changes (and as many elements to lay out) a frame.
 */
function barsPath(timings: readonly PageTiming[], width: number, max: number): string {
  const barWidth = Math.max(width * 0.8, 0.2);
  let d = "";
  for (let i = 0; i < timings.length; i++) {
    const h = Math.max(0.8, (timings[i]!.ms / max) * 32);
    d += `M${(i * width).toFixed(3)} 32v${(-h).toFixed(3)}h${barWidth.toFixed(3)}v${h.toFixed(3)}z`;
  }
  return d;
}

/** The upstream time of each page: a bar per page, and the spread. */
export function PageTimings({ timings }: { timings: readonly PageTiming[] }) {
  if (timings.length === 0) return null;
  const sorted = timings.map((t) => t.ms).sort((a, b) => a - b);
  const max = Math.max(1, sorted[sorted.length - 1]!);
  // A few pages get slim bars from the left rather than a few slabs across the whole width.
  const width = 100 / Math.max(timings.length, 40);
  const last = timings.slice(-6).reverse();
  return (
    <Panel title="Time per page">
      <svg viewBox="0 0 100 32" preserveAspectRatio="none" className="h-16 w-full" role="img" aria-label={`Upstream time of ${timings.length} pages`}>
        <path d={barsPath(timings, width, max)} className="fill-emerald-500/80" />
      </svg>
      <dl className="mt-2 grid grid-cols-3 gap-2 text-xs">
        <div>
          <dt className="text-slate-500">p50</dt>
          <dd className="font-mono tabular-nums">{formatMs(percentile(sorted, 50))}</dd>
        </div>
        <div>
          <dt className="text-slate-500">p95</dt>
          <dd className="font-mono tabular-nums">{formatMs(percentile(sorted, 95))}</dd>
        </div>
        <div>
          <dt className="text-slate-500">max</dt>
          <dd className="font-mono tabular-nums">{formatMs(max)}</dd>
        </div>
      </dl>
      <table className="mt-2 w-full font-mono text-xs tabular-nums">
        <thead>
          <tr className="text-left text-slate-500">
            <th className="font-normal">page</th>
            <th className="font-normal">items</th>
            <th className="text-right font-normal">upstream</th>
          </tr>
        </thead>
        <tbody>
          {last.map((t) => (
            <tr key={t.page}>
              <td>{formatCount(t.page)}</td>
              <td>{formatCount(t.count)}</td>
              <td className="text-right">{formatMs(t.ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}
