"use client";

import type { MemberActAnswerWire } from "@/lib/emulator-admin/universal/schemas";

/** Why a delivery failed, as the platform's client would say it, for each failure the emulator records. */
const FAILURES: Record<string, string> = {
  dispatch_failed: "dispatch_failed: the app did not answer (no Socket Mode connection, or its request URL could not be reached).",
  operation_timeout: "dispatch_failed: the app did not answer within 3 seconds.",
  http_service_error: "dispatch_failed: the app's request URL answered with an HTTP error.",
  no_url: "dispatch_failed: the app has no request URL for this (and no Socket Mode).",
  url_not_allowed: "dispatch_failed: the emulator may not send to the app's request URL.",
  invalid_answer: "The app answered something the platform does not read.",
  invalid_view: "The app answered with a view the platform refuses; the modal stays as it was.",
  push_limit_reached: "The app pushed a fourth view: a stack holds three.",
};

export interface ActRecord {
  what: string;
  answer?: MemberActAnswerWire;
  error?: string;
}

/**
 * What the member's last act gave, as the platform would show it: a failed delivery's note, the app's
 * outcome and timing, and a link to its record on the events page. An ephemeral answer shows in the
 * conversation itself; errors under a modal's fields show in the modal.
 */
export function ActNote({ record }: { record: ActRecord | null }) {
  if (!record) return <p className="sr-only" role="status" />;
  const { answer, error } = record;
  const reason = answer?.outcome ? FAILURES[answer.outcome] : undefined;
  // Which HTTP error: a 401 is the app refusing the request's signature (a signing secret that is not the app's).
  const status = answer?.outcome === "http_service_error" && typeof answer.status === "number" ? answer.status : undefined;
  const refused = status === 401 ? ": the app refused the request's signature" : "";
  const failure = reason && status !== undefined ? `${reason.replace(/\.$/, "")} (HTTP ${status}${refused}).` : reason;
  const id = answer?.interaction_id ?? answer?.event_ids?.[0];
  return (
    <div
      role="status"
      className={`rounded-md border px-3 py-2 text-sm ${error || failure ? "border-rose-300 bg-rose-50 text-rose-900" : "border-slate-200 bg-slate-50 text-slate-800"}`}
    >
      <span className="font-medium">{record.what}</span>
      {error && <>: {error}</>}
      {failure && <> — {failure}</>}
      {answer && !failure && answer.outcome && (
        <>
          {" "}
          — the app answered <code className="font-mono">{answer.outcome}</code>
        </>
      )}
      {answer?.duration_ms !== undefined && answer.duration_ms !== null && <> in {answer.duration_ms} ms</>}
      {answer?.via && <> over {answer.via === "socket" ? "Socket Mode" : "HTTP"}</>}
      {id && (
        <>
          {" "}
          <a href={`/events#${encodeURIComponent(id)}`} className="font-medium text-emerald-800 underline">
            See the delivery on the events page
          </a>
        </>
      )}
    </div>
  );
}
