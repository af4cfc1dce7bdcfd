import "server-only";
import { and, asc, desc, eq, gt, inArray, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { rowsOf } from "./backend";
import type { StoreContext } from "./context";
import { installationCounts, installations, tokens } from "./schema";
import type { InstallationSummary, StoreTokenKind } from "./types";
import { SUMMARY_COLUMNS, summaryOf } from "./installation-summary-row";

/**
 * Lists of installations read a page at a time from the database (issue 43): in (installed_at, id) order
 * ("expiring": (next_expiry, id), soonest first),
 * after or before a keyset cursor, each filter and the search on an index of its own (schema.ts), and the
 * counts per filter read from counters kept by a trigger in the writing transaction (migration 0006). Only a
 * search's counts, and "expiring" (which moves with the clock), are counted on a read, and only up to
 * COUNT_CAP. Nothing here is cached: a list is as fresh as the database.
 */

export const LIST_FILTERS = ["all", "needs_reinstall", "expiring", "rotating", "legacy"] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];

/** Whose installations: everyone's (the operator, admins), or a member's (their workspace's, their organisation's organisation-wide installs). */
export type ListScope = { kind: "everyone" } | { kind: "member"; teamId: string; enterpriseId?: string };

/**
 * A position in the list: the sort key and id of an installation at a page's edge. The key is its install
 * time, or for "expiring" (listed soonest first) its next expiry.
 */
export interface ListPosition {
  key: number;
  id: string;
}

export interface ListPageRequest {
  scope: ListScope;
  /** A part of a workspace's or organisation's name or id, the app's, the installation's id, the installer's id; any case. */
  q: string;
  filter: ListFilter;
  /** The page after this position (next), or before it (previous); neither: the first page. */
  after?: ListPosition;
  before?: ListPosition;
  limit: number;
  /** "Expiring": an active installation with a rotating token that expires at or before this (epoch ms). */
  expiringBy: number;
  /** Only this installation (an exact id, on the primary key): one looked up by id, which a search of its id may rank past a page. */
  id?: string;
}

export interface ListPageResult {
  /** The page, in list order, without a secret. */
  summaries: InstallationSummary[];
  /** Where the next page starts (absent on the last) and where the previous one ends (absent on the first). */
  next?: ListPosition;
  previous?: ListPosition;
  /** Every installation of the scope (kept count). */
  total: number;
  /** Per filter, of those the search keeps; a figure counted on the read stops at COUNT_CAP (then `capped` names it). */
  counts: Record<ListFilter, number>;
  capped: ListFilter[];
}

/** A count made on a read (a search's, "expiring") stops here: the list says "1,000+" rather than scanning 100,000 rows. */
export const COUNT_CAP = 1_000;

/** LIKE's own characters in a search are taken literally. */
function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function scopeCondition(scope: ListScope): SQL | undefined {
  if (scope.kind === "everyone") return undefined;
  const own = and(sql`not ${installations.isEnterpriseInstall}`, eq(installations.teamId, scope.teamId));
  if (scope.enterpriseId === undefined) return own;
  return or(own, and(sql`${installations.isEnterpriseInstall}`, eq(installations.enterpriseId, scope.enterpriseId)));
}

function filterCondition(filter: ListFilter, expiringBy: number): SQL | undefined {
  switch (filter) {
    case "all":
      return undefined;
    case "needs_reinstall":
      return eq(installations.state, "needs_reinstall");
    case "rotating":
      return sql`${installations.rotating}`;
    case "legacy":
      return sql`${installations.legacy}`;
    case "expiring":
      return and(eq(installations.state, "active"), lte(installations.nextExpiry, expiringBy));
  }
}

function searchCondition(q: string): SQL | undefined {
  return q ? sql`${installations.search} like ${likePattern(q)}` : undefined;
}

/** The counter keys of a scope: everyone's, or a member's workspace and organisation. */
function counterScopes(scope: ListScope): string[] {
  if (scope.kind === "everyone") return ["*"];
  return [`team:${scope.teamId}`, ...(scope.enterpriseId !== undefined ? [`org:${scope.enterpriseId}`] : [])];
}

const KEPT: ListFilter[] = ["all", "needs_reinstall", "rotating", "legacy"];

