import type { ReactNode } from "react";

/** The console's small presentational pieces, shared by every page: panels, buttons, inputs, badges. */

export function Panel({ title, actions, children, className = "" }: { title: ReactNode; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`rounded-lg border border-slate-200 bg-white shadow-sm ${className}`}>
      <header className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-4 py-2.5">
        <h2 className="min-w-0 text-sm font-semibold text-slate-800">{title}</h2>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </header>
      <div className="p-4">{children}</div>
    </section>
  );
}

const BUTTON_BASE =
  "inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 disabled:cursor-not-allowed disabled:opacity-50";

export const BUTTON = {
  primary: `${BUTTON_BASE} bg-emerald-700 text-white shadow-sm hover:bg-emerald-800`,
  secondary: `${BUTTON_BASE} border border-slate-300 bg-white text-slate-700 shadow-xs hover:bg-slate-50`,
  danger: `${BUTTON_BASE} border border-rose-300 bg-white text-rose-700 hover:bg-rose-50`,
  ghost: `${BUTTON_BASE} text-slate-600 hover:bg-slate-100`,
};

export const INPUT =
  "w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm shadow-xs placeholder:text-slate-500 focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30";

export function Badge({ tone, children }: { tone: "ok" | "error" | "warn" | "neutral"; children: ReactNode }) {
  const tones = {
    ok: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
    error: "bg-rose-50 text-rose-700 ring-rose-600/20",
    warn: "bg-amber-50 text-amber-800 ring-amber-600/20",
    neutral: "bg-slate-100 text-slate-700 ring-slate-500/20",
  };
  return <span className={`inline-flex items-center rounded px-1.5 py-0.5 font-mono text-xs font-medium ring-1 ring-inset ${tones[tone]}`}>{children}</span>;
}

export function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <dt className="text-[11px] font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="font-mono text-sm tabular-nums text-slate-900">{value}</dd>
    </div>
  );
}
