import "server-only";
import { maskToken, type PlatformCallResult } from "@/lib/platform";
import { callWithFreshToken, type FreshCallOptions } from "@/lib/rotation/freshness";
import { getRotationRuntime } from "@/lib/rotation/runtime";
import { answerError, judgeDeadToken, withVerdict } from "./dead-token";
import { persistIfChanged } from "./save";
import { requireInstallation } from "./store";
import { timelineCause, type TimelineEntry } from "./universal/timeline";

/** A call with fresh tokens (callWithFreshToken's options), made as one of the installations this person sees. */
export type CallAsInstallationOptions = FreshCallOptions & { installationId: string };

/**
 * A Web API call with one of this session's tokens, kept fresh (see callWithFreshToken). An answer that
 * proves the token dead (token_revoked, invalid_auth, account_inactive, …) updates the installation at
 * once: that token revoked, or the installation needing reinstall, in its timeline too.
 */
export async function callAsInstallation(options: CallAsInstallationOptions): Promise<PlatformCallResult & { refreshed: boolean }> {
  const installation = await requireInstallation(options.installationId);
  const persist = persistIfChanged(installation);
  const runtime = getRotationRuntime();
  const { result, refreshed, installation: current } = await callWithFreshToken(installation, options, runtime, persist);
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
