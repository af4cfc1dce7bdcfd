"use client";

import { useEffect, useLayoutEffect, useRef } from "react";
import type { MemberViewWire } from "@/lib/emulator-admin/universal/schemas";
import type { ActionEvent, StateValues } from "@/components/blocks/actions";
import type { BlockHandlers } from "@/components/blocks/block-context";
import { ViewSurface } from "@/components/blocks/view";

type Json = Record<string, unknown>;
const textOf = (value: unknown): string =>
  typeof value === "object" && value !== null && typeof (value as Json).text === "string" ? String((value as Json).text) : "";

/**
 * One app's modal stack as the platform's client shows it: a dialog with the view on top, every input element
 * keeping its value in the view's `state.values` until Submit, the app's errors under their blocks. The views
 * under it stay mounted, hidden, so that Back shows one again with what the member had entered in it, as the
 * platform keeps it. A pushed view has the Back control in its header and its close button goes back too;
 * the header's ✕ closes the whole stack (`view_closed` with `is_cleared` when the app asked to be told). A
 * view starts again from what the app set when the app updates it (keyed by its id and hash). While an act of
 * the stack is on its way (`busy`) its controls and Escape wait, so a double click sends one submission or Back.
 */
export function ModalDialog({
  stack,
  names,
  onSubmit,
  onBack,
  onCloseAll,
  onAction,
  busy = false,
}: {
  /** Root first; the last is on top. */
  stack: MemberViewWire[];
  names: Omit<BlockHandlers, "onAction" | "onValue" | "errors">;
  onSubmit: (view: MemberViewWire, values: StateValues) => void | Promise<unknown>;
  /** The top view closes and the one under it shows again (on a one-view stack: the modal closes). */
  onBack: (view: MemberViewWire) => void;
  onCloseAll: (view: MemberViewWire) => void;
  onAction: (view: MemberViewWire, event: ActionEvent) => void | Promise<unknown>;
  /** An act of this stack is on its way. */
  busy?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  /** False from the moment React removes the dialog: its removal is no close by the member. */
  const mounted = useRef(false);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  useLayoutEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const top = stack.at(-1);
  // Escape (or another close request) goes back one view, as the platform's client does; on the root it closes the modal.
  const back = () => {
    if (top && !busy) onBack(top);
  };
  const onEscape = useRef(back);
  useEffect(() => {
    onEscape.current = back;
  });
  useEffect(() => {
    // Handled as a key rather than as the dialog's cancel: Chromium lets a second close request with no user
    // activation between close the dialog without a cancel event, which would hide a stack the app still holds.
    // On the document: after Back the focused field is hidden with its view, and focus leaves the dialog.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || !ref.current?.open) return;
      e.preventDefault();
      onEscape.current();
    };
    document.addEventListener("keydown", onKey, true);
    return () => document.removeEventListener("keydown", onKey, true);
  }, []);
  if (!top) return null;
  const pushed = stack.length > 1;
  return (
    <dialog
      ref={ref}
      aria-label={textOf(top.title) || "Modal"}
      onCancel={(e) => {
        e.preventDefault();
        back();
      }}
      onClose={(e) => {
        // Closed by the browser anyway (a close request it would not let the page cancel): the stack is still the
        // app's until the emulator says so, so it shows again and the close goes to the app as Back.
        if (!mounted.current) return;
        e.currentTarget.showModal();
        back();
      }}
      className="m-auto w-[min(34rem,calc(100vw-2rem))] bg-transparent p-0 backdrop:bg-slate-900/50"
    >
      {stack.map((view) => (
        <div key={view.id + String(view.hash)} hidden={view !== top}>
          <ViewSurface
            view={view}
            appName=""
            handlers={{ ...names, onAction: (event) => onAction(view, event), errors: view.errors ?? {} }}
            onSubmit={(values) => onSubmit(view, values)}
            onClose={() => onBack(view)}
            busy={busy}
            {...(pushed && view === top ? { onBack: () => onBack(view), onDismiss: () => onCloseAll(view) } : {})}
          />
        </div>
      ))}
    </dialog>
  );
}
