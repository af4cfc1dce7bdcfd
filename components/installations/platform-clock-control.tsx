"use client";

import { useId, useState, type FormEvent } from "react";
import { useNow } from "@/components/use-now";
import { formatDateTime } from "@/lib/format";
import type { ClockMove, ClockMoveAnswer, TokenChange } from "@/lib/platform-clock/move-platform-clock";
import { usePlatformClockMove } from "@/lib/swr/use-platform-clock";

const HOUR_S = 3600;
/** The moves a token's life turns on: a token lives 12 h, and the console refreshes one 10 min before it expires by default. */
const MOVES = [
  { label: "+1 h", seconds: HOUR_S, hint: "nothing expires" },
  { label: "+11 h 50 m", seconds: 11 * HOUR_S + 50 * 60, hint: "just inside the refresh window" },
  { label: "+12 h", seconds: 12 * HOUR_S, hint: "a fresh token expires" },
  { label: "+13 h", seconds: 13 * HOUR_S, hint: "well past expiry" },
] as const;

function durationText(seconds: number): string {
  const m = Math.round(seconds / 60);
  if (m < 60) return `${m} min`;
  return m % 60 === 0 ? `${m / 60} h` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** A `datetime-local` value (the browser's time zone) for an instant. */
function toLocalInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function TokenList({ title, tokens }: { title: string; tokens: TokenChange[] }) {
  if (tokens.length === 0) return null;
  return (
    <li>
      {title}:{" "}
      {tokens.map((t, i) => (
        <span key={`${t.installation}-${t.token}`}>
          {i > 0 && ", "}
          the {t.token} token <span className="font-mono">{t.masked}</span> of {t.installation}
        </span>
      ))}
    </li>
  );
}

/**
 * The platform's time, and a control that moves it forward: shown only when the upstream says it is an
 * emulator (GET /api/session's platformClock). `skewMs` is the platform's time minus the browser's clock.
 */
export function PlatformClockControl({ skewMs, offsetS }: { skewMs: number; offsetS: number }) {
  const { trigger, isMutating, error, reset } = usePlatformClockMove();
  const [result, setResult] = useState<ClockMoveAnswer | null>(null);
  const [chosen, setChosen] = useState("");
  const clock = useNow(1000);
  const headingId = useId();
  const inputId = useId();
  const platformNow = clock === null ? null : clock + skewMs;

  const move = async (arg: ClockMove) => {
    reset();
    setResult(null);
    try {
      setResult(await trigger(arg));
    } catch {
      // Shown from `error` below.
    }
  };
  const moveToChosen = (event: FormEvent) => {
    event.preventDefault();
    const to = new Date(chosen).getTime();
    if (Number.isFinite(to)) void move({ to });
  };

  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-slate-800">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id={headingId} className="text-sm font-semibold text-slate-900">
          Platform clock
        </h2>
        <p>
          The emulator&apos;s time:{" "}
          <time
            className="font-mono tabular-nums"
            data-testid="platform-time"
            dateTime={platformNow === null ? undefined : new Date(platformNow).toISOString()}
          >
            {platformNow === null ? "…" : formatDateTime(platformNow)}
          </time>
          {offsetS > 0 && <span className="text-slate-600"> · {durationText(offsetS)} ahead of real time</span>}
        </p>
      </div>
      <p className="mt-1 text-slate-600">
        Move it forward to watch tokens expire and refresh. It only moves forward; the emulator&apos;s admin reset sets it back.
      </p>
      <div className="mt-2 flex flex-wrap items-end gap-2">
        {MOVES.map((m) => (
          <button
            key={m.label}
            type="button"
            disabled={isMutating}
            title={m.hint}
            onClick={() => void move({ advance_s: m.seconds })}
            className="rounded-md bg-white px-2.5 py-1.5 font-medium text-sky-800 ring-1 ring-inset ring-sky-300 hover:bg-sky-100 disabled:opacity-50"
          >
            {m.label}
          </button>
        ))}
        <form onSubmit={moveToChosen} className="flex flex-wrap items-end gap-2">
          <label htmlFor={inputId} className="sr-only">
            A later time
          </label>
          <input
            id={inputId}
            type="datetime-local"
            required
            value={chosen}
            min={platformNow === null ? undefined : toLocalInput(platformNow)}
            onChange={(e) => setChosen(e.target.value)}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 font-mono text-xs"
          />
          <button
            type="submit"
            disabled={isMutating || chosen === ""}
            className="rounded-md bg-sky-700 px-2.5 py-1.5 font-medium text-white hover:bg-sky-800 disabled:opacity-50"
          >
            Move to this time
          </button>
        </form>
      </div>
      <div role="status" className="mt-2">
        {result && (
          <div>
            <p className="font-medium">
              Moved the platform&apos;s clock +{durationText(result.movedS)}, to {formatDateTime(result.to)}.
            </p>
            <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-700">
              <TokenList title="Now expired, refreshed on the next call" tokens={result.expired} />
              <TokenList title="Now within the refresh window, refreshed before the next use" tokens={result.dueForRefresh} />
              {result.expired.length === 0 && result.dueForRefresh.length === 0 && <li>No token of this browser expired.</li>}
              {result.stale.map((s) => (
                <li key={s}>No longer valid: {s}.</li>
              ))}
            </ul>
          </div>
        )}
      </div>
      {error && (
        <p role="alert" className="mt-2 text-rose-800">
          {error.message}
        </p>
      )}
    </section>
  );
}
