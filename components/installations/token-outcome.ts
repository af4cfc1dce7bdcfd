/**
 * What a token action's answer says, for beside its button: Test's auth.test answer (team, user, url) and
 * otherwise the words of the timeline entry the server recorded for it, or the console's message.
 */
import type { InstallationActionAnswer } from "@/lib/installations/universal/view";
import { describeTimelineEntry } from "@/lib/installations/universal/timeline-text";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import type { ActionOutcome } from "./action-outcome";

/** The token actions whose result shows beside the token's buttons. */
export type TokenActionKind = "test" | "refresh" | "revoke" | "exchange";

const OUTCOME_ACTION: Record<TokenActionKind, ActionOutcome["action"]> = { test: "Test", refresh: "Refresh", revoke: "Revoke", exchange: "Exchange" };

export function isTokenAction(kind: string): kind is TokenActionKind {
  return Object.hasOwn(OUTCOME_ACTION, kind);
}

export function outcomeOf(action: TokenActionKind, kind: TokenKind, answer: InstallationActionAnswer | null, error: Error | null, at: number): ActionOutcome {
  const entry = answer?.installation?.timeline[0];
  const described = entry && "token" in entry && entry.token === kind ? describeTimelineEntry(entry) : null;
  const platformError = (answer?.platform as { error?: unknown } | null | undefined)?.error;
  if (error) {
    const code = (error as Error & { code?: string }).code;
    return { action: OUTCOME_ACTION[action], tone: "error", result: code && code !== "http_error" ? code : "failed", detail: error.message, at };
  }
  if (action === "test" && answer?.ok) {
    return {
      action: "Test",
      tone: "ok",
      result: "ok",
      detail: answer.refreshed ? "The token was refreshed first (it was about to expire)." : "",
      identity: answer.identity ?? null,
      at,
    };
  }
  if (answer && !answer.ok) {
    return {
      action: OUTCOME_ACTION[action],
      tone: "error",
      result: typeof platformError === "string" ? platformError : "error",
      detail: described?.detail ?? "",
      at,
    };
  }
  return { action: OUTCOME_ACTION[action], tone: described?.tone === "warn" ? "warn" : "ok", result: "ok", detail: described?.detail ?? "", at };
}
