"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useId, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from "react";
import { findMethod, groupByFamily, searchMethods, type CatalogMethod } from "@/lib/explorer/catalog";
import { INPUT } from "@/components/ui/primitives";
import { useSelectOnFocus } from "@/components/use-select-on-focus";

/** At most this many methods are listed for a query (the whole catalog when it is empty). */
const SHOWN_FOR_QUERY = 60;

interface Props {
  /** The input's id, for its label. */
  id: string;
  /** The method name in the request (what the input shows when the list is closed). */
  value: string;
  /** Called with every keystroke (free names outside the catalog are allowed; spaces around are not part of it) and with a picked method. */
  onChange(name: string): void;
  /** Called when a method is picked from the list (Enter or a click), or its name typed out in full and the list left. */
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
/** One method in the list; it renders again only when it is highlighted or no longer is. */
const MethodOption = memo(function MethodOption({
  method,
  id,
  index,
  setSize,
  active,
  style,
}: {
  method: CatalogMethod;
  id: string;
  index: number;
  setSize: number;
  active: boolean;
  style: CSSProperties;
}) {
  return (
    <li
      id={id}
      // Only the options in view are in the DOM: each says where it stands in the whole list.
      aria-setsize={setSize}
      aria-posinset={index + 1}
      style={style}
      title={method.summary}
      role="option"
      aria-selected={active}
      data-index={index}
      className={`flex h-7 cursor-pointer items-baseline justify-between gap-3 px-3 py-1 ${active ? "bg-emerald-50 text-emerald-900" : "text-slate-800"}`}
    >
      <span className="font-mono">{method.name}</span>
      <span className="truncate text-xs text-slate-500">
        {method.deprecated ? "deprecated · " : ""}
        {method.summary}
      </span>
    </li>
  );
});

const FAMILY_ROW_PX = 30;
const METHOD_ROW_PX = 28;

type Row = { kind: "family"; family: string } | { kind: "method"; method: CatalogMethod; index: number };

/** The index of the option an event happened in, from its data-index. */
function optionIndexOf(target: EventTarget): number | null {
  const option = target instanceof Element ? target.closest<HTMLElement>("[role=option]") : null;
  return option?.dataset.index !== undefined ? Number(option.dataset.index) : null;
}

function listFor(catalog: readonly CatalogMethod[], query: string | null) {
  return groupByFamily(query === null || query.trim() === "" ? catalog : searchMethods(catalog, query, SHOWN_FOR_QUERY));
}

export function MethodPicker({ id, value, onChange, onPick, details, catalog, invalid, describedBy }: Props) {
  const ids = useId();
  const listId = `${ids}-list`;
  const [open, setOpen] = useState(false);
  // What the list is filtered by: the text typed since the list opened, as typed, spaces included (null:
  // the whole catalog). The field shows it while the list is open.
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const popupRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // The field opens holding a method (users.list, or the link's): typing replaces it rather than appending.
  const selectOnFocus = useSelectOnFocus();

  const groups = useMemo(() => (catalog ? listFor(catalog, query) : []), [catalog, query]);
  const flat = useMemo(() => groups.flatMap((g) => g.methods), [groups]);
  // The list's rows: each family's heading, then its methods. Only the rows in view are in the DOM, so a
  // keystroke costs the same whether it leaves five methods or the whole catalog.
  const rows = useMemo(() => {
    const out: Row[] = [];
    let index = 0;
    for (const group of groups) {
      out.push({ kind: "family", family: group.family });
      for (const method of group.methods) out.push({ kind: "method", method, index: index++ });
    }
    return out;
  }, [groups]);
  const rowOfIndex = useMemo(() => rows.flatMap((row, at) => (row.kind === "method" ? [at] : [])), [rows]);
  // TanStack Virtual's virtualizer changes what its methods return without changing identity, so the React
  // Compiler would skip this component. The console does not build with the compiler, and this component
  // reads the virtualizer afresh each render (getVirtualItems, getTotalSize) and memoizes nothing from it.
  // eslint-disable-next-line react-hooks/incompatible-library -- read afresh each render, never memoized (above)
  const virtualizer = useVirtualizer({
    count: open ? rows.length : 0,
    getScrollElement: () => listRef.current,
    estimateSize: (at) => (rows[at]?.kind === "family" ? FAMILY_ROW_PX : METHOD_ROW_PX),
    overscan: 4,
  });
  const activeMethod = open ? flat[Math.min(active, flat.length - 1)] : undefined;
  const optionId = (name: string) => `${ids}-opt-${name.replace(/\./g, "-")}`;

  // The list scrolls to keep the highlighted method in view (its family's heading too, at the top).
  const activeRow = activeMethod ? rowOfIndex[Math.min(active, flat.length - 1)] : undefined;
  useEffect(() => {
    if (activeRow === undefined) return;
    const heading = rows[activeRow - 1]?.kind === "family" ? activeRow - 1 : activeRow;
    virtualizer.scrollToIndex(heading, { align: "auto" });
    if (heading !== activeRow) virtualizer.scrollToIndex(activeRow, { align: "auto" });
  }, [activeRow, rows, virtualizer]);

  const highlight = (index: number) => setActive(Math.max(0, Math.min(index, flat.length - 1)));

  const openList = (fromQuery: string | null) => {
    if (!catalog) return;
    setOpen(true);
    setQuery(fromQuery);
    // Opened on the whole catalog, the list starts at the method already chosen.
    const start =
      fromQuery === null
        ? listFor(catalog, null)
            .flatMap((g) => g.methods)
            .findIndex((m) => m.name === value)
        : 0;
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

  // Leaving the list (Escape, Tab, a click elsewhere) keeps the text as the method's name; a catalog
  // method's name typed out in full is that method picked, with what picking brings (its verb, its paging).
  const leave = () => {
    const typed = query !== null && catalog ? findMethod(catalog, query.trim()) : undefined;
    close();
    if (typed) onPick(typed);
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
      case "Enter": {
        // Ctrl/Cmd+Enter sends the request (the page listens); a plain Enter picks the highlighted method.
        if (e.ctrlKey || e.metaKey) break;
        if (open && activeMethod) {
          e.preventDefault();
          pick(activeMethod);
          break;
        }
        // A plain Enter never sends a name outside the catalog: the list says nothing matches, and Send
        // (or Ctrl+Enter) sends it as typed on purpose. A catalog method's name typed out in full sends.
        const typed = (open && query !== null ? query : value).trim();
        if (catalog && !findMethod(catalog, typed)) {
          e.preventDefault();
          if (!open) openList(typed);
        }
        break;
      }
      case "Escape":
        if (open) {
          e.preventDefault();
          leave();
        } else if (value !== "") {
          e.preventDefault();
          onChange("");
        }
        break;
      case "Tab":
        if (open) leave();
        break;
    }
  };

  return (
    <div className="relative">
      <input
        id={id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={activeMethod ? optionId(activeMethod.name) : undefined}
        // While the list is open the text is a search ("post message"), not yet a method name to judge.
        aria-invalid={invalid && !open}
        aria-describedby={describedBy}
        value={open && query !== null ? query : value}
        placeholder={catalog ? "Search methods: users.list, post message…" : "users.list"}
        onChange={(e) => {
          // The search keeps what was typed ("post message" is two words as it is typed, not "postmessage");
          // the request's method name does not take the spaces around it.
          const text = e.target.value;
          onChange(text.trim());
          if (catalog) {
            setOpen(true);
            setQuery(text);
            setActive(0);
          }
        }}
        onKeyDown={onKeyDown}
        onBlur={(e) => {
          // A click in the list keeps it: the option's own handler picks.
          if (!popupRef.current?.contains(e.relatedTarget as Node | null)) leave();
        }}
        onClick={() => !open && catalog && openList(null)}
        {...selectOnFocus}
        spellCheck={false}
        autoComplete="off"
        // The attribute variant outranks INPUT's own border colours.
        className={`${INPUT} font-mono aria-invalid:border-rose-400 aria-invalid:focus:border-rose-500 aria-invalid:focus:ring-rose-500/30`}
      />
      <div
        ref={popupRef}
        hidden={!open}
        className="absolute z-20 mt-1 grid w-[min(56rem,calc(100vw-2rem))] overflow-hidden rounded-md border border-slate-200 bg-white text-sm shadow-lg md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]"
      >
        <ul
          id={listId}
          ref={listRef}
          role="listbox"
          aria-label="Web API catalog"
          className="max-h-80 overflow-y-auto py-1"
          // One handler for every option (each option then renders again only when its highlight changes).
          onMouseDown={(e) => e.preventDefault()}
          onMouseMove={(e) => {
            const at = optionIndexOf(e.target);
            if (at !== null && at !== active) highlight(at);
          }}
          onClick={(e) => {
            const at = optionIndexOf(e.target);
            const method = at !== null ? flat[at] : undefined;
            if (method) pick(method);
          }}
        >
          {open && flat.length === 0 && (
            <li role="presentation" className="px-3 py-2 text-slate-500">
              No method in the catalog matches. Send (or Ctrl+Enter) sends the name as typed.
            </li>
          )}
          {open && flat.length > 0 && (
            <li role="presentation" className="relative" style={{ height: virtualizer.getTotalSize() }}>
              <ul role="presentation">
                {virtualizer.getVirtualItems().map((item) => {
                  const row = rows[item.index]!;
                  const style = { position: "absolute", top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` } as const;
                  return row.kind === "family" ? (
                    <li
                      key={`f-${row.family}`}
                      role="presentation"
                      style={style}
                      className="h-[30px] px-3 pb-0.5 pt-2 text-[11px] font-semibold uppercase tracking-wide text-slate-500"
                    >
                      {row.family}
                    </li>
                  ) : (
                    <MethodOption
                      key={row.method.name}
                      method={row.method}
                      id={optionId(row.method.name)}
                      index={row.index}
                      setSize={flat.length}
                      active={activeMethod?.name === row.method.name}
                      style={style}
                    />
                  );
                })}
              </ul>
            </li>
          )}
        </ul>
        {open && activeMethod && (
          <div className="hidden max-h-80 overflow-y-auto border-l border-slate-100 bg-slate-50/60 p-3 md:block">{details(activeMethod)}</div>
        )}
      </div>
    </div>
  );
}
