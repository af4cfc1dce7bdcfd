"use client";

import { useSyncExternalStore } from "react";
import { THEME_STORAGE_KEY } from "@/lib/theme";

type Theme = "system" | "light" | "dark";
const THEMES: ReadonlyArray<{ value: Theme; label: string }> = [
  { value: "system", label: "System" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
];

/** The switches on the page, told when one of them changes the choice. */
const listeners = new Set<() => void>();

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

function readTheme(): Theme {
  const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
  return stored === "light" || stored === "dark" ? stored : "system";
}

function chooseTheme(next: Theme): void {
  if (next === "system") {
    window.localStorage.removeItem(THEME_STORAGE_KEY);
    delete document.documentElement.dataset.theme;
  } else {
    window.localStorage.setItem(THEME_STORAGE_KEY, next);
    document.documentElement.dataset.theme = next;
  }
  for (const listener of listeners) listener();
}

/**
 * Light, dark, or the system's setting (the default). The choice is kept in localStorage and applied as
 * data-theme on <html>, which app/globals.css turns the palette around for; the layout's script applies it
 * before the first paint. The server cannot read the choice, so the page hydrates showing "System" and then
 * shows the stored one.
 */
export function ThemeSwitch() {
  const theme = useSyncExternalStore(subscribe, readTheme, () => "system" as const);

  return (
    <div role="group" aria-label="Theme" className="inline-flex rounded-md bg-[#1e293b] p-0.5 text-xs">
      {THEMES.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={theme === option.value}
          onClick={() => chooseTheme(option.value)}
          className={`rounded px-2 py-0.5 ${theme === option.value ? "bg-[#f1f5f9] font-medium text-[#0f172a]" : "text-[#cbd5e1] hover:text-[#ffffff]"}`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
