"use client";

import { useEffect, useState } from "react";
import { THEME_STORAGE_KEY } from "@/lib/theme";

type Theme = "system" | "light" | "dark";
const THEMES: ReadonlyArray<{ value: Theme; label: string }> = [
  { value: "system", label: "System" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
];

/**
 * Light, dark, or the system's setting (the default). The choice is kept in localStorage and applied as
 * data-theme on <html>, which app/globals.css turns the palette around for; the layout's script applies it
 * before the first paint.
 */
export function ThemeSwitch() {
  const [theme, setTheme] = useState<Theme>("system");
  useEffect(() => {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    if (stored === "light" || stored === "dark") setTheme(stored);
  }, []);

  const choose = (next: Theme) => {
    setTheme(next);
    if (next === "system") {
      window.localStorage.removeItem(THEME_STORAGE_KEY);
      delete document.documentElement.dataset.theme;
    } else {
      window.localStorage.setItem(THEME_STORAGE_KEY, next);
      document.documentElement.dataset.theme = next;
    }
  };

  return (
    <div role="group" aria-label="Theme" className="inline-flex rounded-md bg-[#1e293b] p-0.5 text-xs">
      {THEMES.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={theme === option.value}
          onClick={() => choose(option.value)}
          className={`rounded px-2 py-0.5 ${theme === option.value ? "bg-[#f1f5f9] font-medium text-[#0f172a]" : "text-[#cbd5e1] hover:text-[#ffffff]"}`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
