"use client";

import type { MemberActAnswerWire } from "@/lib/emulator-admin/universal/schemas";
import { failureOf } from "./delivery-failures";

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
  const failure = answer ? failureOf(answer) : undefined;
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
