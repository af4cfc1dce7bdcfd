import "server-only";
import { AppError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import { metrics, type RefreshMetricOutcome } from "@/lib/metrics";
import { processSingleton } from "@/lib/process-singleton";
import { isPlatformError, maskToken, type PlatformError } from "@/lib/platform";
import { RefreshLockTimeoutError, type RefreshIntent, type Store } from "@/lib/store";
import type { InstallationRecord, StoredToken } from "../record";
import { fromStoreInstallation, markPersisted, markPristine, toStoreEntries, unsavedEntries } from "../store-mapping";
import { lifecycleFactsOf, mustTake, takeTransition, takeVerdict } from "../transitions";
import { applyTransition } from "../universal/lifecycle";
import { prependEntry, timelineCause, timelineErrorCode, type RefreshReason, type TimelineEntry } from "../universal/timeline";
import type { TokenKind } from "../universal/token-kind";
import { nameWhoDidIt, type TimelinePerson } from "../who-did-it";
import { asRequestRefresh } from "./load-gate";
import { refreshLockKey } from "./lock";
import { recoverLostRefresh } from "./lost-answer";
import { refreshAtPlatform, toIssuedStoreToken } from "./refresh-call";
import { isUnknownOutcome, needsReinstallError, REINSTALL_CODES, refreshInProgress, refreshStillUnanswered } from "./refresh-errors";
import { replayRefreshIntents } from "./replay";
import type { RotationRuntime } from "./runtime";

/** What a refresh ended in: the installation with its new pair, or with the authorization ended (and the error to answer). */
export type RefreshOutcome =
  { outcome: "refreshed"; installation: InstallationRecord } | { outcome: "needs_reinstall"; installation: InstallationRecord; error: AppError };

/** Why and by what a refresh happens, for the installation's timeline. */
export interface RefreshCause {
  reason: RefreshReason;
  /** The request or control that caused it ("GET /api/call/users.list", "Refresh button"). */
  by: string;
  /** The person whose request it is (who-did-it.ts), named on its timeline entries; none for the console's own work. */
  who?: TimelinePerson;
}

const REQUESTED: RefreshCause = { reason: "requested", by: "a refresh request" };

const counted = (kind: TokenKind, outcome: RefreshMetricOutcome) => metrics().refreshes.inc({ kind, outcome });

/** The refreshes of this process under way, including those whose request stopped waiting (a lost first answer). */
const refreshesUnderWay = () => processSingleton("refreshesUnderWay", () => new Set<Promise<unknown>>());

/** Resolves once every refresh under way now has settled (graceful shutdown), or at `deadline` (epoch ms). */
export async function refreshesSettled(deadline: number): Promise<void> {
  const pending = [...refreshesUnderWay()].map((p) => p.catch(() => undefined));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(pending), new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))))]);
  clearTimeout(timer);
}

/** One refresh of one token, as the steps below share it. */
interface Refresh {
  installation: InstallationRecord;
  kind: TokenKind;
  /** The refresh token this request held when it asked. */
  held: string;
  /** A user token's holder (user-tokens.ts): it names the store's row, the lock and the intent. */
  userId: string | undefined;
  cause: RefreshCause;
  runtime: RotationRuntime;
  store: Store;
  /** Answers the request that started the refresh at once (its first attempt was lost); the refresh goes on. */
  answerNow: (error: unknown) => void;
}

/**
 * Refreshes one token, once across every request and instance: under the store's refresh lock for this
 * installation and token kind, the record is read fresh. If its refresh token is no longer the one this
 * request held, another refresh won and its stored pair is the answer (no platform call). Otherwise the
 * intent is recorded, the platform asked with nothing open in the store, and the answer settled in one
 * transaction (the new pair, the intent settled, the old refresh token spent, the timeline entry). The
 * newest pair is always the store's, so a late request never needs a kept result. A request that waits
 * for the lock longer than a request may answers 503 refresh_in_progress.
 */
