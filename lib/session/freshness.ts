import "server-only";
import { AppError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import {
  callMethod,
  isPlatformError,
  platformErrorCode,
  refreshAccessToken,
  type HttpMethod,
  type ParamValue,
  type PlatformCallResult,
} from "@/lib/platform";
import { storedTokenFrom, type Installation, type StoredToken, type TokenKind } from "./installation";
import { REFRESH_RECOVERY_WINDOW_MS, refreshTokenKey } from "./refresh-coordinator";
import type { SessionRuntime } from "./runtime";

/** Refresh failures that no retry can fix: the installation has to be installed again. */
const REINSTALL_CODES = new Set(["invalid_refresh_token", "token_revoked", "invalid_grant", "invalid_auth", "account_inactive"]);
/** How many kept refresh results to follow (R1 → R2 → R3) before settling. */
const MAX_CHAIN = 10;

const RECOVERY_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000];

/** Whether a failed refresh may have taken effect upstream: no answer, or the platform failing mid-way. */
function isUnknownOutcome(error: unknown): boolean {
  if (isPlatformError(error)) return error.result.status >= 500;
  return error instanceof AppError && (error.code === "upstream_timeout" || error.code === "upstream_unreachable");
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
  return new AppError(
    "upstream_timeout",
    504,
    `The platform did not answer the token refresh within ${timeoutMs} ms. The console keeps asking in the background (the platform answers a repeated refresh with the same new tokens for a short while): try again in a few seconds.`,
    { "Retry-After": "5" },
  );
}

/** A rotating token that expires within the window is refreshed before it is used. */
export function needsProactiveRefresh(token: StoredToken, nowMs: number, windowS: number): boolean {
  if (!token.refreshToken || token.expiresAt === undefined) return false;
  return token.expiresAt - nowMs <= windowS * 1000;
}

export type RefreshOutcome =
  | { outcome: "refreshed"; installation: Installation }
  | { outcome: "needs_reinstall"; installation: Installation; error: AppError };

export function needsReinstallError(installation: Installation): AppError {
  return new AppError(
    "needs_reinstall",
    409,
    `The installation in ${installation.team.name || installation.team.id} needs to be installed again: the platform rejected its refresh token${installation.problem ? ` (${installation.problem})` : ""}. Use "Add to workspace".`,
  );
}

/**
 * Refreshes one token through the coordinator: concurrent callers with the same refresh token share one
 * upstream refresh, and a late caller gets the kept result (following newer refreshes of that result).
 */
export async function refreshInstallationToken(installation: Installation, kind: TokenKind, runtime: SessionRuntime): Promise<RefreshOutcome> {
  const token = installation[kind];
  if (!token?.refreshToken) {
    throw new AppError("not_rotating", 400, `The ${kind} token of this installation is long-lived: exchange it first to get a refresh token.`);
  }
  const refreshToken = token.refreshToken;
  const attempt = async (timeoutMs: number): Promise<StoredToken> => {
    const { grant } = await refreshAccessToken({ baseUrl: runtime.baseUrl, credentials: runtime.credentialsFor(installation.appKey), refreshToken, timeoutMs });
    const issued = grant[kind] ?? grant.bot ?? grant.user;
    if (!issued) throw new AppError("upstream_bad_answer", 502, "The platform's refresh answer carried no access token.");
    logger.info({ installation: installation.id, kind }, "token refreshed");
    return storedTokenFrom({ ...issued, scopes: issued.scopes.length > 0 ? issued.scopes : token.scopes }, runtime.now());
  };
  // The request that starts a refresh answers as soon as its first attempt is lost; the refresh goes on.
  let answerNow: (error: unknown) => void = () => {};
  const firstAttemptLost = new Promise<never>((_, reject) => (answerNow = reject));
  const refreshing = runtime.coordinator.run(refreshTokenKey(refreshToken), async () => {
    const startedAt = Date.now();
    try {
      return await attempt(runtime.timeoutMs);
    } catch (error) {
      if (!isUnknownOutcome(error)) throw error;
      logger.warn({ installation: installation.id, kind, err: error instanceof AppError ? error.code : "unknown" }, "refresh answer lost: asking again with the same refresh token");
      answerNow(refreshStillUnanswered(runtime.timeoutMs));
      return recoverLostRefresh(attempt, runtime.timeoutMs, startedAt);
    }
  });
  // Requests that joined a refresh under recovery wait no longer than a request may.
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const waitedTooLong = new Promise<never>((_, reject) => (deadline = setTimeout(() => reject(refreshStillUnanswered(runtime.timeoutMs)), runtime.timeoutMs + 1_000)));
  // Whatever this request stops waiting for still settles: never as an unhandled rejection.
  for (const settled of [refreshing, firstAttemptLost, waitedTooLong]) settled.catch(() => {});
  let fresh: StoredToken;
  try {
    fresh = await Promise.race([refreshing, firstAttemptLost, waitedTooLong]);
  } catch (error) {
    if (isPlatformError(error) && REINSTALL_CODES.has(error.platformCode)) {
      logger.warn({ installation: installation.id, kind, error: error.platformCode }, "refresh rejected: installation needs reinstall");
      const marked: Installation = { ...installation, state: "needs_reinstall", problem: error.platformCode, updatedAt: runtime.now() };
      return { outcome: "needs_reinstall", installation: marked, error: needsReinstallError(marked) };
    }
    throw error;
  } finally {
    clearTimeout(deadline);
  }
  fresh = await followKeptRefreshes(fresh, runtime, installation.id, kind);
  return { outcome: "refreshed", installation: { ...installation, [kind]: fresh, updatedAt: runtime.now() } };
}

