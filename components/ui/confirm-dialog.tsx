"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { BUTTON } from "./primitives";

/**
 * The confirmation before what cannot be undone (revoking a long-lived token, uninstalling, forgetting, turning
 * token rotation on, exchanging a token): a modal dialog that says what happens and, with `dies`, exactly what
 * stops working. Cancel has the focus first, so Enter destroys nothing; with `understanding`, the action
 * stays disabled until the person ticks that sentence. The caller closes it (onClose) when it is done.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  dies = [],
  understanding,
  confirmLabel,
  tone = "danger",
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  /** The consequence, in a sentence or a few. */
  children: ReactNode;
  /** What dies, one item each (masked tokens, the webhook, the timeline). */
  dies?: ReactNode[];
  /** A sentence the person must tick before the action is enabled. */
  understanding?: string;
  confirmLabel: string;
  /** danger for what destroys something, primary for a change that cannot be taken back. */
  tone?: "danger" | "primary";
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [understood, setUnderstood] = useState(false);
  const titleId = useId();
  const leadId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setUnderstood(false);
      dialog.showModal();
      cancelRef.current?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={leadId}
      onClose={onClose}
      className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/40"
    >
      {open && (
        <div className="space-y-4 p-5 sm:p-6">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          <div id={leadId} className="space-y-2 text-sm text-slate-700">
            {children}
          </div>
          {dies.length > 0 && (
            <div>
              <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">What stops working</p>
              <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-slate-700">
                {dies.map((item, i) => (
                  <li key={i}>{item}</li>
                ))}
              </ul>
            </div>
          )}
          {understanding && (
            <label className="flex items-start gap-2 text-sm text-slate-800">
              <input type="checkbox" className="mt-0.5 h-4 w-4 accent-emerald-700" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} />
              <span>{understanding}</span>
            </label>
          )}
          <div className="flex flex-wrap justify-end gap-2 pt-2">
            <button ref={cancelRef} type="button" onClick={onClose} className={BUTTON.secondary}>
              Cancel
            </button>
            <button
              type="button"
              disabled={busy || (understanding !== undefined && !understood)}
              onClick={onConfirm}
              className={tone === "danger" ? `${BUTTON.danger} font-semibold` : BUTTON.primary}
            >
              {busy && tone === "primary" ? "Working…" : confirmLabel}
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}
