"use client";

import { useEffect } from "react";
import { LocalTime } from "@/components/local-time";
import { PlatformJson, PlatformText } from "@/components/platform-text";
import { Badge } from "@/components/ui/primitives";
import type { EmulatorRecordWire } from "@/lib/emulator-admin/universal/schemas";
import { useEmulatorRecords } from "@/lib/swr/use-emulator-records";

/** Why a delivery or an interaction failed, in words (the emulator's codes: events/types.ts, interactivity). */
const WHY: Record<string, string> = {
  http_timeout: "no answer in 3 s",
  operation_timeout: "no answer in 3 s",
  timeout: "no ack in 3 s",
  http_error: "the app answered an HTTP error",
  http_service_error: "the app answered an HTTP error",
  connection_failed: "the request URL could not be reached",
  dispatch_failed: "the app could not be reached",
  no_connection: "no Socket Mode connection",
  connection_closed: "the connection closed before the ack",
  no_url: "the manifest names no URL for it",
  url_not_allowed: "the URL is not one the emulator may call",
  request_url_not_verified: "the request URL was not verified",
};

/** A failed attempt's reason; a 401 or 403 is the app refusing the signature. */
function why(failure: string | null, status: number | null): string | null {
  if (status === 401 || status === 403) return `the app refused the signature (HTTP ${status})`;
  if (!failure) return null;
  const words = WHY[failure] ?? failure;
  return status !== null ? `${words} (HTTP ${status})` : words;
}

function Outcome({ record }: { record: EmulatorRecordWire }) {
  if (record.kind === "event") {
    const last = record.attempts.at(-1);
    const reason = record.not_sent ? why(record.not_sent, null) : last ? why(last.failure, last.status) : null;
    return (
      <>
        <Badge tone={record.state === "delivered" ? "ok" : record.state === "failed" ? "error" : "warn"}>{record.state}</Badge>
        {reason && <span className="text-rose-700">{reason}</span>}
      </>
    );
  }
  const failed = record.outcome !== null && WHY[record.outcome] !== undefined;
  return (
    <>
      <Badge tone={failed ? "error" : "ok"}>{record.outcome ?? "pending"}</Badge>
      {failed && <span className="text-rose-700">{why(record.outcome, record.status)}</span>}
    </>
  );
}

function RecordCard({ record }: { record: EmulatorRecordWire }) {
  const type = record.kind === "event" ? record.event_type : record.type;
  const first = record.kind === "event" ? record.attempts[0] : null;
  const at = record.kind === "event" ? (first?.at ?? null) : record.at;
  const durations = record.kind === "event" ? record.attempts.map((a) => a.duration_ms) : record.duration_ms !== null ? [record.duration_ms] : [];
  return (
    <article
      id={record.id}
      aria-label={`${type} ${record.kind} ${record.id}`}
      className="scroll-mt-20 rounded-lg border border-slate-200 bg-white shadow-sm target:ring-2 target:ring-emerald-500"
    >
      <header className="flex flex-wrap items-center gap-2 px-4 pt-3 text-xs">
        <span className="rounded bg-sky-100 px-1.5 py-0.5 font-mono font-semibold text-sky-800">
          <PlatformText>{type}</PlatformText>
        </span>
        <span className="text-slate-500">{record.kind === "event" ? "event delivery" : "interaction"}</span>
        <Badge tone="neutral">{record.via === "socket" ? "Socket Mode" : "HTTP"}</Badge>
        {at && <LocalTime at={Date.parse(at)} className="ml-auto tabular-nums text-slate-500" />}
      </header>
      <div className="space-y-1.5 px-4 pb-3 pt-1.5 text-xs">
        <p className="flex flex-wrap items-center gap-2 text-slate-700">
          <Outcome record={record} />
          {durations.length > 0 && <span className="text-slate-500">{durations.map((d) => `${d} ms`).join(" · ")}</span>}
          {record.kind === "event" && record.attempts.length > 1 && <span className="text-slate-500">{record.attempts.length} attempts</span>}
        </p>
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-[11px] text-slate-500">
          <div>
            <dt className="inline">id </dt>
            <dd className="inline font-mono text-slate-700">
              <PlatformText>{record.id}</PlatformText>
            </dd>
          </div>
          <div>
            <dt className="inline">app </dt>
            <dd className="inline font-mono text-slate-700">
              <PlatformText>{record.app_id}</PlatformText>
            </dd>
          </div>
          {record.channel && (
            <div>
              <dt className="inline">channel </dt>
              <dd className="inline font-mono text-slate-700">
                <PlatformText>{record.channel}</PlatformText>
              </dd>
            </div>
          )}
        </dl>
        <details className="group">
          <summary className="cursor-pointer select-none font-medium text-slate-600 hover:text-slate-900">Payload</summary>
          <pre
            aria-label="Record payload"
            className="mt-2 max-h-96 overflow-auto rounded-md bg-[#0f172a] px-3 py-2 font-mono text-[11px] leading-5 text-[#f1f5f9]"
          >
            <PlatformJson value={record.kind === "event" ? record.event : record.payload} />
          </pre>
        </details>
        {record.kind === "interaction" && record.answer !== null && (
          <details className="group">
            <summary className="cursor-pointer select-none font-medium text-slate-600 hover:text-slate-900">The app&apos;s answer</summary>
            <pre className="mt-2 max-h-96 overflow-auto rounded-md bg-[#0f172a] px-3 py-2 font-mono text-[11px] leading-5 text-[#f1f5f9]">
              <PlatformJson value={record.answer} />
            </pre>
          </details>
        )}
      </div>
    </article>
  );
}

