"use client";

import { useReducer } from "react";
import type { InstallationActionAnswer, InstallationView } from "@/lib/installations/universal/view";
import { describeTimelineEntry } from "@/lib/installations/universal/timeline-text";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import type { LifecycleTransition } from "@/lib/installations/universal/lifecycle";
import { useRevalidateSession, useSessionAction, type SessionAction } from "@/lib/swr/use-session";
import { actionOfDialog, cardReducer, INITIAL_CARD_STATE, unrecordedFailure, type CardDialog } from "./card-state";
import { KIND_LABEL } from "./held-tokens";
import { isTokenAction, outcomeOf } from "./token-outcome";

/**
 * What a card's buttons do: run an action, open the dialog a destructive one asks first, and keep what the
 * card shows of the results (card-state.ts).
 */
export function useCardActions(installation: InstallationView, skewMs: number, onForgotten: (name: string) => void) {
  const { trigger, isMutating } = useSessionAction();
  const revalidate = useRevalidateSession();
  const [state, dispatch] = useReducer(cardReducer, INITIAL_CARD_STATE);

  /**
   * Runs an action. Its result reaches the timeline through the server (the answer carries the installation
   * with its new entry); a request that failed before the server could record anything shows as an entry
   * of this page only.
   */
  async function run(action: SessionAction, what: string) {
    const newest = installation.timeline[0]?.at ?? 0;
    const kind = "arg" in action && "token" in action.arg ? action.arg.token : null;
    const tokenAction = isTokenAction(action.kind) ? action.kind : null;
    const show = (answer: InstallationActionAnswer | null, error: Error | null) => {
      if (kind && tokenAction) dispatch({ type: "answered", token: kind, outcome: outcomeOf(tokenAction, kind, answer, error, Date.now() + skewMs) });
    };
    if (kind) dispatch({ type: "started", token: kind });
    try {
      const result = await trigger(action);
      show(result, null);
      if (action.kind === "forget" && result.ok !== false) onForgotten(installation.name);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error("The request failed.");
      const fresh = await revalidate().catch(() => undefined);
      const after = fresh?.installations.find((i) => i.id === installation.id);
      const recorded = after && (after.timeline[0]?.at ?? 0) > newest ? after.timeline[0] : undefined;
      // The server's words for it when it recorded the failure (an exchange refused, with its advice).
      const advice = recorded && "token" in recorded && recorded.token === kind ? describeTimelineEntry(recorded).detail : null;
      show(null, advice ? Object.assign(new Error(advice), { code: (failure as Error & { code?: string }).code }) : failure);
      if (recorded) return;
      dispatch({ type: "failed_unrecorded", entry: unrecordedFailure(action.kind, what, failure.message, Date.now() + skewMs) });
    }
  }

  const open = (dialog: CardDialog) => dispatch({ type: "opened", dialog });

  function takeTransition(kind: TokenKind, transition: LifecycleTransition) {
    const target = { installation: installation.id, token: kind };
    switch (transition.id) {
      case "refresh":
        return void run({ kind: "refresh", arg: target }, KIND_LABEL[kind]);
      case "revoke_with_rotation":
        // A rotating token: only it dies, and its refresh token issues a new one: nothing to confirm.
        if (installation[kind]?.rotating) return void run({ kind: "revoke", arg: target }, KIND_LABEL[kind]);
        return open({ kind: "revoke_token", token: kind });
      case "revoke_without_rotation":
        return open({ kind: "revoke_installation", token: kind });
      case "exchange":
        return open({ kind: "exchange", token: kind });
      default:
        return undefined;
    }
  }

  return {
    outcomes: state.outcomes,
    unsaved: state.unsaved,
    dialog: state.dialog,
    busy: isMutating,
    test: (kind: TokenKind) => void run({ kind: "test", arg: { installation: installation.id, token: kind } }, KIND_LABEL[kind]),
    takeTransition,
    open,
    close: () => dispatch({ type: "closed" }),
    /** The dialog's action, confirmed: it closes and the action runs. */
    confirm: (dialog: CardDialog) => {
      dispatch({ type: "closed" });
      const { action, what } = actionOfDialog(dialog, installation.id);
      void run(action, what);
    },
  };
}
