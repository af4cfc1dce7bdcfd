"use client";

import { useId, useRef, useState } from "react";
import { BUTTON } from "@/components/ui/primitives";

const FIELD = "mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900";

/**
 * "Add a member": a new person joins the emulated workspace (the apps subscribed to team_join hear of it).
 * The dialog asks their name (and, optionally, an email); a refusal shows under the form and keeps what was
 * typed. `onAdd` resolves to an error message, or null once the person joined (the dialog then closes). While
 * the request is on its way the dialog stays open and waits (Cancel and Escape too): the person may be added
 * whatever the member does, so the dialog closes on the answer, or shows why it failed.
 */
export function AddMemberDialog({ onAdd }: { onAdd: (member: { real_name: string; email?: string }) => Promise<string | null> }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusyState] = useState(false);
  // What the dialog's own close and cancel handlers read: the state a render captured can be a render behind
  // (the answer sets busy false and closes in one tick, before React renders again).
  const waiting = useRef(false);
  const setBusy = (value: boolean) => {
    waiting.current = value;
    setBusyState(value);
  };
  const id = useId();
  return (
    <>
      <button
        type="button"
        className={BUTTON.secondary}
        onClick={() => {
          setError(null);
          ref.current?.showModal();
        }}
      >
        Add a member
      </button>
      <dialog
        ref={ref}
        aria-labelledby={`${id}-title`}
        aria-busy={busy || undefined}
        onCancel={(e) => {
          if (waiting.current) e.preventDefault();
        }}
        onClose={(e) => {
          // Chromium may close it on a second Escape without a cancel event: while the request is on its way it stays.
          if (waiting.current) e.currentTarget.showModal();
        }}
        className="m-auto w-[min(26rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white p-0 text-slate-800 shadow-lg backdrop:bg-slate-900/50"
      >
        <form
          className="space-y-3 p-5"
          onSubmit={(e) => {
            e.preventDefault();
            const form = e.currentTarget;
            const data = new FormData(form);
            const name = String(data.get("real_name") ?? "").trim();
            const email = String(data.get("email") ?? "").trim();
            if (name === "") return setError("Give the new member a name.");
            setBusy(true);
            void onAdd({ real_name: name, ...(email ? { email } : {}) }).then((refused) => {
              setBusy(false);
              setError(refused);
              if (refused === null) {
                form.reset();
                ref.current?.close();
              }
            });
          }}
        >
          <h2 id={`${id}-title`} className="text-lg font-bold text-slate-900">
            Add a member
          </h2>
          <p className="text-sm text-slate-600">A new person joins the workspace and #general; apps subscribed to team_join hear of it.</p>
          <label className="block text-sm font-medium text-slate-800">
            Name
            <input name="real_name" required maxLength={80} autoComplete="off" className={FIELD} aria-invalid={error ? true : undefined} />
          </label>
          <label className="block text-sm font-medium text-slate-800">
            Email <span className="font-normal text-slate-600">(optional)</span>
            <input name="email" type="email" maxLength={254} autoComplete="off" className={FIELD} />
          </label>
          {error && (
            <p role="alert" className="text-sm text-rose-800">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <button type="button" className={BUTTON.secondary} onClick={() => ref.current?.close()} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className={BUTTON.primary} disabled={busy}>
              {busy ? "Adding…" : "Add to the workspace"}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
