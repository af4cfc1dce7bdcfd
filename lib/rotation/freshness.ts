import "server-only";
import { AppError, isConsoleError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import { metrics, type RefreshMetricOutcome } from "@/lib/metrics";
import { processSingleton } from "@/lib/process-singleton";
import { callMethod, isPlatformError, maskToken, platformErrorCode, type HttpMethod, type ParamValue, type PlatformCallResult } from "@/lib/platform";
import { RefreshLockTimeoutError } from "@/lib/store";
import { requireToken, type InstallationRecord, type StoredToken } from "@/lib/installations/record";
import { fromStoreInstallation, markPersisted, markPristine, nameWhoDidIt, toStoreEntries, unsavedEntries } from "@/lib/installations/store";
import { prependEntry, timelineCause, timelineErrorCode, type RefreshReason, type TimelineEntry } from "@/lib/installations/universal/timeline";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import { applyTransition, reinstallReason } from "@/lib/installations/universal/lifecycle";
import { lifecycleFactsOf, mustTake, takeTransition, takeVerdict } from "@/lib/installations/transitions";
import { askPlatform, refreshLockKey, replayRefreshIntents, toIssuedStoreToken } from "./replay";
import type { RotationRuntime } from "./runtime";

/** Refresh failures that no retry can fix: the installation has to be installed again. */
const REINSTALL_CODES = new Set(["invalid_refresh_token", "token_revoked", "invalid_grant", "invalid_auth", "account_inactive"]);
/**
 * After a refresh whose answer was lost (a timeout, a dropped connection, a 5xx), the platform may well
 * have spent the refresh token. Within its grace period the same refresh token answers again with the
 * same pair, so the refresh goes on asking, in the background and holding the refresh lock, for this long
 * after its first attempt; its intent in the store lets another process finish it if this one dies.
 */
export const REFRESH_RECOVERY_WINDOW_MS = 40_000;

const RECOVERY_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000];
/** When a request that gave up waiting for another's refresh should try again: a live holder is done by then. */
const REFRESH_IN_PROGRESS_RETRY_S = 5;