/**
 * A link such as the Workspace page's "See the delivery" names a record by its id (`/events#Ev…`); the
 * records arrive after the page, so the browser's own jump to the fragment found nothing. Jump once they are
 * there, and again while what loads above them moves them down (the received events), until the person scrolls
 * or presses a key themselves, or for 5 s at most.
 */
function useScrollToLinkedRecord(loaded: boolean) {
  useEffect(() => {
    if (!loaded) return;
    const id = decodeURIComponent(window.location.hash.slice(1));
    const target = id ? document.getElementById(id) : null;
    if (!target) return;
    const jump = () => target.scrollIntoView({ block: "start" });
    jump();
    const follow = new ResizeObserver(jump);
    follow.observe(document.body);
    const stop = () => {
      follow.disconnect();
      clearTimeout(timer);
      for (const event of ["wheel", "touchstart", "keydown", "pointerdown"]) window.removeEventListener(event, stop);
    };
    const timer = setTimeout(stop, 5_000);
    for (const event of ["wheel", "touchstart", "keydown", "pointerdown"]) window.addEventListener(event, stop, { once: true });
    return stop;
  }, [loaded]);
}

/**
 * The emulator's own record of what it sent apps (events over HTTP or Socket Mode, slash commands, clicks,
 * submissions…), newest first, beside what the console itself received: a delivery to an app elsewhere (a
 * Socket Mode connection, another request URL) shows here only.
 */
export function EmulatorRecords() {
  const { data, error } = useEmulatorRecords();
  const records = data?.records ?? [];
  useScrollToLinkedRecord(records.length > 0);
  return (
    <section aria-labelledby="records-heading" className="space-y-3">
      <header>
        <h2 id="records-heading" className="text-sm font-semibold">
          The emulator&apos;s deliveries and interactions <span className="font-normal text-slate-500">({records.length}, newest first)</span>
        </h2>
        <p className="mt-1 text-xs text-slate-500">
          What the emulator sent each app of {data?.teamId ? <span className="font-mono">{data.teamId}</span> : "the workspace"}, over HTTP or Socket Mode, with
          its outcome and timing. Tokens and response_url tails stay masked.
        </p>
      </header>
      {error && (
        <p role="alert" className="text-sm text-rose-800">
          {error.message}
        </p>
      )}
      {records.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-center text-sm text-slate-500">No deliveries yet.</p>
      ) : (
        <ol aria-label="Emulator records" className="space-y-3">
          {records.map((record) => (
            <li key={record.id}>
              <RecordCard record={record} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
