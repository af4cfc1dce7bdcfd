"use client";

import { useId, useState, type FormEvent } from "react";
import { BUTTON, INPUT } from "@/components/ui/primitives";
import type { AppChoice } from "@/lib/app-config/universal/types";

const APP_ID = /^A[0-9A-Z]{2,31}$/;

/** Which app to open: one this session installed, one the emulator lists, or any app id typed in. */
export function AppPicker({ apps, value, onChange }: { apps: AppChoice[]; value: string | null; onChange: (appId: string) => void }) {
  const selectId = useId();
  const typedId = useId();
  const [typed, setTyped] = useState("");
  const known = apps.some((a) => a.appId === value);
  const typedOk = APP_ID.test(typed.trim());

  function open(event: FormEvent) {
    event.preventDefault();
    if (typedOk) onChange(typed.trim());
  }

  return (
    <div className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-end">
      {apps.length > 0 && (
        <div className="min-w-0 sm:flex-[3]">
          <label htmlFor={selectId} className="text-xs font-medium text-slate-600">
            App
          </label>
          <select id={selectId} className={INPUT} value={known ? (value ?? "") : ""} onChange={(e) => e.target.value && onChange(e.target.value)}>
            {!known && <option value="">{value ? `${value} (typed)` : "Choose an app"}</option>}
            {apps.map((app) => (
              <option key={app.appId} value={app.appId}>
                {app.name} · {app.appId}
                {app.source === "installation" ? " · installed here" : ""}
              </option>
            ))}
          </select>
        </div>
      )}
      <form onSubmit={open} className="flex min-w-0 items-end gap-2 sm:flex-[2]">
        <div className="min-w-0 flex-1">
          <label htmlFor={typedId} className="text-xs font-medium text-slate-600">
            {apps.length > 0 ? "Or an app ID" : "App ID"}
          </label>
          <input
            id={typedId}
            className={`${INPUT} font-mono`}
            placeholder="A0123ABCDEF"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            spellCheck={false}
            autoCapitalize="characters"
          />
        </div>
        <button type="submit" className={BUTTON.secondary} disabled={!typedOk}>
          Open
        </button>
      </form>
    </div>
  );
}
