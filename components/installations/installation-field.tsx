"use client";

import { useId } from "react";
import { INPUT } from "@/components/ui/primitives";
import type { InstallationOption, InstallationPicker } from "./use-installation-search";

/**
 * An installation picked among all this person may use: a search typed key by key (sent once typing rests,
 * useInstallationSearch) above a select of what it found. The explorer's form, a collection's "Run
 * against" and the History page's filter pick with it; `anyLabel` offers "" first (a filter's "any").
 */
export function InstallationField({
  searchLabel,
  label,
  value,
  installations,
  picker,
  onChoose,
  anyLabel,
}: {
  searchLabel: string;
  label: string;
  value: string;
  installations: InstallationOption[];
  picker: InstallationPicker;
  onChoose(id: string): void;
  anyLabel?: string;
}) {
  const ids = useId();
  const labelClass = "mb-1 block text-xs font-medium text-slate-600";
  return (
    <div>
      <label htmlFor={`${ids}-search`} className={labelClass}>
        {searchLabel}
      </label>
      <input
        id={`${ids}-search`}
        type="search"
        value={picker.text}
        onChange={(e) => picker.setText(e.target.value)}
        placeholder="Workspace name or id"
        maxLength={100}
        aria-describedby={`${ids}-found`}
        className={`${INPUT} mb-1`}
      />
      <p id={`${ids}-found`} role="status" className="mb-1 text-xs text-slate-600">
        {picker.text.trim() === ""
          ? picker.total > installations.length
            ? `${installations.length.toLocaleString("en-US")} of ${picker.total.toLocaleString("en-US")} shown: type to find another.`
            : ""
          : `${picker.matched.toLocaleString("en-US")}${picker.capped ? "+" : ""} found`}
      </p>
      <label htmlFor={`${ids}-select`} className={labelClass}>
        {label}
      </label>
      <select id={`${ids}-select`} value={value} onChange={(e) => onChoose(e.target.value)} className={INPUT}>
        {anyLabel !== undefined && <option value="">{anyLabel}</option>}
        {installations.length === 0 && anyLabel === undefined && (
          <option value="">{picker.text.trim() ? "No installation matches" : "No installation yet"}</option>
        )}
        {installations.map((i) => (
          <option key={i.id} value={i.id}>
            {i.label}
          </option>
        ))}
      </select>
    </div>
  );
}
