"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { BUTTON } from "@/components/explorer/ui";

/** What a destructive action asks before it runs: what it is, exactly what dies, and the button that does it. */
export interface ConfirmRequest {
  title: string;
  /** The consequence, in one sentence: what stops working and what it takes to get it back. */
  lead: ReactNode;
  /** What dies, one item each (masked tokens, the webhook, the timeline). */
  dies: ReactNode[];
  confirmLabel: string;
  onConfirm: () => void;
}

/**
 * The confirmation before a destructive action (revoking a long-lived token, uninstalling, forgetting): a
 * modal dialog that names what will die, with Cancel focused first so Enter does not destroy anything.
 */
export function ConfirmDialog({ request, busy, onClose }: { request: ConfirmRequest | null; busy: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const leadId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (request && !dialog.open) {
      dialog.showModal();
      cancelRef.current?.focus();
    }
    if (!request && dialog.open) dialog.close();
  }, [request]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={leadId}
      onClose={onClose}
      className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/40"
    >
      {request && (
        <div className="space-y-4 p-6">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {request.title}
          </h2>
          <p id={leadId} className="text-sm text-slate-700">
            {request.lead}
          </p>
          {request.dies.length > 0 && (
            <div>
              <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">What stops working</p>
              <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-slate-700">
                {request.dies.map((item, i) => (
                  <li key={i}>{item}</li>
                ))}
              </ul>
            </div>
          )}
          <div className="flex flex-wrap justify-end gap-2 pt-2">
            <button ref={cancelRef} type="button" onClick={onClose} className={BUTTON.secondary}>
              Cancel
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => {
                request.onConfirm();
                onClose();
              }}
              className={`${BUTTON.danger} font-semibold`}
            >
              {request.confirmLabel}
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}
