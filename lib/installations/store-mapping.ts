import "server-only";
import type { StoredInstallation, StoreInstallation, StoreTimelineEntry, StoreToken } from "@/lib/store";
import type { InstallationRecord, StoredToken } from "./record";
import type { TimelineEntry } from "./universal/timeline";
import { PLATFORM_TOKEN_LIFETIME_MS } from "./universal/token-lifetime";
import { actingAs, allUserTokens, holderFor, installationHolder, NOBODY, type UserTokenChoice } from "./user-tokens";

/**
 * How a record maps to the store's shape and back (store.ts reads and writes through it; legacy-cookies.ts
 * imports earlier versions' cookies with it), and which of a record's timeline entries the store already
 * holds: known by identity, so a save appends only the entries an action put first.
 */

/** Entries that came from the store or went to it: a save appends only the others. */
const PERSISTED = new WeakSet<TimelineEntry>();
export const isPersisted = (entry: TimelineEntry) => PERSISTED.has(entry);
/** Records exactly as the store answered them (not a changed copy): saving one writes nothing. */
const PRISTINE = new WeakSet<InstallationRecord>();
export const isPristine = (record: InstallationRecord) => PRISTINE.has(record);

/**
 * When a token without issuedAt (made before the store) was issued: a rotating token lives 12 hours, so
 * its expiry less 12 hours; a long-lived one, the record's last update (no later than it was issued, at
 * worst earlier: it then loses to any token that says when it was issued).
 */
const ROTATING_TOKEN_LIFETIME_MS = PLATFORM_TOKEN_LIFETIME_MS;

export function derivedIssuedAt(token: StoredToken, record: Pick<InstallationRecord, "updatedAt">): number {
  if (token.issuedAt !== undefined) return token.issuedAt;
  if (token.refreshToken && token.expiresAt !== undefined) return token.expiresAt - ROTATING_TOKEN_LIFETIME_MS;
  return record.updatedAt;
}

function toStoreToken(token: StoredToken, record: InstallationRecord): StoreToken {
  return {
    value: token.value,
    ...(token.refreshToken ? { refreshToken: token.refreshToken } : {}),
    ...(token.expiresAt !== undefined ? { expiresAt: token.expiresAt } : {}),
    scopes: token.scopes,
    ...(token.revoked ? { revoked: true } : {}),
    issuedAt: derivedIssuedAt(token, record),
  };
}

function fromStoreToken(token: StoreToken): StoredToken {
  return {
    value: token.value,
    ...(token.refreshToken ? { refreshToken: token.refreshToken } : {}),
    ...(token.expiresAt !== undefined ? { expiresAt: token.expiresAt } : {}),
    scopes: token.scopes,
    ...(token.revoked ? { revoked: true } : {}),
    issuedAt: token.issuedAt,
  };
}

/** The store's shape of a record (its timeline and version aside): every user token in its holder's place. */
export function toStoreInstallation(record: InstallationRecord): StoreInstallation {
  const { [NOBODY]: nobodys, ...people } = allUserTokens(record);
  return {
    id: record.id,
    appKey: record.appKey,
    ...(record.appId ? { appId: record.appId } : {}),
    ...(record.appName ? { appName: record.appName } : {}),
    team: record.team,
    ...(record.enterprise ? { enterprise: record.enterprise } : {}),
    ...(record.isEnterpriseInstall ? { isEnterpriseInstall: true } : {}),
    ...(record.botUserId ? { botUserId: record.botUserId } : {}),
    ...(record.botId ? { botId: record.botId } : {}),
    ...(record.upstreamInstanceId ? { upstreamInstanceId: record.upstreamInstanceId } : {}),
    ...(record.authedUserId ? { authedUserId: record.authedUserId } : {}),
    ...(record.installedBy ? { installedBy: record.installedBy } : {}),
    ...(record.bot ? { bot: toStoreToken(record.bot, record) } : {}),
    ...(nobodys ? { user: toStoreToken(nobodys, record) } : {}),
    ...(Object.keys(people).length > 0
      ? { people: Object.fromEntries(Object.entries(people).map(([userId, token]) => [userId, toStoreToken(token, record)])) }
      : {}),
    ...(record.incomingWebhook ? { incomingWebhook: record.incomingWebhook } : {}),
    state: record.state,
    ...(record.problem ? { problem: record.problem } : {}),
    ...(record.uninstalledAt ? { uninstalledAt: record.uninstalledAt } : {}),
    installedAt: record.installedAt,
    updatedAt: record.updatedAt,
  };
}

