import "server-only";
import { AppError, isConsoleError } from "@/lib/http/app-error";
import { isPlatformError } from "@/lib/platform";
import type { InstallationRecord } from "../record";
import { reinstallReason } from "../universal/lifecycle";
import { timelineErrorCode } from "../universal/timeline";

/** Refresh failures that no retry can fix: the installation has to be installed again. */
export const REINSTALL_CODES = new Set(["invalid_refresh_token", "token_revoked", "invalid_grant", "invalid_auth", "account_inactive"]);

/** When a request that gave up waiting for another's refresh should try again: a live holder is done by then. */
const REFRESH_IN_PROGRESS_RETRY_S = 5;

/** Whether a failed refresh may have taken effect upstream: no answer, or the platform failing mid-way. */
export function isUnknownOutcome(error: unknown): boolean {
  if (isPlatformError(error)) return error.result.status >= 500;
  return isConsoleError(error, "upstream_timeout") || isConsoleError(error, "upstream_unreachable");
}

/** The code a failed refresh is known by: the platform's, or the console's own (upstream_timeout, …). */
export function failureCode(error: unknown): string {
  if (isPlatformError(error)) return timelineErrorCode(error.platformCode);
  if (error instanceof AppError) return timelineErrorCode(error.code);
  return "unknown_error";
}

export function needsReinstallError(installation: InstallationRecord): AppError {
  return new AppError("needs_reinstall", {
    message: `The installation in ${installation.team.name || installation.team.id} needs to be installed again: ${reinstallReason(installation.problem, Boolean(installation.uninstalledAt))}. Use "Reinstall".`,
  });
}

export function refreshStillUnanswered(timeoutMs: number): AppError {
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
export function refreshInProgress(waitedMs: number): AppError {
  return new AppError("refresh_in_progress", {
    message: `Another request is refreshing this token and had not finished after ${waitedMs} ms, so this call stopped waiting. The stored tokens are unchanged: try again in a few seconds.`,
    headers: { "Retry-After": String(REFRESH_IN_PROGRESS_RETRY_S) },
  });
}
