"use client";

import { useEffect, useId, useRef, useState } from "react";

/**
 * The confirmation before oauth.v2.exchange: the exchange cannot be undone, the original token stops
 * working, and revoking it afterwards would revoke the whole installation.
 */
export function ExchangeDialog({
  open,
  tokenLabel,
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean;
  tokenLabel: string;
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
      className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="space-y-4 p-6">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          Exchange {tokenLabel} for a rotating token?
        </h2>
        <div className="space-y-2 text-sm text-slate-600">
          <p>
            <code className="rounded bg-slate-100 px-1 font-mono text-xs">oauth.v2.exchange</code> turns a long-lived token into an
            expiring access token (12 hours) with a single-use refresh token. Switchboard keeps both sealed in this browser&apos;s session
            and refreshes them for you.
          </p>
          <ul className="list-disc space-y-1 pl-5 text-slate-700">
            <li>
              <strong>The original token stops working</strong> as soon as it is exchanged, wherever else it is used.
            </li>
            <li>
              <strong>Do not revoke the original afterwards:</strong> revoking it revokes the whole installation, and the app must be
              installed again. Use auth.test to confirm it no longer works.
            </li>
            <li>A token can be exchanged only once.</li>
          </ul>
        </div>
        <label className="flex items-start gap-2 text-sm text-slate-800">
          <input type="checkbox" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} className="mt-0.5 h-4 w-4 rounded border-slate-300 accent-emerald-600" />
          I understand that the original token stops working and must not be revoked afterwards.
        </label>
        <div className="flex justify-end gap-2 pt-2">
          <button type="button" onClick={onClose} className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100">
            Cancel
          </button>
          <button
            type="button"
            disabled={!understood || busy}
            onClick={onConfirm}
            className="rounded-md bg-amber-800 px-3 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-amber-900 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {busy ? "Exchanging…" : "Exchange token"}
          </button>
        </div>
      </div>
    </dialog>
  );
}
