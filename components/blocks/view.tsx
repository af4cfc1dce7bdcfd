"use client";

import { useReducer, useRef, useState } from "react";
import { BUTTON } from "@/components/ui/primitives";
import { initialStateValues, withStateValue, type StateValue, type StateValues } from "./actions";
import { BlockScope, type BlockHandlers } from "./block-context";
import { BlockList } from "./block-list";
import { asArray, asObject, textOf, type Json } from "./shape";
import { PlainText } from "./text";

type ValueSet = { blockId: string; actionId: string; value: StateValue };

interface Props {
  view: Json;
  /** The app's name, on the App Home's tab line. */
  appName: string;
  handlers?: Omit<BlockHandlers, "onValue">;
  /** Every change of what the member entered, as the view's `state.values`. */
  onStateChange?(values: StateValues): void;
  /**
   * Submit pressed, with what the member entered (`/admin/act/submit`'s view_submission). While the promise
   * it may return is pending, Submit is busy and a second press sends nothing.
   */
  onSubmit?(values: StateValues): void | Promise<unknown>;
  /** The close button at the foot: closes this view (in a pushed view, back to the one under it). */
  onClose?(): void;
  /** A view pushed onto another: the platform's Back control in its header (the view under it shows again). */
  onBack?(): void;
  /** The header's ✕: closes the whole stack (default: as the close button). */
  onDismiss?(): void;
  /** An act of this view is on its way: Submit, Back, close and ✕ wait for its answer (no second submission). */
  busy?: boolean;
}

/**
 * A modal or an App Home as the member sees it. A modal: its title, close and submit buttons around its
 * blocks; what the member enters is kept as the view's `state.values` (a reducer over withStateValue), from
 * the inputs' initial values on. Mount it with a `key` of the view's id and hash to start over when the app
 * updates the view.
 */
export function ViewSurface({ view, appName, handlers = {}, onStateChange, onSubmit, onClose, onBack, onDismiss, busy: waiting = false }: Props) {
  const [values, setValue] = useReducer(
    (state: StateValues, set: ValueSet) => withStateValue(state, set.blockId, set.actionId, set.value),
    view.blocks,
    initialStateValues,
  );
  const submitting = useRef(false);
  const [busy, setBusy] = useState(false);
  const submitNow = () => {
    if (submitting.current || waiting) return;
    const pending = onSubmit?.(values);
    if (!(pending instanceof Promise)) return;
    submitting.current = true;
    setBusy(true);
    void pending.finally(() => {
      submitting.current = false;
      setBusy(false);
    });
  };
  const context: BlockHandlers = {
    ...handlers,
    onValue(blockId, actionId, value) {
      setValue({ blockId, actionId, value });
      onStateChange?.(withStateValue(values, blockId, actionId, value));
    },
  };
  const blocks = <BlockList blocks={asArray(view.blocks)} />;
  if (view.type === "home") {
    return (
      <BlockScope value={context}>
        <section aria-label={`${appName}: Home`} className="rounded-lg border border-slate-200 bg-white text-[15px] text-slate-800">
          <header className="flex gap-4 border-b border-slate-200 px-4 pt-3 text-sm">
            <bdi className="font-bold text-slate-900">{appName}</bdi>
            <span className="border-b-2 border-emerald-700 pb-2 font-semibold text-slate-900">Home</span>
            <span className="pb-2 text-slate-600">Messages</span>
          </header>
          <div className="p-4">{blocks}</div>
        </section>
      </BlockScope>
    );
  }
  const title = asObject(view.title);
  const submit = asObject(view.submit);
  const close = asObject(view.close);
  return (
    <BlockScope value={context}>
      <section
        aria-label={`Modal: ${textOf(title) || "untitled"}`}
        className="mx-auto max-w-lg rounded-xl border border-slate-200 bg-white text-[15px] text-slate-800 shadow-lg"
      >
        <header className="flex items-center justify-between gap-3 border-b border-slate-200 px-5 py-3">
          <div className="flex min-w-0 items-center gap-2">
            {onBack && (
              <button
                type="button"
                aria-label="Back"
                title="Back"
                onClick={onBack}
                disabled={waiting}
                className="rounded p-1 text-slate-700 hover:bg-slate-100"
              >
                <span aria-hidden>←</span>
              </button>
            )}
            <h3 className="text-lg font-bold text-slate-900">
              <PlainText text={textOf(title)} emoji={title?.emoji !== false} />
            </h3>
          </div>
          <button type="button" aria-label="Close" onClick={onDismiss ?? onClose} disabled={waiting} className="rounded p-1 text-slate-600 hover:bg-slate-100">
            <span aria-hidden>✕</span>
          </button>
        </header>
        <div className="max-h-[32rem] overflow-y-auto px-5 py-4">{blocks}</div>
        <footer className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3">
          <button type="button" className={BUTTON.secondary} onClick={onClose} disabled={waiting}>
            <PlainText text={textOf(close) || "Cancel"} />
          </button>
          {submit && (
            <button
              type="button"
              className={`${BUTTON.primary} ${busy ? "cursor-progress opacity-70" : ""}`}
              aria-disabled={busy || undefined}
              aria-busy={busy || undefined}
              disabled={waiting}
              onClick={submitNow}
            >
              <PlainText text={textOf(submit)} />
              {busy && <span aria-hidden className="ml-1.5 inline-block h-3 w-3 animate-spin rounded-full border-2 border-current border-t-transparent" />}
            </button>
          )}
        </footer>
      </section>
    </BlockScope>
  );
}
