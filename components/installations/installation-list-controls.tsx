"use client";

import { useEffect, useEffectEvent, useId, useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import {
  FILTER_LABELS,
  INSTALLATION_FILTERS,
  readListQuery,
  type InstallationFilter,
  type ListPage,
  type ListQuery,
} from "@/lib/installations/universal/list-query";

/** How long typing rests before the search goes to the server. */
const SEARCH_DEBOUNCE_MS = 250;

export interface ListState {
  query: ListQuery;
  /** What the search box holds (ahead of `query.q` while the person types). */
  text: string;
  setText: (text: string) => void;
  setFilter: (state: InstallationFilter) => void;
  /** To the page after (`next`) or before (`previous`) a cursor the server gave. */
  setPage: (cursor: { after: string } | { before: string }) => void;
  /** Back to every installation: no search, no filter, the first page. */
  reset: () => void;
}

/**
 * The dashboard's search, filter and page, kept in the page's URL (?q=&state=&after= or &before=) so a link or
 * a reload opens the same list; a search goes to the server once typing rests, and starts again from the first
 * page. A page is a cursor's (a position in the list), so an install or a forget meanwhile shifts nothing.
 */
export function useListQuery(): ListState {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const query = readListQuery(new URLSearchParams(params.toString()));
  const [text, setText] = useState(query.q);

  // Any change but a page's goes back to the first page (no cursor).
  const navigate = (change: Partial<ListQuery>) => {
    const next = new URLSearchParams(params.toString());
    const merged = { q: query.q, state: query.state, ...change };
    for (const [name, value, fallback] of [
      ["q", merged.q, ""],
      ["state", merged.state, "all"],
      ["after", merged.after ?? "", ""],
      ["before", merged.before ?? "", ""],
    ] as const) {
      if (value === fallback) next.delete(name);
      else next.set(name, value);
    }
    // A new list is no longer the page an install came back to.
    next.delete("installed");
    const search = next.toString();
    router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false });
  };

  // An effect event: the search goes to the URL as it is when typing rests (a filter chosen meanwhile stays),
  // and only the search restarts the wait.
  const search = useEffectEvent((q: string) => navigate({ q }));
  useEffect(() => {
    if (text.trim() === query.q) return;
    const timer = setTimeout(() => search(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, query.q]);

  return {
    query,
    text,
    setText,
    setFilter: (state) => navigate({ state }),
    setPage: (cursor) => navigate(cursor),
    reset: () => {
      setText("");
      navigate({ q: "", state: "all" });
    },
  };
}

const BUTTON =
  "rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700";

const count = (n: number) => n.toLocaleString("en-US");
/** A count the server stopped at its cap (a search's over 100,000): at least that many. */
const countOf = (page: ListPage, filter: InstallationFilter) => `${count(page.counts[filter])}${page.capped.includes(filter) ? "+" : ""}`;

/** The search box, the filter by state (each with how many it holds) and the pager above the dashboard's cards. */
export function InstallationListControls({ list, page, shown }: { list: ListState; page: ListPage; shown: number }) {
  const searchId = useId();
  const filterId = useId();
  return (
    <section aria-label="Find installations" className="space-y-3 rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-[16rem] flex-1">
          <label htmlFor={searchId} className="block text-xs font-medium text-slate-700">
            Search installations
          </label>
          <input
            id={searchId}
            type="search"
            value={list.text}
            onChange={(e) => list.setText(e.target.value)}
            placeholder="Workspace, app, organization or id"
            maxLength={100}
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm text-slate-900 focus:border-emerald-600 focus:outline-none focus:ring-1 focus:ring-emerald-600"
          />
        </div>
        <div>
          <label htmlFor={filterId} className="block text-xs font-medium text-slate-700">
            Show
          </label>
          <select
            id={filterId}
            value={list.query.state}
            onChange={(e) => list.setFilter(e.target.value as InstallationFilter)}
            className="mt-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 focus:border-emerald-600 focus:outline-none focus:ring-1 focus:ring-emerald-600"
          >
            {INSTALLATION_FILTERS.map((filter) => (
              <option key={filter} value={filter}>
                {FILTER_LABELS[filter]} ({countOf(page, filter)})
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-700">
        <p role="status">
          {page.matched === 0
            ? `No installation matches${page.q ? ` “${page.q}”` : ""}${page.state !== "all" ? ` in ${FILTER_LABELS[page.state].toLowerCase()}` : ""}, of ${count(page.total)}.`
            : `Showing ${count(shown)} of ${countOf(page, page.state)}${page.matched !== page.total || page.capped.includes(page.state) ? ` matching, of ${count(page.total)}` : ""}.`}
        </p>
        <div className="flex gap-2">
          {(page.q || page.state !== "all") && (
            <button type="button" className={BUTTON} onClick={list.reset}>
              Show all
            </button>
          )}
          <button type="button" className={BUTTON} disabled={page.previous === null} onClick={() => page.previous && list.setPage({ before: page.previous })}>
            Previous
          </button>
          <button type="button" className={BUTTON} disabled={page.next === null} onClick={() => page.next && list.setPage({ after: page.next })}>
            Next
          </button>
        </div>
      </div>
    </section>
  );
}
