"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useDeferredValue, useMemo, useRef, useState } from "react";
import { PlatformText } from "@/components/platform-text";
import { toRow, type CollectionKind } from "@/lib/explorer/items";
import { nextSort, TableView, type TableSort } from "@/lib/explorer/table-view";
import { formatCount } from "@/lib/format";

const ROW_HEIGHT = 30;

const TEMPLATES: Record<Exclude<CollectionKind, "items">, string> = {
  members: "7.5rem 9rem minmax(9rem,1.2fr) minmax(11rem,1.4fr) minmax(8rem,1fr) 9rem 5.5rem 4.75rem 5.25rem",
  channels: "7.5rem 10rem 6rem 6.5rem 7.5rem minmax(10rem,1fr) minmax(10rem,1fr) 7rem",
};

/** Other items' columns come from their fields: a message's text gets room, an id or a ts what it needs. */
const ITEM_COLUMN_WIDTHS: Readonly<Record<string, string>> = {
  id: "8rem",
  ts: "10.5rem",
  name: "minmax(9rem,1fr)",
  text: "minmax(16rem,3fr)",
  value: "minmax(12rem,1fr)",
};
const ITEM_COLUMN_WIDTH = "minmax(8rem,1fr)";

function templateOf(kind: CollectionKind, columns: readonly string[]): string {
  return kind === "items" ? columns.map((c) => ITEM_COLUMN_WIDTHS[c] ?? ITEM_COLUMN_WIDTH).join(" ") : TEMPLATES[kind];
}

/**
 * The width below which a table scrolls sideways rather than squeeze its columns: the sum of their least
 * widths. Header and rows both take it, so that their columns line up however wide the panel is.
 */
const minWidthOf = (template: string) => `${[...template.matchAll(/([\d.]+)rem/g)].reduce((sum, [, rem]) => sum + Number(rem), 0)}rem`;

const rows = (n: number) => (n === 1 ? "row" : "rows");

/**
 * The items of a page or of a whole walk (members, channels, or another list's items by their scalar
 * fields), filtered in every column or in one, and sorted by a column (lib/explorer/table-view.ts). Only the rows in view are in the DOM (@tanstack/react-virtual),
 * and rows are reshaped from the platform's items as they scroll into view, so 100,000 members scroll as
 * smoothly as 50. `version` changes when `items` (appended in place while a walk streams) grows.
 */
export function ResultsTable({
  kind,
  items,
  version,
  emptyText = "No items in this response.",
}: {
  kind: CollectionKind;
  items: readonly unknown[];
  version: number;
  /** What an empty table says (a walk still waiting for its first page is not an empty answer). */
  emptyText?: string;
}) {
  const [filter, setFilter] = useState("");
  const [filterColumn, setFilterColumn] = useState<string | null>(null);
  const [sort, setSort] = useState<TableSort | null>(null);
  const deferredFilter = useDeferredValue(filter);
  const scrollRef = useRef<HTMLDivElement>(null);
  const noun = kind === "items" ? "rows" : kind;

  const view = useMemo(() => new TableView(kind, items), [kind, items]);
  // `version` stands for the length of the array appended in place.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- version is not read, it says when items grew
  const columns = useMemo(() => view.columns(), [view, version]);
  const shown = useMemo(
    () => view.rows({ filter: deferredFilter, filterColumn, sort }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- version is not read, it says when items grew
    [view, deferredFilter, filterColumn, sort, version],
  );
  const filtering = deferredFilter.trim() !== "";

  const onSort = useCallback((column: string) => {
    setSort((current) => nextSort(current, column));
    // A new order starts from its first row.
    scrollRef.current?.scrollTo({ top: 0 });
  }, []);

  const count = shown ? shown.length : items.length;
  // TanStack Virtual's virtualizer changes what its methods return without changing identity, so the React
  // Compiler would skip this component. The console does not build with the compiler, and this component
  // reads the virtualizer afresh each render (getVirtualItems, getTotalSize) and memoizes nothing from it.
  // eslint-disable-next-line react-hooks/incompatible-library -- read afresh each render, never memoized (above)
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // Few rows beyond the viewport: a frame renders the rows it paints, not a screenful more.
    overscan: 6,
  });
  const template = useMemo(() => templateOf(kind, columns), [kind, columns]);
  const minWidth = minWidthOf(template);

  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-3">
        <label className="relative flex-1">
          <span className="sr-only">Filter rows</span>
          <input
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder={`Filter ${noun} by ${filterColumn ?? "any column"}…`}
            className="w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-xs placeholder:text-slate-500 focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30"
          />
        </label>
        <label className="flex shrink-0 items-center gap-1.5 text-sm text-slate-600">
          <span aria-hidden="true">in</span>
          <span className="sr-only">Filter in column</span>
          <select
            value={filterColumn ?? ""}
            onChange={(e) => setFilterColumn(e.target.value === "" ? null : e.target.value)}
            className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-800 shadow-xs focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30"
          >
            <option value="">All columns</option>
            {columns.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <p className="shrink-0 text-sm tabular-nums text-slate-600" data-testid="row-count">
          {filtering ? `${formatCount(count)} of ${formatCount(items.length)} ${rows(items.length)}` : `${formatCount(count)} ${rows(count)}`}
        </p>
      </div>
      <div
        ref={scrollRef}
        role="table"
        aria-label={kind === "items" ? "Results" : kind === "members" ? "Members" : "Channels"}
        aria-rowcount={count + 1}
        data-testid="results-scroll"
        className="h-[28rem] overflow-auto rounded-md border border-slate-200 bg-white text-xs"
      >
        <div role="rowgroup" className="sticky top-0 z-10 border-b border-slate-200 bg-slate-100 font-medium text-slate-600" style={{ minWidth }}>
          <HeaderRow columns={columns} template={template} sort={sort} onSort={onSort} />
        </div>
        <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize(), minWidth }}>
          {virtualizer.getVirtualItems().map((v) => (
            <TableRow
              key={v.key}
              position={v.index}
              start={v.start}
              kind={kind}
              item={items[shown ? shown[v.index]! : v.index]}
              columns={columns}
              template={template}
            />
          ))}
        </div>
        {count === 0 && <p className="p-6 text-center text-sm text-slate-500">{filtering ? "No row matches the filter." : emptyText}</p>}
      </div>
    </div>
  );
}

