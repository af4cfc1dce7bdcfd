import "server-only";
import { AppError } from "@/lib/http/app-error";
import { getStore, UnreadableSecretError, VersionConflictError, type Store, type StoredInstallation } from "@/lib/store";
import { mergeWrite } from "./merge-write";
import { INSTALLATION_ID, tokenFingerprint, type InstallationRecord } from "./record";
import { fromStoreInstallation, isPersisted, isPristine, markPersisted, toStoreEntries, toStoreInstallation, unsavedEntries } from "./store-mapping";
import { MAX_TIMELINE_ENTRIES, timelineEntrySchema, type TimelineEntry } from "./universal/timeline";
import { holderOf, type UserTokenChoice } from "./user-tokens";
import { nameWhoDidIt, type TimelinePerson } from "./who-did-it";

/**
 * The installations' repository: find, list, save and remove, over the server's store. No access rule (what a
 * viewer may see and do is visibility.ts's) and no rotation (rotation/). Installations live in the server's store (lib/store: PGlite under DATA_DIR, or PostgreSQL), not in the
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

function assertInstallationId(id: string): void {
  if (!INSTALLATION_ID.test(id)) throw new AppError("unknown_installation");
}

/** The newest entries of an installation's timeline (newest first), and whether older ones exist. */
export async function readTimeline(store: Store, id: string, limit = MAX_TIMELINE_ENTRIES): Promise<{ entries: TimelineEntry[]; more: boolean }> {
  const page = await store.installations.pageTimeline(id, { limit });
  const entries = page.entries.flatMap(({ entry }) => {
    const parsed = timelineEntrySchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
  return { entries, more: page.nextBefore !== undefined };
}

/** Every installation in the store, oldest installation first, without their timelines (two queries in all). */
export async function listInstallations(): Promise<InstallationRecord[]> {
  return (await (await getStore()).installations.list()).map((stored) => fromStoreInstallation(stored));
}

/**
 * The installation (without its timeline: the hot path), or undefined; an id of another shape names none.
 * It acts with the user token `holder` chooses (user-tokens.ts: a viewer's rights, or a holder already
 * chosen); without one, the installation's own (an install from outside the team, the console's own work).
 */
export async function findInstallation(id: string, options: { fresh?: boolean; holder?: UserTokenChoice } = {}): Promise<InstallationRecord | undefined> {
  if (!INSTALLATION_ID.test(id)) return undefined;
  const stored = await (await getStore()).installations.get(id, options.fresh ? { fresh: true } : {});
  if (!stored) return undefined;
  return fromStoreInstallation(stored, [], false, options.holder);
}

/** The record with its newest timeline entries read from the store (for a view), entries not yet saved first. */
export async function withTimeline(record: InstallationRecord): Promise<InstallationRecord> {
  const { entries, more } = await readTimeline(await getStore(), record.id);
  const pending = (record.timeline ?? []).filter((e) => !isPersisted(e));
  return {
    ...record,
    timeline: [...pending, ...entries].slice(0, MAX_TIMELINE_ENTRIES),
    timelineMore: more || pending.length + entries.length > MAX_TIMELINE_ENTRIES,
  };
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
export async function saveInstallation(
  record: InstallationRecord,
  options: { readAs?: InstallationRecord; who?: TimelinePerson } = {},
): Promise<InstallationRecord> {
  assertInstallationId(record.id);
  if (isPristine(record)) return record;
  const store = await getStore();
  const entries = unsavedEntries(record);
  nameWhoDidIt(entries, options.who);
  if (options.readAs && options.readAs.id === record.id && sameRecord(record, options.readAs)) {
    if (entries.length === 0) return record;
    try {
      await store.installations.appendTimeline(record.id, toStoreEntries(entries));
    } catch (error) {
      // Forgotten while this request ran: its timeline went with it.
      if (!(await store.installations.get(record.id, { fresh: true }))) return record;
      throw error;
    }
    markPersisted(entries);
    return record;
  }
  let writing = record;
  for (let attempt = 1; ; attempt++) {
    try {
      const stored = await store.installations.put(toStoreInstallation(writing), {
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
        current = await store.installations.get(record.id, { fresh: true });
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

/** Forgets the installation for everyone (its tokens, timeline and refresh intents with it); nothing changes upstream. */
export async function removeInstallation(id: string): Promise<void> {
  assertInstallationId(id);
  await (await getStore()).installations.delete(id);
}

/**
 * Writes the installation only when its tokens, state or timeline differ from what this request last
 * read or wrote, so a call that changed nothing (the hot path) writes nothing. Its timeline entries name
 * `who` did it (who-did-it.ts).
 */
export function persistIfChanged(original: InstallationRecord, who?: TimelinePerson) {
  let last = tokenFingerprint(original);
  // What the store holds as far as this request knows: a change that only adds timeline entries to it is appended alone.
  let base = original;
  return async (updated: InstallationRecord) => {
    const next = tokenFingerprint(updated);
    if (next === last) return;
    last = next;
    base = await saveInstallation(updated, { readAs: base, ...(who ? { who } : {}) });
  };
}
