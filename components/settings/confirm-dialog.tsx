"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { BUTTON } from "@/components/explorer/ui";

/**
 * A modal confirmation for what cannot be undone: the action stays disabled until the person ticks that
 * they understood what it does.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  understanding,
  confirmLabel,
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  /** The sentence the person ticks. */
  understanding: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [understood, setUnderstood] = useState(false);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setUnderstood(false);
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-xl border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="space-y-4 p-5 sm:p-6">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <div className="space-y-2 text-sm text-slate-600">{children}</div>
        <label className="flex items-start gap-2 text-sm text-slate-800">
          <input type="checkbox" className="mt-0.5 h-4 w-4 accent-emerald-600" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} />
          <span>{understanding}</span>
        </label>
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className={BUTTON.secondary} onClick={onClose}>
            Cancel
          </button>
          <button type="button" className={BUTTON.primary} disabled={!understood || busy} onClick={onConfirm}>
            {busy ? "Working…" : confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}