/**
 * Each header is a button that cycles its column through ascending, descending and the platform's order
 * (the WAI-ARIA sortable table pattern: `aria-sort` on the sorted column's header only).
 */
const HeaderRow = memo(function HeaderRow({
  columns,
  template,
  sort,
  onSort,
}: {
  columns: readonly string[];
  template: string;
  sort: TableSort | null;
  onSort: (column: string) => void;
}) {
  return (
    <div role="row" aria-rowindex={1} className="grid" style={{ gridTemplateColumns: template }}>
      {columns.map((c) => {
        const direction = sort?.column === c ? sort.direction : undefined;
        return (
          <div role="columnheader" key={c} aria-label={c} aria-sort={direction} className="min-w-0">
            <button
              type="button"
              aria-label={`Sort by ${c}`}
              onClick={() => onSort(c)}
              className={`group flex w-full items-center gap-1 px-2 py-1.5 text-left font-medium hover:bg-slate-200/70 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-emerald-500 ${direction ? "text-slate-900" : ""}`}
            >
              <span className="truncate" title={c}>
                {c}
              </span>
              <span
                aria-hidden="true"
                className={`shrink-0 text-[10px] leading-none ${direction ? "text-emerald-700" : "text-slate-500 opacity-0 group-hover:opacity-100 group-focus-visible:opacity-100"}`}
              >
                {direction === "ascending" ? "▲" : direction === "descending" ? "▼" : "↕"}
              </span>
            </button>
          </div>
        );
      })}
    </div>
  );
});

const TableRow = memo(function TableRow({
  position,
  start,
  kind,
  item,
  columns,
  template,
}: {
  position: number;
  start: number;
  kind: CollectionKind;
  item: unknown;
  columns: readonly string[];
  template: string;
}) {
  // Reshaped here, so a row that stays in view while the list scrolls is not reshaped again.
  const row = toRow(kind, item);
  return (
    <div
      role="row"
      aria-rowindex={position + 2}
      className={`absolute left-0 top-0 grid w-full border-b border-slate-100 font-mono hover:bg-emerald-50 ${position % 2 === 1 ? "bg-slate-50/60" : "bg-white"}`}
      style={{ gridTemplateColumns: template, height: ROW_HEIGHT, transform: `translateY(${start}px)`, contain: "strict" }}
    >
      {columns.map((c) => (
        <div role="cell" key={c} className="truncate px-2 leading-[30px]" title={row[c]}>
          <PlatformText>{row[c]}</PlatformText>
        </div>
      ))}
    </div>
  );
});
