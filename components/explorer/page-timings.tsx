"use client";

import type { PageTiming } from "@/lib/swr/use-fetch-all";
import { Panel } from "@/components/ui/primitives";
import { formatCount, formatMs } from "@/lib/format";

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * The most bars the chart draws: a walk of more pages gives each bar a run of pages and the slowest of them
 * (a slow page stays visible). The chart redraws while a walk streams, and its drawing then costs what it
 * shows, not a bar per page (a thousand made thousands of path segments each time).
 */
const MAX_BARS = 200;

/** Every bar in one path (a rect each made as many elements to lay out). */
function barsPath(timings: readonly PageTiming[], max: number): string {
  const perBar = Math.max(1, Math.ceil(timings.length / MAX_BARS));
  const bars = Math.ceil(timings.length / perBar);
  // A few pages get slim bars from the left rather than a few slabs across the whole width.
  const width = 100 / Math.max(bars, 40);
  const barWidth = Math.max(width * 0.8, 0.2).toFixed(3);
  let d = "";
  for (let bar = 0; bar < bars; bar++) {
    let slowest = 0;
    for (let i = bar * perBar; i < Math.min(timings.length, (bar + 1) * perBar); i++) slowest = Math.max(slowest, timings[i]!.ms);
    const h = Math.max(0.8, (slowest / max) * 32).toFixed(3);
    d += `M${(bar * width).toFixed(3)} 32v-${h}h${barWidth}v${h}z`;
  }
  return d;
}

/** The upstream time of each page: bars of the pages in order, and the spread. */
export function PageTimings({ timings }: { timings: readonly PageTiming[] }) {
  if (timings.length === 0) return null;
  // A typed array sorts numbers natively, without a comparator called n log n times.
  const sorted = Float64Array.from(timings, (t) => t.ms).sort();
  const max = Math.max(1, sorted[sorted.length - 1]!);
  const last = timings.slice(-6).reverse();
  return (
    <Panel title="Time per page">
      <svg viewBox="0 0 100 32" preserveAspectRatio="none" className="h-16 w-full" role="img" aria-label={`Upstream time of ${timings.length} pages`}>
        <path d={barsPath(timings, max)} className="fill-emerald-500/80" />
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
