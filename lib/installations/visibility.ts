import "server-only";
import type { Viewer } from "@/lib/viewer";
import { AppError } from "@/lib/http/app-error";
import { getStore, type InstallationSummary, type StoredInstallation } from "@/lib/store";
import { INSTALLATION_ID, type InstallationRecord } from "./record";
import { findInstallation, listInstallations } from "./repository";
import { fromStoreInstallation } from "./store-mapping";
import { readOrUnreadable } from "./unreadable";
import { INSTALLATION_FILTERS, matchesFilter, matchesSearch, type ListFacts, type ListPage, type ListQuery } from "./universal/list-query";
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

/** Every installation the viewer may see, each acting with their user token. */
export async function listVisibleInstallations(viewer: Viewer): Promise<InstallationRecord[]> {
  return (await listInstallations()).filter((installation) => canSee(viewer, installation)).map((installation) => chooseUserToken(installation, { viewer }));
}

/** What a filter and a search read of an installation (lib/installations/universal/list-query.ts). */
function listFacts(summary: InstallationSummary): ListFacts {
  return {
    id: summary.id,
    state: summary.state,
    team: summary.team,
    enterprise: summary.enterprise ?? null,
    appId: summary.appId ?? null,
    appName: summary.appName ?? null,
    installedBy: summary.installedBy ?? null,
    tokens: summary.tokens,
  };
}

/**
 * One page of the installations the viewer sees, searched and filtered on the server from the store's
 * summaries (no secret unsealed), then only the page's installations read whole (from the store's cache)
 * with their newest timeline entries (one query); `now` is the platform's time, which says what is expiring.
 * Without a query: every installation the viewer sees, as one page.
 */
export async function pageVisibleInstallations(
  viewer: Viewer,
  query: ListQuery | undefined,
  now: number,
): Promise<{ installations: InstallationRecord[]; page: ListPage }> {
  const store = await getStore();
  const summaries = (await store.installations.listSummaries()).filter((summary) => canSee(viewer, summary));
  const visible = summaries.map(listFacts);
  const q = query?.q ?? "";
  const state = query?.state ?? "all";
  const searched = visible.filter((facts) => matchesSearch(facts, q));
  const counts = Object.fromEntries(
    INSTALLATION_FILTERS.map((f) => [f, searched.filter((facts) => matchesFilter(facts, f, now)).length]),
  ) as ListPage["counts"];
  const matched = searched.filter((facts) => matchesFilter(facts, state, now));
  const offset = query?.offset ?? 0;
  const limit = query?.limit ?? Math.max(matched.length, 1);
  // Forgotten since the summaries were read: left out.
  const summaryOf = new Map(summaries.map((summary) => [summary.id, summary]));
  const slice = (
    await Promise.all(matched.slice(offset, offset + limit).map((facts) => readOrUnreadable(store.installations.get(facts.id), summaryOf.get(facts.id)!)))
  ).filter((stored): stored is StoredInstallation => stored !== null);
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
  return { installations, page: { q, state, offset, limit, total: visible.length, matched: matched.length, counts } };
}
