/**
 * The dashboard's list of installations, paged and searched on the server (GET /api/session?q=&state=&offset=&limit=),
 * so a console with a thousand installations answers a page of them, never every one with its timeline.
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
export const MAX_OFFSET = 1_000_000;

export interface ListQuery {
  q: string;
  state: InstallationFilter;
  offset: number;
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
  return {
    q: (params.get("q") ?? "").trim().slice(0, MAX_SEARCH_CHARS),
    state: (INSTALLATION_FILTERS as readonly string[]).includes(state ?? "") ? (state as InstallationFilter) : "all",
    offset: int("offset", 0, MAX_OFFSET, 0),
    limit: int("limit", 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
  };
}

/** The query string of a list query, with only what differs from the defaults ("" for the first page of all). */
export function listQueryString(query: Partial<ListQuery>): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.state && query.state !== "all") params.set("state", query.state);
  if (query.offset) params.set("offset", String(query.offset));
  if (query.limit && query.limit !== DEFAULT_PAGE_SIZE) params.set("limit", String(query.limit));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** What a list answer says of its page: where it is, and how many each filter holds (of what this person sees). */
export interface ListPage {
  q: string;
  state: InstallationFilter;
  offset: number;
  limit: number;
  /** Installations this person sees in all. */
  total: number;
  /** Of them, those the search and the filter keep: the page is a slice of these. */
  matched: number;
  /** Per filter, how many the search keeps: the filter's counts beside its name. */
  counts: Record<InstallationFilter, number>;
}

/** The facts of an installation a filter and a search read (the view and the record both have them). */
export interface ListFacts {
  id: string;
  state: "active" | "needs_reinstall";
  team: { id: string; name: string };
  enterprise?: { id: string; name: string } | null;
  appId?: string | null;
  appName?: string | null;
  installedBy?: string | null;
  tokens: Array<{ rotating: boolean; expiresAt: number | null; revoked: boolean }>;
}

export function matchesFilter(facts: ListFacts, filter: InstallationFilter, now: number): boolean {
  switch (filter) {
    case "all":
      return true;
    case "needs_reinstall":
      return facts.state === "needs_reinstall";
    case "expiring":
      return facts.state === "active" && facts.tokens.some((t) => t.rotating && !t.revoked && t.expiresAt !== null && t.expiresAt <= now + EXPIRING_WITHIN_MS);
    case "rotating":
      return facts.tokens.some((t) => t.rotating);
    case "legacy":
      return facts.tokens.some((t) => !t.rotating && !t.revoked);
  }
}

/** A case-insensitive search in the names and ids a person knows an installation by. */
export function matchesSearch(facts: ListFacts, q: string): boolean {
  if (!q) return true;
  const needle = q.toLowerCase();
  return [facts.id, facts.team.id, facts.team.name, facts.enterprise?.id, facts.enterprise?.name, facts.appId, facts.appName, facts.installedBy].some(
    (field) => typeof field === "string" && field.toLowerCase().includes(needle),
  );
}