/**
 * A record as the store answered it, with the timeline entries read beside it (known as persisted), acting
 * with the user token the choice names (user-tokens.ts): by default the installation's.
 */
export function fromStoreInstallation(
  stored: StoredInstallation,
  timeline: TimelineEntry[] = [],
  timelineMore = false,
  choice?: UserTokenChoice,
): InstallationRecord {
  const appKey = stored.appKey === "legacy" ? "legacy" : "console";
  for (const entry of timeline) PERSISTED.add(entry);
  const record: InstallationRecord = {
    id: stored.id,
    appKey,
    ...(stored.appId ? { appId: stored.appId } : {}),
    ...(stored.appName ? { appName: stored.appName } : {}),
    team: stored.team,
    ...(stored.enterprise ? { enterprise: stored.enterprise } : {}),
    ...(stored.isEnterpriseInstall ? { isEnterpriseInstall: true } : {}),
    ...(stored.botUserId ? { botUserId: stored.botUserId } : {}),
    ...(stored.botId ? { botId: stored.botId } : {}),
    ...(stored.upstreamInstanceId ? { upstreamInstanceId: stored.upstreamInstanceId } : {}),
    ...(stored.authedUserId ? { authedUserId: stored.authedUserId } : {}),
    ...(stored.installedBy ? { installedBy: stored.installedBy } : {}),
    ...(stored.bot ? { bot: fromStoreToken(stored.bot) } : {}),
    ...(stored.incomingWebhook ? { incomingWebhook: stored.incomingWebhook } : {}),
    state: stored.state,
    ...(stored.problem ? { problem: stored.problem } : {}),
    ...(stored.uninstalledAt ? { uninstalledAt: stored.uninstalledAt } : {}),
    timeline,
    timelineMore,
    installedAt: stored.installedAt,
    updatedAt: stored.updatedAt,
    version: stored.version,
  };
  const tokens: Record<string, StoredToken> = Object.fromEntries(
    Object.entries({ ...(stored.user ? { [NOBODY]: stored.user } : {}), ...stored.people }).map(([holder, token]) => [holder, fromStoreToken(token)]),
  );
  const holder = !choice
    ? installationHolder(tokens, stored.authedUserId)
    : "holder" in choice
      ? choice.holder
      : holderFor(choice.viewer, tokens, stored.authedUserId);
  const acting = actingAs(record, tokens, holder);
  PRISTINE.add(acting);
  return acting;
}

/** Marks a record as exactly what the store holds (settleRefresh answered it): saving it writes nothing. */
export function markPristine(record: InstallationRecord): InstallationRecord {
  PRISTINE.add(record);
  return record;
}

/** Marks entries as written (settleRefresh wrote them in its own transaction). */
export function markPersisted(entries: readonly TimelineEntry[]): void {
  for (const entry of entries) PERSISTED.add(entry);
}

/** Timeline entries as the store takes them (it keeps each as given: the schema here checks they hold masked values only). */
export function toStoreEntries(entries: readonly TimelineEntry[]): StoreTimelineEntry[] {
  return entries as unknown as StoreTimelineEntry[];
}

/** The entries of a record that the store does not hold yet, oldest first. */
export function unsavedEntries(record: InstallationRecord): TimelineEntry[] {
  return (record.timeline ?? []).filter((e) => !PERSISTED.has(e)).reverse();
}
