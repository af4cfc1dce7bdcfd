"use client";

import type { ReactNode } from "react";

interface Option<T extends string> {
  value: T;
  label: ReactNode;
}

/**
 * A small row of toggle buttons that switches between views of one thing (table or JSON, text or payload).
 * Toggle buttons rather than tabs: the views are not tab panels of their own, so a tablist would promise
 * structure that is not there.
 */
export function SegmentedControl<T extends string>({
  label,
  options,
  value,
  onChange,
  className = "",
}: {
  /** The accessible name of the group. */
  label: string;
  options: readonly Option<T>[];
  value: T;
  onChange: (value: T) => void;
  /** Size and background of the group, for example "bg-slate-100 text-sm". */
  className?: string;
}) {
  return (
    <div role="group" aria-label={label} className={`inline-flex flex-wrap rounded-md p-0.5 ${className}`}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
          className={`rounded px-3 py-0.5 ${value === option.value ? "bg-white font-medium text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900"}`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
