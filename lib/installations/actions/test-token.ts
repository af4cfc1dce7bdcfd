import "server-only";
import { maskToken, type PlatformCallResult } from "@/lib/platform";
import type { Viewer } from "@/lib/viewer";
import { callWithFreshToken } from "../rotation/freshness";
import { getRotationRuntime } from "../rotation/runtime";
import { answerError, judgeDeadToken, withVerdict } from "../dead-token";
import { requireToken, toInstallationView } from "../record";
import { persistIfChanged, withTimeline } from "../repository";
import { requireInstallation } from "../visibility";
import { personOf } from "../who-did-it";
import { timelineCause, type TimelineEntry } from "../universal/timeline";
import type { TokenKind } from "../universal/token-kind";
import type { InstallationView, TokenIdentity } from "../universal/view";

/** auth.test's answer as the console's own shape; null for a failed one. */
function identityOf(result: PlatformCallResult): TokenIdentity | null {
  if (!result.ok || typeof result.body !== "object" || result.body === null) return null;
  const body = result.body as Record<string, unknown>;
  const text = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : null);
  return { team: text("team"), teamId: text("team_id"), user: text("user"), userId: text("user_id"), url: text("url") };
}

/**
 * POST /api/tokens/test: auth.test with one token (kept fresh), its answer in the timeline; an answer that
 * proves the token dead updates the installation at once.
 */
export async function testSessionToken({
  viewer,
  installationId,
  kind,
  by = "a test request",
}: {
  viewer: Viewer;
  installationId: string;
  kind: TokenKind;
  by?: string;
}): Promise<{ result: PlatformCallResult; refreshed: boolean; identity: TokenIdentity | null; installation: InstallationView }> {
  const installation = await requireInstallation(viewer, installationId);
  const who = personOf(viewer);
  const persist = persistIfChanged(installation, who);
  const runtime = getRotationRuntime();
  const call = { tokenKind: kind, method: "auth.test", by, ...(who ? { who } : {}) };
  const { result, refreshed, installation: current } = await callWithFreshToken(installation, call, runtime, persist);
  const token = requireToken(current, kind);
  const now = runtime.now();
  const error = result.ok ? undefined : answerError(result);
  const verdict = error ? await judgeDeadToken(current, kind, error, runtime) : null;
  const entry: TimelineEntry = {
    at: now,
    type: "tested",
    token: kind,
    masked: maskToken(token.value),
    ok: result.ok,
    ...(error ? { error } : {}),
    ...(verdict ? { verdict } : {}),
    by: timelineCause(by),
  };
  const updated = withVerdict(current, kind, verdict, error ?? "", entry, now);
  await persist(updated);
  return { result, refreshed, identity: identityOf(result), installation: toInstallationView(await withTimeline(updated)) };
}
