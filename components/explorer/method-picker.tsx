"use client";

import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { groupByFamily, searchMethods, type CatalogMethod } from "@/lib/explorer/catalog";
import { INPUT } from "./ui";

/** At most this many methods are listed for a query (the whole catalog when it is empty). */
const SHOWN_FOR_QUERY = 60;

interface Props {
  /** The input's id, for its label. */
  id: string;
  /** The method name in the request (what the input shows when the list is closed). */
  value: string;
  /** Called with every keystroke (free names outside the catalog are allowed) and with a picked method. */
  onChange(name: string): void;
  /** Called when a method is picked from the list (Enter or a click). */
  onPick(method: CatalogMethod): void;
  /** What to show beside the list about the highlighted method. */
  details(method: CatalogMethod): ReactNode;
  catalog: readonly CatalogMethod[] | undefined;
  invalid: boolean;
  describedBy?: string;
}

/**
 * The method field: an editable combobox with a list that filters as you type, as WAI-ARIA's combobox
 * pattern describes (the input owns the list through aria-controls and aria-activedescendant; focus stays
 * in the input). Arrows move through the list, Enter picks, Escape closes it (and clears the text when it
 * is closed); methods are grouped by family, the best match first.
 */
function listFor(catalog: readonly CatalogMethod[], query: string | null) {
  return groupByFamily(query === null || query.trim() === "" ? catalog : searchMethods(catalog, query, SHOWN_FOR_QUERY));
}

export function MethodPicker({ id, value, onChange, onPick, details, catalog, invalid, describedBy }: Props) {
  const ids = useId();
  const listId = `${ids}-list`;
  const [open, setOpen] = useState(false);
  // What the list is filtered by: the text typed since the list opened (null: the whole catalog).
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const popupRef = useRef<HTMLDivElement>(null);

  const groups = useMemo(() => (catalog ? listFor(catalog, query) : []), [catalog, query]);
  const flat = useMemo(() => groups.flatMap((g) => g.methods), [groups]);
  const activeMethod = open ? flat[Math.min(active, flat.length - 1)] : undefined;
  const optionId = (name: string) => `${ids}-opt-${name.replace(/\./g, "-")}`;

  // The list scrolls to keep the highlighted method in view.
  const highlightedId = activeMethod ? optionId(activeMethod.name) : undefined;
  useEffect(() => {
    if (highlightedId) document.getElementById(highlightedId)?.scrollIntoView({ block: "nearest" });
  }, [highlightedId]);

  const highlight = (index: number) => setActive(Math.max(0, Math.min(index, flat.length - 1)));

  const openList = (fromQuery: string | null) => {
    if (!catalog) return;
    setOpen(true);
    setQuery(fromQuery);
    // Opened on the whole catalog, the list starts at the method already chosen.
    const start = fromQuery === null ? listFor(catalog, null).flatMap((g) => g.methods).findIndex((m) => m.name === value) : 0;
    setActive(Math.max(0, start));
  };

  const close = () => {
    setOpen(false);
    setQuery(null);
  };

  const pick = (method: CatalogMethod) => {
    onChange(method.name);
    onPick(method);
    close();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    switch (e.key) {
      case "ArrowDown":
        e.preventDefault();
        if (!open) openList(e.altKey ? null : query);
        else highlight(active + 1);
        break;
      case "ArrowUp":
        e.preventDefault();
        if (!open) openList(query);
        else highlight(active - 1);
        break;
      case "PageDown":
        if (open) {
          e.preventDefault();
          highlight(active + 10);
        }
        break;
      case "PageUp":
        if (open) {
          e.preventDefault();
          highlight(active - 10);
        }
        break;
      case "Enter":
        // Ctrl/Cmd+Enter sends the request (the page listens); a plain Enter picks the highlighted method.
        if (open && activeMethod && !e.ctrlKey && !e.metaKey) {
          e.preventDefault();
          pick(activeMethod);
        }
        break;
      case "Escape":
        if (open) {
          e.preventDefault();
          close();
        } else if (value !== "") {
          e.preventDefault();
          onChange("");
        }
        break;
      case "Tab":
        if (open) close();
        break;
    }
  };

  let index = -1;
  return (
    <div className="relative">
      <input
        id={id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={activeMethod ? optionId(activeMethod.name) : undefined}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        value={value}
        placeholder={catalog ? "Search methods: users.list, post message…" : "users.list"}
        onChange={(e) => {
          const text = e.target.value.trim();
          onChange(text);
          if (catalog) {
            setOpen(true);
            setQuery(text);
            setActive(0);
          }
        }}
        onKeyDown={onKeyDown}
        onBlur={(e) => {
          // A click in the list keeps it: the option's own handler picks.
          if (!popupRef.current?.contains(e.relatedTarget as Node | null)) close();
        }}
        onClick={() => !open && catalog && openList(null)}
        spellCheck={false}
        autoComplete="off"
        className={`${INPUT} font-mono ${invalid ? "border-rose-400 focus:border-rose-500 focus:ring-rose-500/30" : ""}`}
      />
      <div
        ref={popupRef}
        hidden={!open}
        className="absolute z-20 mt-1 grid w-[min(56rem,calc(100vw-2rem))] overflow-hidden rounded-md border border-slate-200 bg-white text-sm shadow-lg md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]"
      >
      <ul id={listId} role="listbox" aria-label="Web API catalog" className="max-h-80 overflow-y-auto py-1">
        {open && flat.length === 0 && (
          <li role="presentation" className="px-3 py-2 text-slate-500">
            No method in the catalog matches; the name is sent as typed.
          </li>
        )}
        {open &&
          groups.map((group) => (
            <li key={group.family} role="presentation">
              <ul role="group" aria-labelledby={`${ids}-fam-${group.family}`}>
                <li role="presentation" id={`${ids}-fam-${group.family}`} className="px-3 pb-0.5 pt-2 text-[11px] font-semibold uppercase tracking-wide text-slate-500">
                  {group.family}
                </li>
                {group.methods.map((method) => {
                  index += 1;
                  const mine = index;
                  const isActive = activeMethod?.name === method.name;
                  return (
                    <li
                      key={method.name}
                      id={optionId(method.name)}
                      role="option"
                      aria-selected={isActive}
                      onMouseDown={(e) => e.preventDefault()}
                      onMouseMove={() => mine !== active && highlight(mine)}
                      onClick={() => pick(method)}
                      className={`flex cursor-pointer items-baseline justify-between gap-3 px-3 py-1 ${isActive ? "bg-emerald-50 text-emerald-900" : "text-slate-800"}`}
                    >
                      <span className="font-mono">{method.name}</span>
                      <span className="truncate text-xs text-slate-500">
                        {method.deprecated ? "deprecated · " : ""}
                        {method.summary}
                      </span>
                    </li>
                  );
                })}
              </ul>
            </li>
          ))}
      </ul>
      {open && activeMethod && (
        <div className="hidden max-h-80 overflow-y-auto border-l border-slate-100 bg-slate-50/60 p-3 md:block">
          {details(activeMethod)}
        </div>
      )}
      </div>
    </div>
  );
}