/** The newest pair the coordinator knows replaced this token (R1 → R2 → R3), or the token itself. */
async function followKeptRefreshes(token: StoredToken, runtime: SessionRuntime, installationId: string, kind: TokenKind): Promise<StoredToken> {
  let latest = token;
  for (let hop = 0; hop < MAX_CHAIN && latest.refreshToken; hop++) {
    let newer: StoredToken | undefined;
    try {
      newer = await runtime.coordinator.lookup<StoredToken>(refreshTokenKey(latest.refreshToken));
    } catch (error) {
      // A refresh in hand already spent the old refresh token: losing it to a failed lookup would leave
      // the cookie with a dead refresh token. Settle for what is in hand.
      logger.warn({ installation: installationId, kind, err: error instanceof Error ? error.message : String(error) }, "kept refresh lookup failed: keeping the pair in hand");
      break;
    }
    if (!newer) break;
    latest = newer;
  }
  return latest;
}

/**
 * Each installation is one cookie, written whole as this request read it. Another request may have
 * refreshed the other token kind meanwhile; writing back the spent refresh token it replaced would lose
 * that refresh once the kept result is gone. So before any write, every token kind is brought up to the
 * newest pair the coordinator knows.
 */
export async function reconcileWithKeptRefreshes(installation: Installation, runtime: SessionRuntime): Promise<Installation> {
  let reconciled = installation;
  for (const kind of ["bot", "user"] as const) {
    const token = reconciled[kind];
    if (!token?.refreshToken) continue;
    const latest = await followKeptRefreshes(token, runtime, installation.id, kind);
    if (latest !== token) reconciled = { ...reconciled, [kind]: latest };
  }
  return reconciled;
}

export interface FreshCallOptions {
  tokenKind: TokenKind;
  method: string;
  params?: Record<string, ParamValue>;
  httpMethod?: HttpMethod;
  /** A POST's arguments as a JSON body, instead of params (see callMethod). */
  json?: Record<string, unknown>;
  signal?: AbortSignal;
}

export interface FreshCallResult {
  result: PlatformCallResult;
  installation: Installation;
  refreshed: boolean;
}

function requireToken(installation: Installation, kind: TokenKind): StoredToken {
  const token = installation[kind];
  if (!token) throw new AppError("no_token", 400, `This installation has no ${kind} token.`);
  return token;
}

/**
 * Calls a method with an installation's token, keeping it fresh: refreshed first when it expires within
 * the window, and refreshed and retried once when the platform still answers token_expired. Returns the
 * installation as it now is (the same object when nothing changed).
 */
export async function callWithFreshToken(
  installation: Installation,
  options: FreshCallOptions,
  runtime: SessionRuntime,
  /** Told about every new version of the installation (refreshed tokens, or marked as needing reinstall). */
  onChange: (installation: Installation) => Promise<void> = async () => {},
): Promise<FreshCallResult> {
  if (installation.state === "needs_reinstall") throw needsReinstallError(installation);
  let current = installation;
  let refreshed = false;

  const refresh = async () => {
    const outcome = await refreshInstallationToken(current, options.tokenKind, runtime);
    current = outcome.installation;
    await onChange(current);
    if (outcome.outcome === "needs_reinstall") throw outcome.error;
    refreshed = true;
  };
  const call = () =>
    callMethod({
      baseUrl: runtime.baseUrl,
      token: requireToken(current, options.tokenKind).value,
      method: options.method,
      params: options.params ?? {},
      httpMethod: options.httpMethod ?? "POST",
      ...(options.json !== undefined ? { json: options.json } : {}),
      timeoutMs: runtime.timeoutMs,
      ...(runtime.transport ? { transport: runtime.transport } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });

  const token = requireToken(current, options.tokenKind);
  if (needsProactiveRefresh(token, runtime.now(), runtime.refreshWindowS)) {
    try {
      await refresh();
    } catch (error) {
      // An early refresh that failed for a passing reason (rate limit, timeout, Redis) must not fail a call
      // whose token still works: use it, and let token_expired trigger the refresh again if it comes to that.
      // A refusal that means reinstalling, or a token already expired, still fails the call.
      const definitive = error instanceof AppError && error.code === "needs_reinstall";
      if (definitive || token.expiresAt === undefined || token.expiresAt <= runtime.now()) throw error;
      logger.warn(
        { installation: current.id, kind: options.tokenKind, err: error instanceof AppError ? error.code : error instanceof Error ? error.name : "unknown" },
        "early refresh failed: calling with the current token",
      );
    }
  }
  let result = await call();
  if (!refreshed && platformErrorCode(result) === "token_expired" && current[options.tokenKind]?.refreshToken) {
    await refresh();
    result = await call();
  }
  return { result, installation: current, refreshed };
}
