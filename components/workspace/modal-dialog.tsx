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
 * The modal on top of the member's stack, as a dialog around the renderer's view: every input element keeps
 * its value in the view's `state.values` until Submit, and the app's errors show under their blocks. What
 * the member entered stays while the app answers; a new view (update, push) starts from what the app set,
 * because the surface is keyed by the view's id and hash.
 */
export function ModalDialog({
  view,
  depth,
  names,
  onSubmit,
  onClose,
  onAction,
}: {
  view: MemberViewWire;
  depth: number;
  names: Omit<BlockHandlers, "onAction" | "onValue" | "errors">;
  onSubmit: (values: StateValues) => void | Promise<unknown>;
  onClose: () => void;
  onAction: (event: ActionEvent) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-label={textOf(view.title) || "Modal"}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className="m-auto w-[min(34rem,calc(100vw-2rem))] bg-transparent p-0 backdrop:bg-slate-900/50"
    >
      {depth > 1 && <p className="mb-1 text-right text-xs text-white">view {depth} of the stack</p>}
      <ViewSurface
        key={view.id + String(view.hash)}
        view={view}
        appName=""
        handlers={{ ...names, onAction, errors: view.errors ?? {} }}
        onSubmit={onSubmit}
        onClose={onClose}
      />
    </dialog>
  );
}
