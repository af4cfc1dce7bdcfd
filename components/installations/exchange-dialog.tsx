"use client";

import { ConfirmDialog } from "@/components/ui/confirm-dialog";

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
  return (
    <ConfirmDialog
      open={open}
      title={`Exchange ${tokenLabel} for a rotating token?`}
      understanding="I understand that the original token stops working and must not be revoked afterwards."
      confirmLabel="Exchange token"
      tone="primary"
      busy={busy}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>
        <code className="rounded bg-slate-100 px-1 font-mono text-xs">oauth.v2.exchange</code> turns a long-lived token into an expiring access token (12 hours)
        with a single-use refresh token. Switchboard keeps both sealed in its store on the server and refreshes them for you.
      </p>
      <ul className="list-disc space-y-1 pl-5">
        <li>
          <strong>The original token stops working</strong> as soon as it is exchanged, wherever else it is used.
        </li>
        <li>
          <strong>Do not revoke the original afterwards:</strong> revoking it revokes the whole installation, and the app must be installed again. Use auth.test
          to confirm it no longer works.
        </li>
        <li>A token can be exchanged only once.</li>
      </ul>
    </ConfirmDialog>
  );
}
