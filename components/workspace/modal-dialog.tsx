"use client";

import { useEffect, useRef } from "react";
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
 * view starts again from what the app set when the app updates it (keyed by its id and hash).
 */
export function ModalDialog({
  stack,
  names,
  onSubmit,
  onBack,
  onCloseAll,
  onAction,
}: {
  /** Root first; the last is on top. */
  stack: MemberViewWire[];
  names: Pick<BlockHandlers, "userName" | "channelName">;
  onSubmit: (view: MemberViewWire, values: StateValues) => void;
  /** The top view closes and the one under it shows again (on a one-view stack: the modal closes). */
  onBack: (view: MemberViewWire) => void;
  onCloseAll: (view: MemberViewWire) => void;
  onAction: (view: MemberViewWire, event: ActionEvent) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const top = stack.at(-1);
  if (!top) return null;
  const pushed = stack.length > 1;
  return (
    <dialog
      ref={ref}
      aria-label={textOf(top.title) || "Modal"}
      onCancel={(e) => {
        // Escape goes back one view, as the platform's client does; on the root it closes the modal.
        e.preventDefault();
        onBack(top);
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
            {...(pushed && view === top ? { onBack: () => onBack(view), onDismiss: () => onCloseAll(view) } : {})}
          />
        </div>
      ))}
    </dialog>
  );
}