async function keptCounts(ctx: StoreContext, scope: ListScope): Promise<Record<string, number>> {
  const keys = counterScopes(scope).flatMap((s) => KEPT.map((f) => `${s} ${f}`));
  const rows = await ctx.db.select().from(installationCounts).where(inArray(installationCounts.key, keys));
  const counts: Record<string, number> = Object.fromEntries(KEPT.map((f) => [f, 0]));
  for (const row of rows) {
    const filter = row.key.slice(row.key.lastIndexOf(" ") + 1);
    counts[filter] = (counts[filter] ?? 0) + Number(row.n);
  }
  return counts;
}

/** How many match, up to COUNT_CAP (an index scan that stops there). */
async function cappedCount(ctx: StoreContext, where: SQL | undefined): Promise<number> {
  const limited = ctx.db
    .select({ one: sql`1` })
    .from(installations)
    .where(where)
    .limit(COUNT_CAP)
    .as("limited");
  const [row] = await ctx.db.select({ n: sql<number>`count(*)` }).from(limited);
  return Number(row?.n ?? 0);
}

/** What a list is ordered by: install time, or for "expiring" the soonest expiry (its index's order: an install-time walk would pass every installation that is not expiring). */
function sortKey(filter: ListFilter) {
  return filter === "expiring" ? installations.nextExpiry : installations.installedAt;
}

async function pageRows(ctx: StoreContext, request: ListPageRequest, where: SQL | undefined) {
  const { after, before } = request;
  const backwards = before !== undefined && after === undefined;
  const edge = backwards ? before : after;
  const key = sortKey(request.filter);
  const position = edge
    ? backwards
      ? or(lt(key, edge.key), and(eq(key, edge.key), lt(installations.id, edge.id)))
      : or(gt(key, edge.key), and(eq(key, edge.key), gt(installations.id, edge.id)))
    : undefined;
  const order = backwards ? [desc(key), desc(installations.id)] : [asc(key), asc(installations.id)];
  const rows = await ctx.db
    .select({
      ...SUMMARY_COLUMNS,
      key: key,
    })
    .from(installations)
    .where(and(where, position))
    .orderBy(...order)
    .limit(request.limit + 1);
  const more = rows.length > request.limit;
  const page = rows.slice(0, request.limit);
  if (backwards) page.reverse();
  return { page, moreAfter: backwards ? edge !== undefined : more, moreBefore: backwards ? more : edge !== undefined };
}

export async function pageInstallations(ctx: StoreContext, request: ListPageRequest): Promise<ListPageResult> {
  const visible = scopeCondition(request.scope);
  const searched = and(visible, searchCondition(request.q), request.id !== undefined ? eq(installations.id, request.id) : undefined);
  const kept = await keptCounts(ctx, request.scope);
  const counts = {} as Record<ListFilter, number>;
  const capped: ListFilter[] = [];
  for (const filter of LIST_FILTERS) {
    if (!request.q && filter !== "expiring") {
      counts[filter] = kept[filter] ?? 0;
      continue;
    }
    counts[filter] = await cappedCount(ctx, and(searched, filterCondition(filter, request.expiringBy)));
    if (counts[filter] >= COUNT_CAP) capped.push(filter);
  }
  const { page, moreAfter, moreBefore } = await pageRows(ctx, request, and(searched, filterCondition(request.filter, request.expiringBy)));
  const tokenRows =
    page.length === 0
      ? []
      : await rowsOf<{ installation_id: string; kind: string; rotating: boolean; expires_at: string | number | null; revoked: boolean }>(
          ctx.db,
          sql`select ${tokens.installationId} as installation_id, ${tokens.kind} as kind, ${tokens.refreshTokenHash} is not null as rotating,
                ${tokens.expiresAt} as expires_at, ${tokens.revoked} as revoked
              from ${tokens} where ${inArray(
                tokens.installationId,
                page.map((r) => r.id),
              )} order by ${tokens.id}`,
        );
  const summaries: InstallationSummary[] = page.map((row) => ({
    ...summaryOf(row),
    tokens: tokenRows
      .filter((t) => t.installation_id === row.id)
      .map((t) => ({
        kind: t.kind as StoreTokenKind,
        rotating: Boolean(t.rotating),
        expiresAt: t.expires_at === null ? null : Number(t.expires_at),
        revoked: Boolean(t.revoked),
      })),
  }));
  const first = page[0];
  const last = page.at(-1);
  return {
    summaries,
    ...(moreAfter && last ? { next: { key: Number(last.key), id: last.id } } : {}),
    ...(moreBefore && first ? { previous: { key: Number(first.key), id: first.id } } : {}),
    total: kept.all ?? 0,
    counts,
    capped,
  };
}
