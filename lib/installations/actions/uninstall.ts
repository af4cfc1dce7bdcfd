import "server-only";
import type { Viewer } from "@/lib/viewer";
import { maskToken, type PlatformCallResult } from "@/lib/platform";
import { answerError, judgeDeadToken, withVerdict } from "../dead-token";
import { toInstallationView, type InstallationRecord } from "../record";
import { persistIfChanged, saveInstallation, withTimeline } from "../repository";
import { callWithFreshToken } from "../rotation/freshness";
import { getRotationRuntime } from "../rotation/runtime";
import { MAX_UNINSTALLED_TOKENS, prependEntry, timelineCause, type TimelineEntry } from "../universal/timeline";
import type { TokenKind } from "../universal/token-kind";
import { mustTake, takeTransition } from "../transitions";
import { allUserTokens } from "../user-tokens";
import type { InstallationView } from "../universal/view";
import { requireInstallation, requireManager } from "../visibility";
import { personOf } from "../who-did-it";

/** Every token of an installation (each person's user token too), masked: what an uninstall kills. */
function maskedTokensOf(installation: InstallationRecord): string[] {
  const tokens = [installation.bot, ...Object.values(allUserTokens(installation))];
  return tokens
    .flatMap((token) => (token ? [maskToken(token.value), ...(token.refreshToken ? [maskToken(token.refreshToken)] : [])] : []))
    .slice(0, MAX_UNINSTALLED_TOKENS);
}

/**
 * POST /api/installations/{id}/uninstall: apps.uninstall revokes every token. The record stays, without
 * its tokens or webhook, as an uninstalled installation: its timeline says what happened, and Reinstall
 * brings it back (Forget removes it).
 */
export async function uninstallSessionInstallation({
  viewer,
  installationId,
  by = "an uninstall request",
}: {
  viewer: Viewer;
  installationId: string;
  by?: string;
}): Promise<{ result: PlatformCallResult; installation: InstallationView }> {
  const installation = await requireInstallation(viewer, installationId);
  requireManager(viewer, installation, "uninstall it");
  const who = personOf(viewer);
  const kind: TokenKind = installation.bot ? "bot" : "user";
  const runtime = getRotationRuntime();
  const { clientId, clientSecret } = runtime.credentialsFor(installation.appKey);
  const persist = persistIfChanged(installation, who);
  const { result, installation: current } = await callWithFreshToken(
    installation,
    { tokenKind: kind, method: "apps.uninstall", params: { client_id: clientId, client_secret: clientSecret }, by, ...(who ? { who } : {}) },
    runtime,
    persist,
  );
  const now = runtime.now();
  const cause = timelineCause(by);
  if (result.ok) {
    // Row 8: every token and the webhook die; the record stays for its timeline (transitions.ts).
    const uninstalled = mustTake(takeTransition(current, kind, { id: "uninstall" }, now), "an uninstall the platform made");
    const tombstone: InstallationRecord = {
      ...uninstalled,
      timeline: prependEntry(current.timeline, { at: now, type: "uninstalled", tokens: maskedTokensOf(current), by: cause }),
    };
    return { result, installation: toInstallationView(await withTimeline(await saveInstallation(tombstone, who ? { who } : {}))) };
  }
  const error = answerError(result);
  const token = current[kind];
  const entry: TimelineEntry = { at: now, type: "uninstall_failed", error, by: cause };
  const updated = withVerdict(current, kind, token ? await judgeDeadToken(current, kind, error, runtime) : null, error, entry, now);
  await persist(updated);
  return { result, installation: toInstallationView(await withTimeline(updated)) };
}