export async function refreshInstallationToken(
  installation: InstallationRecord,
  kind: TokenKind,
  runtime: RotationRuntime,
  cause: RefreshCause = REQUESTED,
): Promise<RefreshOutcome> {
  const held = refreshableToken(installation, kind, runtime).refreshToken!;
  const userId = (kind === "user" ? installation.userHolder : undefined) || undefined;
  const store = await runtime.store();
  let answerNow: (error: unknown) => void = () => {};
  const firstAttemptLost = new Promise<never>((_, reject) => (answerNow = reject));
  const refresh: Refresh = { installation, kind, held, userId, cause, runtime, store, answerNow };
  const waitMs = runtime.timeoutMs + 1_000;
  const underLock = () => store.withRefreshLock(refreshLockKey(installation.id, kind, userId), () => refreshUnderLock(refresh), { waitMs });
  // A request waits for this one (the background refresher's do not): the refresher makes room for it (load-gate.ts).
  const refreshing = cause.reason === "scheduled" ? underLock() : asRequestRefresh(underLock);
  keepUntilSettled(refreshing, firstAttemptLost);
  try {
    return await Promise.race([refreshing, firstAttemptLost]);
  } catch (error) {
    if (error instanceof RefreshLockTimeoutError) throw refreshInProgress(waitMs);
    throw error;
  }
}

/** The token to refresh, if the lifecycle model lets it be refreshed (row 4), before its refresh token is spent. */
function refreshableToken(installation: InstallationRecord, kind: TokenKind, runtime: RotationRuntime): StoredToken {
  const token = installation[kind];
  const allowed = token ? applyTransition(lifecycleFactsOf(installation, token), "refresh", runtime.now()) : undefined;
  if (token?.refreshToken && allowed?.ok) return token;
  if (token?.refreshToken) throw needsReinstallError(installation);
  throw new AppError("not_rotating", { message: `The ${kind} token of this installation is long-lived: exchange it first to get a refresh token.` });
}

/** Whatever the request stops waiting for still settles, never as an unhandled rejection; a shutdown waits for it. */
function keepUntilSettled(refreshing: Promise<unknown>, firstAttemptLost: Promise<never>): void {
  for (const settled of [refreshing, firstAttemptLost]) settled.catch(() => {});
  const underWay = refreshesUnderWay();
  underWay.add(refreshing);
  void refreshing.finally(() => underWay.delete(refreshing)).catch(() => {});
}

/** The refresh, holding the lock: a dead holder's refresh replayed, the record read fresh, then joined or made. */
async function refreshUnderLock(refresh: Refresh): Promise<RefreshOutcome> {
  const { installation, kind, held, userId, runtime, store } = refresh;
  // A holder that died may have left its refresh unsettled: replayed, so that the fresh read has its pair. There
  // almost never is one, so the read says whether there is (one statement), and the read is made again only after a replay.
  const read = await store.intents.readForRefresh(installation.id, {
    kind,
    ...(userId ? { userId } : {}),
    startedAfter: Date.now() - runtime.refreshGraceS * 1000,
  });
  const replayed = read.unsettled ? await replayRefreshIntents(store, runtime, installation.id, kind, userId) : 0;
  const fresh = replayed > 0 ? await store.installations.get(installation.id, { fresh: true }) : read.installation;
  if (!fresh) throw new AppError("unknown_installation");
  const current = fromStoreInstallation(fresh, [], false, { holder: installation.userHolder });
  const pending = unsavedEntries(installation).reverse();
  const stored = current[kind];
  if (stored?.refreshToken !== held) return joinedRefresh(current, kind, pending);
  const intent = await store.intents.record({ installationId: current.id, kind, ...(userId ? { userId } : {}), refreshToken: held, startedAt: Date.now() });
  let issued: StoredToken;
  try {
    issued = await askWithRecovery(refresh, current, stored.scopes);
  } catch (error) {
    return failedRefresh(refresh, current, pending, intent, error);
  }
  return grantedRefresh(refresh, current, stored, pending, intent, issued);
}

/** Another request (or instance) refreshed first: its pair is the one to use. */
function joinedRefresh(current: InstallationRecord, kind: TokenKind, pending: TimelineEntry[]): RefreshOutcome {
  counted(kind, "joined");
  if (current.state === "needs_reinstall") return { outcome: "needs_reinstall", installation: current, error: needsReinstallError(current) };
  return { outcome: "refreshed", installation: { ...current, timeline: pending.length > 0 ? pending : [] } };
}

