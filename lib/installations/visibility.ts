import "server-only";
import type { Viewer } from "@/lib/viewer";
import { AppError } from "@/lib/http/app-error";
import { getStore, type InstallationSummary, type StoredInstallation } from "@/lib/store";
import { INSTALLATION_ID, type InstallationRecord } from "./record";
import { findInstallation, listInstallations } from "./repository";
import { fromStoreInstallation } from "./store-mapping";
import { readOrUnreadable } from "./unreadable";
import { DEFAULT_PAGE_SIZE, EXPIRING_WITHIN_MS, type ListPage, type ListQuery } from "./universal/list-query";
import type { ListScope } from "@/lib/store/installation-lists";
import { decodeListCursor, encodeListCursor } from "./list-cursor";
import { canManage, canSee, type InstallationAccessFacts } from "./universal/rights";
import { MAX_TIMELINE_ENTRIES, timelineEntrySchema } from "./universal/timeline";
import type { TokenKind } from "./universal/token-kind";
import { chooseUserToken } from "./user-tokens";

/**
 * What a viewer may see and do of the installations (universal/rights.ts says it of one): the repository's
 * reads filtered to those the viewer sees, each acting with the viewer's own user token (user-tokens.ts),
 * and the checks an action makes before it acts. Another team's installation answers as an unknown one
 * does (404): no answer tells a person another workspace's installation exists.
 */

/** The installation if this viewer may see it; another team's answers as an unknown one does (404). */
export function requireVisible<T extends InstallationAccessFacts>(viewer: Viewer, installation: T | undefined): T {
  if (!installation || !canSee(viewer, installation)) throw new AppError("unknown_installation");
  return installation;
}

/**
 * The installation, acting with the viewer's user token, or 404 unknown_installation: a malformed id, an
 * unknown one and another team's alike.
 */
export async function requireInstallation(viewer: Viewer, id: string, options: { fresh?: boolean } = {}): Promise<InstallationRecord> {
  if (!INSTALLATION_ID.test(id)) throw new AppError("unknown_installation");
  return requireVisible(viewer, await findInstallation(id, { ...options, holder: { viewer } }));
}

/** Throws 403 not_allowed unless the viewer may revoke, uninstall, forget or exchange the installation. */
export function requireManager(viewer: Viewer, installation: InstallationAccessFacts, action: string): void {
  if (!canSee(viewer, installation)) throw new AppError("unknown_installation");
  if (!canManage(viewer, installation)) {
    throw new AppError("not_allowed", { message: `Only an admin or the member who installed this app may ${action}.` });
  }
}

/**
 * Throws 403 not_allowed unless the viewer may revoke the installation's `kind` token as it acts with it: a
 * manager any, a member the rotating user token that is their own. Not a long-lived one: without rotation,
 * auth.revoke ends the whole authorization (every token, the installation), a manager's to do.
 */
export function requireTokenManager(
  viewer: Viewer,
  installation: InstallationAccessFacts & { userHolder?: string; user?: { refreshToken?: string } },
  kind: TokenKind,
  action: string,
): void {
  const ownRotating = kind === "user" && viewer.kind === "member" && installation.userHolder === viewer.userId && Boolean(installation.user?.refreshToken);
  if (ownRotating && canSee(viewer, installation)) return;
  requireManager(viewer, installation, action);
}

/** The summaries (no secret) of the installations the viewer may see, uninstalled ones too. */
export async function listVisibleSummaries(viewer: Viewer): Promise<InstallationSummary[]> {
  return (await (await getStore()).installations.listSummaries()).filter((summary) => canSee(viewer, summary));
}

/**
 * One installation's summary (no secret) if the viewer may see it: its exact id, in the viewer's scope (not a
 * search on the id, which other installations' names or installers may also contain, ahead of it).
 */
export async function findVisibleSummary(viewer: Viewer, id: string): Promise<InstallationSummary | undefined> {
  if (!INSTALLATION_ID.test(id)) return undefined;
  const { summaries } = await (await getStore()).installations.page({ scope: listScope(viewer), q: "", id, filter: "all", limit: 1, expiringBy: 0 });
  return summaries.find((summary) => summary.id === id && canSee(viewer, summary));
}

/** Every installation the viewer may see, each acting with their user token. */
export async function listVisibleInstallations(viewer: Viewer): Promise<InstallationRecord[]> {
  return (await listInstallations()).filter((installation) => canSee(viewer, installation)).map((installation) => chooseUserToken(installation, { viewer }));
}

/** Whose installations a list reads: everyone's for the operator and admins, else the member's (universal/rights.ts's canSee, as SQL). */
function listScope(viewer: Viewer): ListScope {
  if (viewer.admin || viewer.kind !== "member") return { kind: "everyone" };
  return { kind: "member", teamId: viewer.teamId, ...(viewer.enterpriseId !== undefined ? { enterpriseId: viewer.enterpriseId } : {}) };
}

/**
 * One page of the installations the viewer sees, read from the database a page at a time (the store's
 * installations.page: keyset order, the search and filters on indexes, kept counts), then only the page's
 * installations read whole (from the store's cache) with their newest timeline entries (one query); `now`
 * is the platform's time, which says what is expiring. Without a query: the first page of every one.
 */
export async function pageVisibleInstallations(
  viewer: Viewer,
  query: ListQuery | undefined,
  now: number,
): Promise<{ installations: InstallationRecord[]; page: ListPage }> {
  const store = await getStore();
  const q = query?.q ?? "";
  const state = query?.state ?? "all";
  const limit = query?.limit ?? DEFAULT_PAGE_SIZE;
  const result = await store.installations.page({
    scope: listScope(viewer),
    q,
    filter: state,
    ...(query?.after !== undefined ? { after: decodeListCursor(query.after, { filter: state, q }) } : {}),
    ...(query?.before !== undefined ? { before: decodeListCursor(query.before, { filter: state, q }) } : {}),
    limit,
    expiringBy: now + EXPIRING_WITHIN_MS,
  });
  // The SQL scope is canSee's; asked again here so that the two can never disagree on what a member is shown.
  const summaries = result.summaries.filter((summary) => canSee(viewer, summary));
  // Forgotten since the page was read: left out.
  const slice = (await Promise.all(summaries.map((summary) => readOrUnreadable(store.installations.get(summary.id), summary)))).filter(
    (stored): stored is StoredInstallation => stored !== null,
  );
  const timelines = await store.installations.newestTimelines(
    slice.map((stored) => stored.id),
    { limit: MAX_TIMELINE_ENTRIES },
  );
  const installations = slice.map((stored) => {
    const page = timelines.get(stored.id);
    const entries = (page?.entries ?? []).flatMap(({ entry }) => {
      const parsed = timelineEntrySchema.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    });
    return fromStoreInstallation(stored, entries, page?.nextBefore !== undefined, { viewer });
  });
  return {
    installations,
    page: {
      q,
      state,
      limit,
      total: result.total,
      matched: result.counts[state],
      counts: result.counts,
      capped: result.capped,
      next: result.next ? encodeListCursor(result.next, { filter: state, q }) : null,
      previous: result.previous ? encodeListCursor(result.previous, { filter: state, q }) : null,
    },
  };
}
