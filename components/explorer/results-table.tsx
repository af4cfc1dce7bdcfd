"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useDeferredValue, useMemo, useRef, useState } from "react";
import { PlatformText } from "@/components/platform-text";
import { COLUMNS, searchTextOf, toRow, type CollectionKind } from "@/lib/explorer/items";

const ROW_HEIGHT = 30;

const TEMPLATES: Record<CollectionKind, string> = {
  members: "7.5rem 9rem minmax(9rem,1.2fr) minmax(11rem,1.4fr) minmax(8rem,1fr) 9rem 4.5rem 4rem 4.5rem",
  channels: "7.5rem 10rem 5rem 5.5rem 6.5rem minmax(10rem,1fr) minmax(10rem,1fr) 7rem",
  items: "10rem 12rem minmax(12rem,1fr)",
};

/**
 * The members or channels of a page or of a whole walk. Only the rows in view are in the DOM
 * (@tanstack/react-virtual), and rows are reshaped from the platform's items as they scroll into view, so
 * 100,000 members scroll as smoothly as 50. `version` changes when `items` (appended in place while a walk
 * streams) grows.
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
  const deferredFilter = useDeferredValue(filter.trim().toLowerCase());
  const searchTexts = useRef<{ source: readonly unknown[]; texts: string[] }>({ source: items, texts: [] });
  const scrollRef = useRef<HTMLDivElement>(null);
  const columns = COLUMNS[kind];

  const matches = useMemo(() => {
    if (deferredFilter === "") return null;
    const cache = searchTexts.current;
    if (cache.source !== items) searchTexts.current = { source: items, texts: [] };
    const texts = searchTexts.current.texts;
    for (let i = texts.length; i < items.length; i++) texts.push(searchTextOf(toRow(kind, items[i])));
    const found: number[] = [];
    for (let i = 0; i < items.length; i++) if (texts[i]!.includes(deferredFilter)) found.push(i);
    return found;
    // `version` stands for the length of the array appended in place.
  }, [deferredFilter, items, kind, version]);

  const count = matches ? matches.length : items.length;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // Few rows beyond the viewport: a frame renders the rows it paints, not a screenful more.
    overscan: 6,
  });
  const template = TEMPLATES[kind];

  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-3">
        <label className="relative flex-1">
          <span className="sr-only">Filter rows</span>
          <input
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder={`Filter ${kind === "items" ? "rows" : kind} by any column…`}
            className="w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-xs placeholder:text-slate-400 focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30"
          />
        </label>
        <p className="shrink-0 text-sm tabular-nums text-slate-600" data-testid="row-count">
          {matches ? `${count.toLocaleString("en-US")} of ${items.length.toLocaleString("en-US")} rows` : `${count.toLocaleString("en-US")} rows`}
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
        <div role="rowgroup" className="sticky top-0 z-10 min-w-max border-b border-slate-200 bg-slate-100 font-medium text-slate-600">
          <div role="row" aria-rowindex={1} className="grid" style={{ gridTemplateColumns: template }}>
            {columns.map((c) => (
              <div role="columnheader" key={c} className="truncate px-2 py-1.5">
                {c}
              </div>
            ))}
          </div>
        </div>
        <div role="rowgroup" className="relative min-w-max" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => (
            <TableRow
              key={v.key}
              position={v.index}
              start={v.start}
              kind={kind}
              item={items[matches ? matches[v.index]! : v.index]}
              template={template}
            />
          ))}
        </div>
        {count === 0 && <p className="p-6 text-center text-sm text-slate-500">{matches ? "No row matches the filter." : emptyText}</p>}
      </div>
    </div>
  );
}

const TableRow = memo(function TableRow({
  position,
  start,
  kind,
  item,
  template,
}: {
  position: number;
  start: number;
  kind: CollectionKind;
  item: unknown;
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
      {COLUMNS[kind].map((c) => (
        <div role="cell" key={c} className="truncate px-2 leading-[30px]" title={row[c]}>
          <PlatformText>{row[c]}</PlatformText>
        </div>
      ))}
    </div>
  );
});
