"use client";

import type { EntryGroup, SelectEntry } from "./select-options";

const OPTION = "cursor-pointer px-3 py-1.5 text-sm text-slate-800";

/**
 * A combobox's list: its entries as options (under a group's label when the app sent option_groups), the
 * active one marked for aria-activedescendant, the chosen ones selected. Clicking an option picks it without
 * taking focus from the field.
 */
export function ComboList({
  id,
  listId,
  groups,
  name,
  multi,
  active,
  isChosen,
  labelOf,
  onPick,
  onHover,
}: {
  /** The field's id: each option's is `${id}-${its place in the whole list}`. */
  id: string;
  listId: string;
  groups: EntryGroup[];
  name: { "aria-label"?: string; "aria-labelledby"?: string };
  multi: boolean;
  active: SelectEntry | undefined;
  isChosen: (entry: SelectEntry) => boolean;
  labelOf: (entry: SelectEntry) => string;
  onPick: (entry: SelectEntry) => void;
  onHover: (index: number) => void;
}) {
  // Each group's first place in the whole list (across groups).
  const starts = groups.map((_, g) => groups.slice(0, g).reduce((n, prev) => n + prev.entries.length, 0));
  const empty = starts.length === 0 || groups.every((g) => g.entries.length === 0);
  return (
    <div id={listId} role="listbox" {...name} aria-multiselectable={multi || undefined} hidden={empty} className="max-h-60 overflow-y-auto py-1">
      {groups.map((group, g) => {
        const options = group.entries.map((entry, k) => {
          const i = starts[g]! + k;
          return (
            <div
              key={`${g}-${entry.value}`}
              id={`${id}-${i}`}
              role="option"
              aria-selected={isChosen(entry)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => onPick(entry)}
              onMouseEnter={() => onHover(i)}
              className={`${OPTION} ${active === entry ? "bg-emerald-50" : ""} ${isChosen(entry) ? "font-semibold" : ""}`}
            >
              <bdi>{labelOf(entry)}</bdi>
            </div>
          );
        });
        if (group.label === null) return options;
        return (
          <div key={`group-${g}`} role="group" aria-labelledby={`${id}-group-${g}`}>
            <div id={`${id}-group-${g}`} role="presentation" className="px-3 pb-0.5 pt-1.5 text-xs font-semibold uppercase text-slate-600">
              {group.label}
            </div>
            {options}
          </div>
        );
      })}
    </div>
  );
}
