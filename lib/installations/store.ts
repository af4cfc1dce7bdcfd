import "server-only";
import { canSee } from "@/lib/access/rights";
import { actingPerson, currentViewer, requireVisible, signedInViewer } from "@/lib/access/viewer";
import { AppError } from "@/lib/http/app-error";
import { processSingleton } from "@/lib/process-singleton";
import { replayAtStart } from "@/lib/rotation/replay";
import { getRotationRuntime } from "@/lib/rotation/runtime";
import { getStore, UnreadableSecretError, VersionConflictError, type InstallationSummary, type Store, type StoredInstallation } from "@/lib/store";
import { INSTALLATION_ID, type InstallationRecord, type StoredToken } from "./record";
import { importLegacyCookies } from "./legacy-cookies";
import { readOrUnreadable } from "./unreadable";
import {
  derivedIssuedAt,
  fromStoreInstallation,
  isPersisted,
  isPristine,
  markPersisted,
  toStoreEntries,
  toStoreInstallation,
  unsavedEntries,
} from "./store-mapping";
import { INSTALLATION_FILTERS, matchesFilter, matchesSearch, type ListFacts, type ListPage, type ListQuery } from "./universal/list-query";
import { MAX_TIMELINE_ENTRIES, timelineEntrySchema, type TimelineEntry } from "./universal/timeline";
import { TOKEN_KINDS } from "./universal/token-kind";
import { chooseUserToken, holderOf } from "./user-tokens";

/**
 * Installations live in the server's store (lib/store: PGlite under DATA_DIR, or PostgreSQL), not in the
 * browser: every browser of the console sees every installation (one operator today), an installation made
 * through "Add to workspace" by someone outside the team lands here too, and nothing is lost with a cookie.
 *
 * A record is read whole (its tokens and webhook; from the store's cache on the hot path) and written whole
 * by save, which expects the version it was read at. When another request wrote meanwhile (a refresh of the
 * other token kind, a test that found a token dead), the write is merged with what is stored (mergeWrite)
 * and tried again, so a write never puts back a token older than the one stored. Timeline entries are only
 * ever appended: the entries a record was read with are known by identity (PERSISTED), and only those an
 * action put first are written.
 */

/**
 * A bound that only a bug reaches: each round of a conflict lets one writer through, so a write is retried at
 * most once per other writer (30 presses across two instances took about as many rounds on PostgreSQL).
 */
const MAX_SAVE_ATTEMPTS = 100;

/**
 * The process's store, once the refreshes that a process which stopped mid-refresh left unsettled have been
 * replayed (rotation/replay.ts, at the first use of the store in this process): a call must not use an
 * access token the platform already replaced while the pair that replaced it is still to be stored.
 */
export async function storeOf(): Promise<Store> {
  const store = await getStore();
  await processSingleton("refreshReplayAtStart", () => replayAtStart(store, getRotationRuntime()));
  // Installations an earlier version sealed in this request's cookies move into the store first.
  await importLegacyCookies(store);
  return store;
}

function assertInstallationId(id: string): void {
  if (!INSTALLATION_ID.test(id)) throw new AppError("unknown_installation");
}

