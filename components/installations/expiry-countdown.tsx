"use client";

import { useNow } from "@/components/use-now";
import { formatDateTime } from "@/lib/format";
import { cappedExpiry } from "@/lib/installations/universal/token-lifetime";

function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}h ${String(m).padStart(2, "0")}m ${String(s).padStart(2, "0")}s` : `${m}m ${String(s).padStart(2, "0")}s`;
}

/**
 * A live countdown to an expiring token's expiry, shown only while the token lives (token-row.tsx: never
 * for a revoked or dead one). `skewMs` (server clock minus browser clock) keeps it true to the server,
 * which is the clock that decides refreshes.
 */
export function ExpiryCountdown({ expiresAt, skewMs, refreshWindowS }: { expiresAt: number | null; skewMs: number; refreshWindowS: number }) {
  const now = useNow(1000, expiresAt !== null);
  if (expiresAt === null) return null;
  if (now === null) return <span className="text-xs text-slate-600">…</span>;
  // Never more than the platform's 12 hours: an expiry stored against a platform clock that has since gone back says more.
  const shown = cappedExpiry(expiresAt, now + skewMs);
  const remaining = shown - (now + skewMs);
  const tone =
    remaining <= 0
      ? "bg-rose-50 text-rose-700 ring-rose-200"
      : remaining <= refreshWindowS * 1000
        ? "bg-amber-50 text-amber-800 ring-amber-200"
        : "bg-emerald-50 text-emerald-800 ring-emerald-200";
  return (
    <span
      className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 font-mono text-xs tabular-nums ring-1 ring-inset ${tone}`}
      title={`Expires ${formatDateTime(shown)}`}
    >
      <svg aria-hidden viewBox="0 0 16 16" className="h-3 w-3" fill="none" stroke="currentColor" strokeWidth="1.6">
        <circle cx="8" cy="9" r="5.5" />
        <path d="M8 6v3l2 1.5M6.5 1.5h3" strokeLinecap="round" />
      </svg>
      {remaining <= 0 ? "expired: refreshed on next use" : `expires in ${formatRemaining(remaining)}`}
      {remaining > 0 && remaining <= refreshWindowS * 1000 && <span className="font-sans"> · refreshed on next use</span>}
    </span>
  );
}
