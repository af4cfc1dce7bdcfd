/**
 * The dashboard's list of installations, paged and searched on the server (GET /api/session?q=&state=&after=&limit=),
 * so a console with 100,000 installations answers a page of them, read from the database's indexes a page at a
 * time (lib/store/installation-lists.ts), never every one.
 * Browser-safe: the dashboard builds its links and requests from the same names.
 */
export const INSTALLATION_FILTERS = ["all", "needs_reinstall", "expiring", "rotating", "legacy"] as const;
export type InstallationFilter = (typeof INSTALLATION_FILTERS)[number];

export const FILTER_LABELS: Record<InstallationFilter, string> = {
  all: "All",
  needs_reinstall: "Needs reinstall",
  expiring: "Expiring within the hour",
  rotating: "Rotating",
  legacy: "Long-lived (legacy)",
};

/** A token counts as expiring when it has expired or expires within the hour (on the platform's time). */
export const EXPIRING_WITHIN_MS = 60 * 60 * 1000;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
export const MAX_SEARCH_CHARS = 100;
/** A cursor is short (lib/installations/list-cursor.ts); a longer one is no cursor. */
export const MAX_CURSOR_CHARS = 200;

export interface ListQuery {
  q: string;
  state: InstallationFilter;
  /** The page after this cursor (a page's `next`), or before it (a page's `previous`); neither: the first page. */
  after?: string;
  before?: string;
  limit: number;
}

/**
 * The list query a page's URL holds, read leniently (the browser's side: anything out of range falls back
 * to its default; the server validates what it is sent with listQuerySchema, list-query-schema.ts). Without
 * zod, which the explorer's and the dashboard's first load would otherwise carry.
 */
export function readListQuery(params: URLSearchParams): ListQuery {
  const int = (name: string, min: number, max: number, fallback: number) => {
    const value = Number(params.get(name) ?? "");
    return params.has(name) && Number.isInteger(value) && value >= min && value <= max ? value : fallback;
  };
  const state = params.get("state");
  const cursor = (name: string) => {
    const value = params.get(name);
    return value && value.length <= MAX_CURSOR_CHARS ? { [name]: value } : {};
  };
  return {
    q: (params.get("q") ?? "").trim().slice(0, MAX_SEARCH_CHARS),
    state: (INSTALLATION_FILTERS as readonly string[]).includes(state ?? "") ? (state as InstallationFilter) : "all",
    ...cursor("after"),
    ...(params.has("after") ? {} : cursor("before")),
    limit: int("limit", 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
  };
}

/** The query string of a list query, with only what differs from the defaults ("" for the first page of all). */
export function listQueryString(query: Partial<ListQuery>): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.state && query.state !== "all") params.set("state", query.state);
  if (query.after) params.set("after", query.after);
  else if (query.before) params.set("before", query.before);
  if (query.limit && query.limit !== DEFAULT_PAGE_SIZE) params.set("limit", String(query.limit));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** What a list answer says of its page: where it is, and how many each filter holds (of what this person sees). */
export interface ListPage {
  q: string;
  state: InstallationFilter;
  limit: number;
  /** Installations this person sees in all. */
  total: number;
  /** Of them, those the search and the filter keep: the page is a slice of these. */
  matched: number;
  /** Per filter, how many the search keeps: the filter's counts beside its name. */
  counts: Record<InstallationFilter, number>;
  /** Filters whose count was counted on the read and stopped at its cap (a search's, "expiring"): "1,000+". */
  capped: InstallationFilter[];
  /** The cursor of the next page (`after`), and of the previous one (`before`); null at either end. */
  next: string | null;
  previous: string | null;
}