/** Whether a failed refresh may have taken effect upstream: no answer, or the platform failing mid-way. */
function isUnknownOutcome(error: unknown): boolean {
  if (isPlatformError(error)) return error.result.status >= 500;
  return isConsoleError(error, "upstream_timeout") || isConsoleError(error, "upstream_unreachable");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Asks again with the same refresh token until an answer comes, the platform refuses it for good, or the
 * recovery window closes. Each attempt may take longer than a console request may wait: nobody is
 * waiting for it but the next request.
 */
async function recoverLostRefresh<T>(attempt: (timeoutMs: number) => Promise<T>, firstTimeoutMs: number, startedAt: number): Promise<T> {
  let lastError: unknown;
  for (const delay of [...RECOVERY_DELAYS_MS, ...Array<number>(8).fill(RECOVERY_DELAYS_MS.at(-1)!)]) {
    await sleep(delay);
    const left = startedAt + REFRESH_RECOVERY_WINDOW_MS - Date.now();
    if (left <= 0) break;
    try {
      return await attempt(Math.min(left, Math.max(3 * firstTimeoutMs, 15_000)));
    } catch (error) {
      if (!isUnknownOutcome(error)) throw error;
      lastError = error;
    }
  }
  throw lastError;
}

function refreshStillUnanswered(timeoutMs: number): AppError {
  return new AppError("upstream_timeout", {
    message: `The platform did not answer the token refresh within ${timeoutMs} ms. The console keeps asking in the background (the platform answers a repeated refresh with the same new tokens for a short while): try again in a few seconds.`,
    headers: { "Retry-After": "5" },
  });
}

/**
 * This request waited for the refresh lock that another request holds (in this process, or on another
 * instance through PostgreSQL) as long as a request may. The platform has not been shown slow: the holder may
 * still be waiting for it, or its process may have died holding the lock (docs/tokens.md, "A refresher that
 * dies" and "Running several instances", says what happens then).
 */
function refreshInProgress(waitedMs: number): AppError {
  return new AppError("refresh_in_progress", {
    message: `Another request is refreshing this token and had not finished after ${waitedMs} ms, so this call stopped waiting. The stored tokens are unchanged: try again in a few seconds.`,
    headers: { "Retry-After": String(REFRESH_IN_PROGRESS_RETRY_S) },
  });
}

/** A rotating token that expires within the window is refreshed before it is used. */
export function needsProactiveRefresh(token: StoredToken, nowMs: number, windowS: number): boolean {
  if (!token.refreshToken || token.expiresAt === undefined) return false;
  return token.expiresAt - nowMs <= windowS * 1000;
}

export type RefreshOutcome =
  { outcome: "refreshed"; installation: InstallationRecord } | { outcome: "needs_reinstall"; installation: InstallationRecord; error: AppError };

export function needsReinstallError(installation: InstallationRecord): AppError {
  return new AppError("needs_reinstall", {
    message: `The installation in ${installation.team.name || installation.team.id} needs to be installed again: ${reinstallReason(installation.problem, Boolean(installation.uninstalledAt))}. Use "Reinstall".`,
  });
}

/** Why and by what a refresh happens, for the installation's timeline. */
export interface RefreshCause {
  reason: RefreshReason;
  /** The request or control that caused it ("GET /api/call/users.list", "Refresh button"). */
  by: string;
}

const REQUESTED: RefreshCause = { reason: "requested", by: "a refresh request" };

/** The code a failed refresh is known by: the platform's, or the console's own (upstream_timeout, …). */
function failureCode(error: unknown): string {
  if (isPlatformError(error)) return timelineErrorCode(error.platformCode);
  if (error instanceof AppError) return timelineErrorCode(error.code);
  return "unknown_error";
}

/**
 * The installation with a refresh that failed for a passing reason in its timeline (nothing else changes).
 * Not while the store is unavailable: the write would fail the same way.
 */
export function withFailedRefresh(installation: InstallationRecord, kind: TokenKind, error: unknown, by: string, nowMs: number): InstallationRecord {
  const refreshToken = installation[kind]?.refreshToken;
  if (!refreshToken || isConsoleError(error, "store_unavailable")) return installation;
  return {
    ...installation,
    timeline: prependEntry(installation.timeline, {
      at: nowMs,
      type: "refresh_failed",
      token: kind,
      masked: maskToken(refreshToken),
      error: failureCode(error),
      reinstall: false,
      by: timelineCause(by),
    }),
  };
}

/**
 * The installation with the expiry of its `kind` token in the timeline, once per token. A revoked token is
 * dead already (its revocation is in the timeline): its expiry is no news and is not written.
 */
export function withNoticedExpiry(
  installation: InstallationRecord,
  kind: TokenKind,
  noticed: "clock" | "platform",
  by: string,
  nowMs: number,
): InstallationRecord {
  const token = installation[kind];
  if (!token || token.revoked) return installation;
  const masked = maskToken(token.value);
  if (installation.timeline?.some((e) => e.type === "expired" && e.token === kind && e.masked === masked)) return installation;
  return {
    ...installation,
    timeline: prependEntry(installation.timeline, { at: nowMs, type: "expired", token: kind, masked, noticed, by: timelineCause(by) }),
  };
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

export async function refreshInstallationToken(
  installation: InstallationRecord,
  kind: TokenKind,
  runtime: RotationRuntime,
  cause: RefreshCause = REQUESTED,
): Promise<RefreshOutcome> {
  const token = installation[kind];
  // The lifecycle model says whether this token can be refreshed (row 4), before its refresh token is spent.
  const allowed = token ? applyTransition(lifecycleFactsOf(installation, token), "refresh", runtime.now()) : undefined;
  if (!token?.refreshToken || !allowed?.ok) {
    if (token?.refreshToken) throw needsReinstallError(installation);
    throw new AppError("not_rotating", { message: `The ${kind} token of this installation is long-lived: exchange it first to get a refresh token.` });
  }
  const held = token.refreshToken;
  // A user token is one person's: its holder names the store's row, the lock and the intent (user-tokens.ts).
  const holder = kind === "user" ? installation.userHolder : undefined;
  const userId = holder || undefined;
  const store = await runtime.store();
  // The request that starts a refresh answers as soon as its first attempt is lost; the refresh goes on.
  let answerNow: (error: unknown) => void = () => {};
  const firstAttemptLost = new Promise<never>((_, reject) => (answerNow = reject));
  const waitMs = runtime.timeoutMs + 1_000;
  const refreshing = store.withRefreshLock(
    refreshLockKey(installation.id, kind, userId),
    async (): Promise<RefreshOutcome> => {
      // A holder that died may have left its refresh unsettled: replayed first, so the fresh read below has its pair.
      await replayRefreshIntents(store, runtime, installation.id, kind, userId);
      const fresh = await store.getInstallation(installation.id, { fresh: true });
      if (!fresh) throw new AppError("unknown_installation");
      const current = fromStoreInstallation(fresh, [], false, { holder: installation.userHolder });
      const pending = unsavedEntries(installation).reverse();
      const stored = current[kind];
      if (stored?.refreshToken !== held) {
        // Another request (or instance) refreshed first: its pair is the one to use.
        counted(kind, "joined");
        if (current.state === "needs_reinstall") return { outcome: "needs_reinstall", installation: current, error: needsReinstallError(current) };
        return { outcome: "refreshed", installation: { ...current, timeline: pending.length > 0 ? pending : [] } };
      }
      const intent = await store.recordRefreshIntent({
        installationId: current.id,
        kind,
        ...(userId ? { userId } : {}),
        refreshToken: held,
        startedAt: Date.now(),
      });
      let issued: StoredToken;
      const startedAt = Date.now();
      try {
        try {
          issued = await askPlatform(current, kind, held, stored.scopes, runtime, runtime.timeoutMs);
        } catch (error) {
          if (!isUnknownOutcome(error)) throw error;
          logger.warn(
            { installation: current.id, kind, err: error instanceof AppError ? error.code : "unknown" },
            "refresh answer lost: asking again with the same refresh token",
          );
          answerNow(refreshStillUnanswered(runtime.timeoutMs));
          issued = await recoverLostRefresh((timeoutMs) => askPlatform(current, kind, held, stored.scopes, runtime, timeoutMs), runtime.timeoutMs, startedAt);
        }
      } catch (error) {
        const code = isPlatformError(error) ? error.platformCode : error instanceof AppError ? error.code : "unknown";
        await store.settleRefresh({ intentId: intent.id, settledAt: Date.now(), failure: timelineErrorCode(code) }).catch(() => {});
        const forGood = isPlatformError(error) && REINSTALL_CODES.has(error.platformCode);
        counted(kind, forGood ? "refused" : "failed");
        if (isPlatformError(error) && forGood) {
          logger.warn({ installation: current.id, kind, error: error.platformCode }, "refresh rejected: installation needs reinstall");
          const now = runtime.now();
          // The platform refused the refresh token for good: the authorization ended (lifecycle.ts, applyVerdict),
          // the installation's; for one person's user token only theirs, which goes (the others' and the bot
          // token live on; that person installs again to get a new one, and nothing asks with it again).
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
        throw error;
      }
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
      // The lifecycle model's refresh (row 4) says what the record becomes; the store writes the token it names.
      const refreshed = mustTake(takeTransition(current, kind, { id: "refresh", issued }, now), "a refresh the platform made");
      const timeline = [entry, ...pending];
      await nameWhoDidIt(timeline);
      const settled = await store.settleRefresh({
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
    },
    { waitMs },
  );
  // Whatever this request stops waiting for still settles: never as an unhandled rejection. A shutdown waits for it.
  for (const settled of [refreshing, firstAttemptLost]) settled.catch(() => {});
  const underWay = refreshesUnderWay();
  underWay.add(refreshing);
  void refreshing.finally(() => underWay.delete(refreshing)).catch(() => {});
  try {
    return await Promise.race([refreshing, firstAttemptLost]);
  } catch (error) {
    if (error instanceof RefreshLockTimeoutError) throw refreshInProgress(waitMs);
    throw error;
  }
}

export interface FreshCallOptions {
  tokenKind: TokenKind;
  method: string;
  params?: Record<string, ParamValue>;
  httpMethod?: HttpMethod;
  /** A POST's arguments as a JSON body, instead of params (see callMethod). */
  json?: Record<string, unknown>;
  signal?: AbortSignal;
  /** What made the call, for the timeline of a refresh it causes ("GET /api/call/users.list"); the method's name by default. */
  by?: string;
}

export interface FreshCallResult {
  result: PlatformCallResult;
  installation: InstallationRecord;
  refreshed: boolean;
}

/**
 * Calls a method with an installation's token, keeping it fresh: refreshed first when it expires within
 * the window, and refreshed and retried once when the platform still answers token_expired. Returns the
 * installation as it now is (the same object when nothing changed).
 */
export async function callWithFreshToken(
  installation: InstallationRecord,
  options: FreshCallOptions,
  runtime: RotationRuntime,
  /** Told about every new version of the installation (refreshed tokens, or marked as needing reinstall). */
  onChange: (installation: InstallationRecord) => Promise<void> = async () => {},
): Promise<FreshCallResult> {
  if (installation.state === "needs_reinstall") throw needsReinstallError(installation);
  let current = installation;
  let refreshed = false;
  const kind = options.tokenKind;
  const by = options.by ?? `${options.method} call`;

  const refresh = async (reason: RefreshReason) => {
    const outcome = await refreshInstallationToken(current, kind, runtime, { reason, by });
    current = outcome.installation;
    await onChange(current);
    if (outcome.outcome === "needs_reinstall") throw outcome.error;
    refreshed = true;
  };
  /** A refresh failure that fails this call goes into the timeline (a refusal for good already did). */
  const recordFailure = async (error: unknown): Promise<never> => {
    if (!isConsoleError(error, "needs_reinstall")) {
      const recorded = withFailedRefresh(current, kind, error, by, runtime.now());
      if (recorded !== current) await onChange((current = recorded)).catch(() => {});
    }
    throw error;
  };
  const call = () =>
    callMethod({
      baseUrl: runtime.baseUrl,
      token: requireToken(current, kind).value,
      method: options.method,
      params: options.params ?? {},
      httpMethod: options.httpMethod ?? "POST",
      ...(options.json !== undefined ? { json: options.json } : {}),
      timeoutMs: runtime.timeoutMs,
      ...(runtime.transport ? { transport: runtime.transport } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });

  const token = requireToken(current, kind);
  const now = runtime.now();
  if (needsProactiveRefresh(token, now, runtime.refreshWindowS)) {
    const expired = token.expiresAt !== undefined && token.expiresAt <= now;
    if (expired) current = withNoticedExpiry(current, kind, "clock", by, now);
    try {
      await refresh(expired ? "on_expiry" : "proactive");
    } catch (error) {
      // An early refresh that failed for a passing reason (rate limit, timeout, Redis) must not fail a call
      // whose token still works: use it, and let token_expired trigger the refresh again if it comes to that.
      // A refusal that means reinstalling, or a token already expired, still fails the call.
      const definitive = isConsoleError(error, "needs_reinstall");
      if (definitive || expired) await recordFailure(error);
      logger.warn(
        { installation: current.id, kind, err: error instanceof AppError ? error.code : error instanceof Error ? error.name : "unknown" },
        "early refresh failed: calling with the current token",
      );
    }
  }
  let result = await call();
  if (!refreshed && platformErrorCode(result) === "token_expired" && current[kind]?.refreshToken) {
    current = withNoticedExpiry(current, kind, "platform", by, runtime.now());
    await refresh("on_expiry").catch(recordFailure);
    result = await call();
  }
  return { result, installation: current, refreshed };
}
