"use client";

import type { TokenIdentity } from "@/lib/installations/universal/view";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import { LocalTime } from "@/components/local-time";

/** The result of the last Test, Refresh, Exchange or Revoke of one token, shown beside its buttons. */
export interface ActionOutcome {
  action: "Test" | "Refresh" | "Exchange" | "Revoke";
  tone: "ok" | "warn" | "error";
  /** "ok", or the error code. */
  result: string;
  /** What it means, in a sentence (the timeline entry's words, or the console's message). */
  detail: string;
  /** Test: who the token is, as auth.test answered. */
  identity?: TokenIdentity | null;
  at: number;
}

const TONE: Record<ActionOutcome["tone"], string> = {
  ok: "border-emerald-200 bg-emerald-50 text-emerald-950",
  warn: "border-amber-200 bg-amber-50 text-amber-950",
  error: "border-rose-200 bg-rose-50 text-rose-950",
};

/**
 * A live region that is always there (so a screen reader announces what arrives in it), empty until an
 * action of this token answers. The timeline keeps every result; this says the last one where it was asked.
 */
export function ActionOutcomeStatus({ kind, outcome }: { kind: TokenKind; outcome: ActionOutcome | null }) {
  const label = kind === "bot" ? "Bot token" : "User token";
  return (
    <div role="status" aria-label={`${label}: last result`} className="min-w-0">
      {outcome && (
        <div className={`rounded-md border px-3 py-2 text-xs ${TONE[outcome.tone]}`}>
          <p className="font-medium">
            {outcome.action}: {outcome.result} <span className="font-normal opacity-80">· </span>
            <LocalTime at={outcome.at} className="font-normal tabular-nums opacity-80" />
          </p>
          {outcome.identity && (
            <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5">
              <dt className="opacity-80">team</dt>
              <dd className="break-words">
                {outcome.identity.team ?? "—"}
                {outcome.identity.teamId && <span className="font-mono opacity-80"> ({outcome.identity.teamId})</span>}
              </dd>
              <dt className="opacity-80">user</dt>
              <dd className="break-words">
                {outcome.identity.user ?? "—"}
                {outcome.identity.userId && <span className="font-mono opacity-80"> ({outcome.identity.userId})</span>}
              </dd>
              <dt className="opacity-80">url</dt>
              <dd className="break-all font-mono">{outcome.identity.url ?? "—"}</dd>
            </dl>
          )}
          {outcome.detail && <p className="mt-1 break-words">{outcome.detail}</p>}
        </div>
      )}
    </div>
  );
}
