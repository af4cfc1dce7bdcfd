import "server-only";
import type { Viewer } from "@/lib/viewer";
import { callMethod, maskToken, type PlatformCallResult } from "@/lib/platform";
import { answerError, judgeDeadToken, siblingIsDead, withVerdict } from "../dead-token";
import { requireToken, toInstallationView, type InstallationRecord } from "../record";
import { saveInstallation, withTimeline } from "../repository";
import { needsReinstallError } from "../rotation/refresh-errors";
import { getRotationRuntime, type RotationRuntime } from "../rotation/runtime";
import { prependEntry, timelineCause, type TimelineEntry } from "../universal/timeline";
import { TOKEN_KINDS, type TokenKind } from "../universal/token-kind";
import { takeTransition } from "../transitions";
import type { InstallationView } from "../universal/view";
import { requireInstallation, requireTokenManager } from "../visibility";
import { personOf } from "../who-did-it";

/**
 * What a successful auth.revoke took: only that token when its app has rotation (spec 3, row 6), the whole
 * authorization when it has not (row 7). A rotating token says so by itself, or a rotating sibling; for a
 * long-lived token of an app the console cannot tell, its sibling answers auth.test: still working, only
 * the revoked token died. With no token left that works, only a reinstall helps either way.
 */
async function revokedScope(installation: InstallationRecord, kind: TokenKind, runtime: RotationRuntime): Promise<"token" | "installation"> {
  const token = installation[kind];
  if (token?.refreshToken) return "token";
  const others = TOKEN_KINDS.filter((k) => k !== kind).map((k) => installation[k]);
  const sibling = others.find((t) => t && !t.revoked);
  if (!sibling && !others.some((t) => t?.refreshToken)) return "installation";
  if (!sibling) return "token";
  if (sibling.refreshToken) return "token";
  return (await siblingIsDead(sibling, runtime)) ? "installation" : "token";
}

/**
 * auth.revoke on one access token. With rotation only that token dies (a rotating one's refresh gets a new
 * one); without, a long-lived token takes the whole authorization with it, so the installation then needs
 * reinstalling (revokedScope). Either way, and when the platform refuses, the timeline says so.
 */
export async function revokeSessionToken({
  viewer,
  installationId,
  kind,
  by = "a revoke request",
}: {
  viewer: Viewer;
  installationId: string;
  kind: TokenKind;
  by?: string;
}): Promise<{ result: PlatformCallResult; installation: InstallationView }> {
  const installation = await requireInstallation(viewer, installationId);
  requireTokenManager(viewer, installation, kind, `revoke its ${kind} token`);
  if (installation.state === "needs_reinstall") throw needsReinstallError(installation);
  const token = requireToken(installation, kind);
  const runtime = getRotationRuntime();
  const result = await callMethod({ baseUrl: runtime.baseUrl, token: token.value, method: "auth.revoke", timeoutMs: runtime.timeoutMs });
  const now = runtime.now();
  const masked = maskToken(token.value);
  const cause = timelineCause(by);
  let updated: InstallationRecord;
  if (result.ok) {
    const scope = await revokedScope(installation, kind, runtime);
    const timeline = prependEntry(installation.timeline, { at: now, type: "revoked", token: kind, masked, scope, by: cause });
    // Row 6 when only the token died (which proves the app has rotation), row 7 when the authorization did.
    // A refusal (the token was already revoked) changes nothing but the timeline.
    const taken =
      scope === "token"
        ? takeTransition(installation, kind, { id: "revoke_with_rotation" }, now, true)
        : takeTransition(installation, kind, { id: "revoke_without_rotation", problem: "token_revoked" }, now);
    updated = { ...(taken.ok ? taken.installation : installation), timeline };
  } else {
    const error = answerError(result);
    const entry: TimelineEntry = { at: now, type: "revoke_failed", token: kind, masked, error, by: cause };
    updated = withVerdict(installation, kind, await judgeDeadToken(installation, kind, error, runtime), error, entry, now);
  }
  const who = personOf(viewer);
  updated = await saveInstallation(updated, who ? { who } : {});
  return { result, installation: toInstallationView(await withTimeline(updated)) };
}
