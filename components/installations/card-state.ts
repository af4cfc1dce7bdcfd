/**
 * What one installation card remembers between renders, as a pure reducer: the last result beside each
 * token's buttons, the failures the server could not record, and the one dialog open (a confirmation or
 * the exchange). The card's actions (use-card-actions.ts) dispatch; the card reads.
 */
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import type { SessionAction } from "@/lib/swr/use-session";
import type { ActionOutcome } from "./action-outcome";
import type { UnsavedEntry } from "./timeline-list";
import { KIND_LABEL } from "./held-tokens";

/** How many failures of this page only the timeline shows at once: the newest. */
export const UNSAVED_KEPT = 5;

/** The dialog a button opened, as data: what it asks is written from the installation when it shows. */
export type CardDialog =
  /** A long-lived token of an app with rotation: auth.revoke takes this token alone. */
  | { kind: "revoke_token"; token: TokenKind }
  /** A long-lived token of an app without rotation: its revoke ends the whole installation. */
  | { kind: "revoke_installation"; token: TokenKind }
  | { kind: "uninstall" }
  | { kind: "forget" }
  | { kind: "exchange"; token: TokenKind };

export interface CardState {
  /** The last Test, Refresh, Revoke or Exchange of each token; absent while one runs, and before the first. */
  outcomes: Partial<Record<TokenKind, ActionOutcome>>;
  /** Failures of requests the server never saw, newest first. */
  unsaved: UnsavedEntry[];
  dialog: CardDialog | null;
}

export type CardAction =
  /** An action on a token began: the previous result beside its buttons goes. */
  | { type: "started"; token: TokenKind }
  | { type: "answered"; token: TokenKind; outcome: ActionOutcome }
  /** A request failed before the server could record it: the timeline shows it, marked, on this page only. */
  | { type: "failed_unrecorded"; entry: UnsavedEntry }
  | { type: "opened"; dialog: CardDialog }
  | { type: "closed" };

export const INITIAL_CARD_STATE: CardState = { outcomes: {}, unsaved: [], dialog: null };

export function cardReducer(state: CardState, action: CardAction): CardState {
  switch (action.type) {
    case "started":
      return { ...state, outcomes: { ...state.outcomes, [action.token]: undefined } };
    case "answered":
      return { ...state, outcomes: { ...state.outcomes, [action.token]: action.outcome } };
    case "failed_unrecorded":
      return { ...state, unsaved: [action.entry, ...state.unsaved].slice(0, UNSAVED_KEPT) };
    case "opened":
      return { ...state, dialog: action.dialog };
    case "closed":
      return { ...state, dialog: null };
  }
}

/** What a confirmed dialog sends, and how its failure names what it acted on. */
export function actionOfDialog(dialog: CardDialog, installation: string): { action: SessionAction; what: string } {
  switch (dialog.kind) {
    case "revoke_token":
    case "revoke_installation":
      return { action: { kind: "revoke", arg: { installation, token: dialog.token } }, what: KIND_LABEL[dialog.token] };
    case "exchange":
      return { action: { kind: "exchange", arg: { installation, token: dialog.token, confirm: true } }, what: KIND_LABEL[dialog.token] };
    case "uninstall":
    case "forget":
      return { action: { kind: dialog.kind, arg: { installation } }, what: "the installation" };
  }
}

const ACTION_LABEL: Record<SessionAction["kind"], string> = {
  test: "Test",
  refresh: "Refresh",
  revoke: "Revoke",
  exchange: "Exchange",
  uninstall: "Uninstall",
  forget: "Forget",
};

/** The timeline's line for a request that failed before the server could record it. */
export function unrecordedFailure(action: SessionAction["kind"], what: string, message: string, at: number): UnsavedEntry {
  return { at, title: `${ACTION_LABEL[action]} ${what}: failed`, detail: message };
}
