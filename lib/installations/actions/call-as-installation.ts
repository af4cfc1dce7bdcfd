import "server-only";
import { maskToken, type PlatformCallResult } from "@/lib/platform";
import type { Viewer } from "@/lib/viewer";
import { answerError, judgeDeadToken, withVerdict } from "../dead-token";
import type { InstallationRecord } from "../record";
import { persistIfChanged } from "../repository";
import { callWithFreshToken, type FreshCallOptions } from "../rotation/freshness";
import { getRotationRuntime } from "../rotation/runtime";
import { personOf } from "../who-did-it";
import { timelineCause, type TimelineEntry } from "../universal/timeline";

/**
 * A call with fresh tokens (callWithFreshToken's options), made by `viewer` with `installation` as they may
 * see it (visibility.ts, requireInstallation: read once by the caller, which also checked the call's rights).
 */
export type CallAsInstallationOptions = FreshCallOptions & { viewer: Viewer; installation: InstallationRecord };

/**
 * A Web API call with one of this session's tokens, kept fresh (see callWithFreshToken). An answer that
 * proves the token dead (token_revoked, invalid_auth, account_inactive, …) updates the installation at
 * once: that token revoked, or the installation needing reinstall, in its timeline too.
 */
export async function callAsInstallation(options: CallAsInstallationOptions): Promise<PlatformCallResult & { refreshed: boolean }> {
  const { viewer, installation, ...call } = options;
  const who = personOf(viewer);
  const persist = persistIfChanged(installation, who);
  const runtime = getRotationRuntime();
  const { result, refreshed, installation: current } = await callWithFreshToken(installation, { ...call, ...(who ? { who } : {}) }, runtime, persist);
  const token = current[options.tokenKind];
  if (!result.ok && token) {
    const error = answerError(result);
    const verdict = await judgeDeadToken(current, options.tokenKind, error, runtime);
    if (verdict) {
      const now = runtime.now();
      const entry: TimelineEntry = {
        at: now,
        type: "found_dead",
        token: options.tokenKind,
        masked: maskToken(token.value),
        error,
        verdict,
        by: timelineCause(options.by ?? `${options.method} call`),
      };
      await persist(withVerdict(current, options.tokenKind, verdict, error, entry, now));
    }
  }
  // Not spread: the result's body and text are made when first read, and a copy would read them.
  return Object.assign(result, { refreshed });
}
