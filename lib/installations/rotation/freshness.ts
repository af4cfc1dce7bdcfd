import "server-only";
import { AppError, isConsoleError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import { callMethod, maskToken, platformErrorCode, type HttpMethod, type ParamValue, type PlatformCallResult } from "@/lib/platform";
import { requireToken, type InstallationRecord, type StoredToken } from "../record";
import { prependEntry, timelineCause, type RefreshReason } from "../universal/timeline";
import type { TokenKind } from "../universal/token-kind";
import type { TimelinePerson } from "../who-did-it";
import { refreshInstallationToken } from "./refresh";
import { failureCode, needsReinstallError } from "./refresh-errors";
import type { RotationRuntime } from "./runtime";

/** A rotating token that expires within the window is refreshed before it is used. */
export function needsProactiveRefresh(token: StoredToken, nowMs: number, windowS: number): boolean {
  if (!token.refreshToken || token.expiresAt === undefined) return false;
  return token.expiresAt - nowMs <= windowS * 1000;
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
  /** The person whose call it is, named on a refresh's timeline entry (who-did-it.ts). */
  who?: TimelinePerson;
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
    const outcome = await refreshInstallationToken(current, kind, runtime, { reason, by, ...(options.who ? { who: options.who } : {}) });
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