/** The platform asked; an answer lost on the way answers this request now and is asked for again (lost-answer.ts). */
async function askWithRecovery({ kind, held, runtime, answerNow }: Refresh, current: InstallationRecord, scopes: string[]): Promise<StoredToken> {
  const startedAt = Date.now();
  try {
    return await refreshAtPlatform(current, kind, held, scopes, runtime, runtime.timeoutMs);
  } catch (error) {
    if (!isUnknownOutcome(error)) throw error;
    logger.warn(
      { installation: current.id, kind, err: error instanceof AppError ? error.code : "unknown" },
      "refresh answer lost: asking again with the same refresh token",
    );
    answerNow(refreshStillUnanswered(runtime.timeoutMs));
    return recoverLostRefresh((timeoutMs) => refreshAtPlatform(current, kind, held, scopes, runtime, timeoutMs), runtime.timeoutMs, startedAt);
  }
}

/** The intent settled as failed; a refusal for good ends the authorization (refusedForGood), any other failure is thrown. */
async function failedRefresh(
  refresh: Refresh,
  current: InstallationRecord,
  pending: TimelineEntry[],
  intent: RefreshIntent,
  error: unknown,
): Promise<RefreshOutcome> {
  const code = isPlatformError(error) ? error.platformCode : error instanceof AppError ? error.code : "unknown";
  await refresh.store.intents.settle({ intentId: intent.id, settledAt: Date.now(), failure: timelineErrorCode(code) }).catch(() => {});
  const forGood = isPlatformError(error) && REINSTALL_CODES.has(error.platformCode);
  counted(refresh.kind, forGood ? "refused" : "failed");
  if (isPlatformError(error) && forGood) return refusedForGood(refresh, current, pending, error);
  throw error;
}

/**
 * The platform refused the refresh token for good: the authorization ended (lifecycle.ts, applyVerdict), the
 * installation's; for one person's user token only theirs, which goes (the others' and the bot token live on;
 * that person installs again to get a new one, and nothing asks with it again).
 */
function refusedForGood(
  { kind, held, userId, cause, runtime }: Refresh,
  current: InstallationRecord,
  pending: TimelineEntry[],
  error: PlatformError,
): RefreshOutcome {
  logger.warn({ installation: current.id, kind, error: error.platformCode }, "refresh rejected: installation needs reinstall");
  const now = runtime.now();
  const onePersons = Boolean(userId);
  const ended: InstallationRecord = onePersons
    ? { ...current, user: undefined, updatedAt: now }
    : mustTake(takeVerdict(current, kind, "needs_reinstall", error.platformCode, now), "a refresh the platform refused");
  const marked: InstallationRecord = {
    ...ended,
    timeline: prependEntry(pending, {
      at: now,
      type: "refresh_failed",
      token: kind,
      masked: maskToken(held),
      error: timelineErrorCode(error.platformCode),
      reinstall: true,
      by: timelineCause(cause.by),
    }),
  };
  const refused = onePersons
    ? new AppError("needs_reinstall", {
        message: `The platform refused the refresh of your user token (${error.platformCode}): install the app again (Reinstall) to get a new one. The installation's other tokens still work.`,
      })
    : needsReinstallError(marked);
  return { outcome: "needs_reinstall", installation: marked, error: refused };
}

/** The new pair settled in one transaction with its timeline entry (the lifecycle model's refresh, row 4, says what the record becomes). */
async function grantedRefresh(
  { installation, kind, cause, runtime, store }: Refresh,
  current: InstallationRecord,
  stored: StoredToken,
  pending: TimelineEntry[],
  intent: RefreshIntent,
  issued: StoredToken,
): Promise<RefreshOutcome> {
  const now = runtime.now();
  const entry: TimelineEntry = {
    at: now,
    type: "refreshed",
    token: kind,
    from: maskToken(stored.value),
    to: maskToken(issued.value),
    reason: cause.reason,
    by: timelineCause(cause.by),
  };
  const refreshed = mustTake(takeTransition(current, kind, { id: "refresh", issued }, now), "a refresh the platform made");
  const timeline = [entry, ...pending];
  nameWhoDidIt(timeline, cause.who);
  const settled = await store.intents.settle({
    intentId: intent.id,
    settledAt: Date.now(),
    token: toIssuedStoreToken(refreshed[kind]!, now),
    timeline: toStoreEntries([...timeline].reverse()),
  });
  markPersisted(timeline);
  counted(kind, "granted");
  if (!settled.installation) throw new AppError("unknown_installation");
  return {
    outcome: "refreshed",
    installation: markPristine({ ...fromStoreInstallation(settled.installation, [], false, { holder: installation.userHolder }), timeline }),
  };
}