/** The newest entries of an installation's timeline (newest first), and whether older ones exist. */
export async function readTimeline(store: Store, id: string, limit = MAX_TIMELINE_ENTRIES): Promise<{ entries: TimelineEntry[]; more: boolean }> {
  const page = await store.pageTimeline(id, { limit });
  const entries = page.entries.flatMap(({ entry }) => {
    const parsed = timelineEntrySchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
  return { entries, more: page.nextBefore !== undefined };
}

/** Every installation in the store, oldest installation first, without their timelines (two queries in all). */
export async function listInstallations(): Promise<InstallationRecord[]> {
  return (await (await storeOf()).listInstallations()).map((stored) => fromStoreInstallation(stored));
}

/**
 * The installation (without its timeline: the hot path), or undefined; an id of another shape names none.
 * It acts with the user token of this request's person (user-tokens.ts).
 */
export async function findInstallation(id: string, options: { fresh?: boolean } = {}): Promise<InstallationRecord | undefined> {
  if (!INSTALLATION_ID.test(id)) return undefined;
  const stored = await (await storeOf()).getInstallation(id, options);
  if (!stored) return undefined;
  // Nobody signed in on an open route (an install from outside the team), or no request at all (the background
  // refresher): the installation's own user token.
  const viewer = await signedInViewer().catch(() => null);
  return fromStoreInstallation(stored, [], false, viewer ? { viewer } : undefined);
}

/**
 * The installation, or 404 unknown_installation: a malformed id, an unknown one and another team's alike
 * (lib/access: a person sees only their workspace's installations, so no answer tells them another exists).
 */
export async function requireInstallation(id: string, options: { fresh?: boolean } = {}): Promise<InstallationRecord> {
  assertInstallationId(id);
  return requireVisible(await findInstallation(id, options));
}

/** The summaries (no secret) of the installations this request's person may see, uninstalled ones too. */
export async function listVisibleSummaries(): Promise<InstallationSummary[]> {
  const viewer = await currentViewer();
  return (await (await storeOf()).listInstallationSummaries()).filter((summary) => canSee(viewer, summary));
}

/** listInstallations, only those this request's person may see, each acting with their user token. */
export async function listVisibleInstallations(): Promise<InstallationRecord[]> {
  const viewer = await currentViewer();
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
 * One page of the installations this request's person sees, searched and filtered on the server from the
 * store's summaries (no secret unsealed), then only the page's installations read whole (from the store's
 * cache) with their newest timeline entries (one query); `now` is the platform's time, which says what is
 * expiring. Without a query: every installation this person sees, as one page.
 */
export async function pageVisibleInstallations(query: ListQuery | undefined, now: number): Promise<{ installations: InstallationRecord[]; page: ListPage }> {
  const viewer = await currentViewer();
  const store = await storeOf();
  const summaries = (await store.listInstallationSummaries()).filter((summary) => canSee(viewer, summary));
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
    await Promise.all(matched.slice(offset, offset + limit).map((facts) => readOrUnreadable(store.getInstallation(facts.id), summaryOf.get(facts.id)!)))
  ).filter((stored): stored is StoredInstallation => stored !== null);
  const timelines = await store.newestTimelines(
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

/** The record with its newest timeline entries read from the store (for a view), entries not yet saved first. */
export async function withTimeline(record: InstallationRecord): Promise<InstallationRecord> {
  const { entries, more } = await readTimeline(await storeOf(), record.id);
  const pending = (record.timeline ?? []).filter((e) => !isPersisted(e));
  return {
    ...record,
    timeline: [...pending, ...entries].slice(0, MAX_TIMELINE_ENTRIES),
    timelineMore: more || pending.length + entries.length > MAX_TIMELINE_ENTRIES,
  };
}

function sameToken(a: StoredToken, b: StoredToken): boolean {
  return a.value === b.value;
}

/**
 * What to write when another request wrote the installation since `mine` was read. Each token kind keeps
 * the later-issued token (the same token keeps this write's flags, a revocation from either side kept); a
 * token this write dropped stays dropped only when this write ended the authorization (an uninstall), and
 * one the other dropped (its uninstall) stays dropped unless this write's is newer. The state and problem
 * come from whichever record changed later.
 */
export function mergeWrite(mine: InstallationRecord, stored: InstallationRecord): InstallationRecord {
  const merged: InstallationRecord = mine.updatedAt >= stored.updatedAt ? { ...mine } : { ...mine, state: stored.state, updatedAt: stored.updatedAt };
  if (mine.updatedAt < stored.updatedAt) {
    if (stored.problem) merged.problem = stored.problem;
    else delete merged.problem;
    if (stored.uninstalledAt) merged.uninstalledAt = stored.uninstalledAt;
    else delete merged.uninstalledAt;
  }
  for (const kind of TOKEN_KINDS) {
    const a = mine[kind];
    const b = stored[kind];
    let token: StoredToken | undefined;
    if (a && b) {
      token = sameToken(a, b) ? { ...a, ...(a.revoked || b.revoked ? { revoked: true } : {}) } : derivedIssuedAt(a, mine) >= derivedIssuedAt(b, stored) ? a : b;
    } else if (b) {
      token = mine.uninstalledAt ? undefined : b;
    } else if (a) {
      token = stored.uninstalledAt && derivedIssuedAt(a, mine) <= stored.uninstalledAt ? undefined : a;
    }
    if (token) merged[kind] = token;
    else delete merged[kind];
  }
  // An authorization another write ended stays ended, whichever wrote last, unless this write brings a newer one
  // (a grant: a token issued after it ended). A refresh of one person's token racing the bot token's refusal is not one.
  const newerGrant = [mine.bot, mine.user].some((t) => t && derivedIssuedAt(t, mine) > stored.updatedAt);
  if (stored.state === "needs_reinstall" && merged.state === "active" && !newerGrant) {
    merged.state = "needs_reinstall";
    if (stored.problem) merged.problem = stored.problem;
    if (stored.uninstalledAt) merged.uninstalledAt = stored.uninstalledAt;
  }
  if (!mine.incomingWebhook && stored.incomingWebhook && !mine.uninstalledAt) merged.incomingWebhook = stored.incomingWebhook;
  // Which emulator issued the tokens, and the bot's id, are the stored record's (a reinstall or a first read
  // set them since this write read it), unless this write is that newer grant.
  if (!newerGrant) {
    if (stored.upstreamInstanceId) merged.upstreamInstanceId = stored.upstreamInstanceId;
    if (stored.botId) merged.botId = stored.botId;
  }
  // A write changes the bot token and its holder's user token (merged above, and put in its place by the save):
  // the other people's are the store's, unless this write ended the authorization (their tokens died with it).
  merged.userTokens = mine.uninstalledAt ? {} : { ...stored.userTokens };
  return merged;
}

/** Whether two records say the same of the installation, their timelines aside. */
function sameRecord(a: InstallationRecord, b: InstallationRecord): boolean {
  return JSON.stringify(toStoreInstallation(a)) === JSON.stringify(toStoreInstallation(b));
}

/** A short random pause before the next attempt, longer with each: writers that collided do not collide again in step. */
const pauseBefore = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(5 * attempt, 50)));

/**
 * Writes the installation (record, tokens, webhook) and appends the timeline entries it has not saved yet,
 * in one transaction; answers it as stored (its new version). A record the store answered unchanged writes
 * nothing. A change that only adds timeline entries to the record as it was read (`readAs`: a Test press, a
 * call's entry) appends them alone, without the record's version: concurrent presses never conflict. Written
 * over a newer version, it is merged with it first (mergeWrite) and tried again: each round some writer wins,
 * so the attempts are bounded by the writers, never answered as a 500 for losing a race.
 */
export async function saveInstallation(record: InstallationRecord, options: { readAs?: InstallationRecord } = {}): Promise<InstallationRecord> {
  assertInstallationId(record.id);
  if (isPristine(record)) return record;
  const store = await storeOf();
  const entries = unsavedEntries(record);
  await nameWhoDidIt(entries);
  if (options.readAs && options.readAs.id === record.id && sameRecord(record, options.readAs)) {
    if (entries.length === 0) return record;
    try {
      await store.appendTimeline(record.id, toStoreEntries(entries));
    } catch (error) {
      // Forgotten while this request ran: its timeline went with it.
      if (!(await store.getInstallation(record.id, { fresh: true }))) return record;
      throw error;
    }
    markPersisted(entries);
    return record;
  }
  let writing = record;
  for (let attempt = 1; ; attempt++) {
    try {
      const stored = await store.putInstallation(toStoreInstallation(writing), {
        expectVersion: writing.version ?? 0,
        timeline: toStoreEntries(entries),
      });
      markPersisted(entries);
      return fromStoreInstallation(stored, record.timeline ?? [], record.timelineMore ?? false, { holder: holderOf(writing) });
    } catch (error) {
      if (!(error instanceof VersionConflictError) || attempt >= MAX_SAVE_ATTEMPTS) throw error;
      await pauseBefore(attempt);
      let current: StoredInstallation | null;
      try {
        current = await store.getInstallation(record.id, { fresh: true });
      } catch (unreadable) {
        // Stored with secrets this server cannot open (unreadable.ts): nothing to merge with, this write replaces it whole.
        if (!(unreadable instanceof UnreadableSecretError && unreadable.installation)) throw unreadable;
        writing = { ...writing, version: unreadable.installation.version };
        continue;
      }
      // Forgotten while this request ran: nothing brings it back but a new install.
      if (!current) return record;
      writing = { ...mergeWrite(writing, fromStoreInstallation(current, [], false, { holder: holderOf(writing) })), version: current.version };
    }
  }
}

/** Puts this request's person on each entry that does not name who did it yet (in place: the entries stay the record's own). */
export async function nameWhoDidIt(entries: readonly TimelineEntry[]): Promise<void> {
  if (entries.every((entry) => entry.who?.name)) return;
  const person = await actingPerson();
  if (!person) return;
  for (const entry of entries) {
    // An install names its authed user by id: the person signed in who did it adds their name.
    if (entry.who?.id === person.id && !entry.who.name && person.name) entry.who = person;
    entry.who ??= person;
  }
}

/** Forgets the installation for everyone (its tokens, timeline and refresh intents with it); nothing changes upstream. */
export async function removeInstallation(id: string): Promise<void> {
  assertInstallationId(id);
  await (await storeOf()).deleteInstallation(id);
}

export { fromStoreInstallation, markPersisted, markPristine, toStoreEntries, unsavedEntries } from "./store-mapping";
