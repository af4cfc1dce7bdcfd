import "server-only";
import { callMethod, platformErrorCode, type PlatformCallResult } from "@/lib/platform";
import type { RotationRuntime } from "@/lib/installations/rotation/runtime";
import { verdictForError, type DeadTokenVerdict } from "./universal/lifecycle";
import type { InstallationRecord, StoredToken } from "./record";
import { prependEntry, timelineErrorCode, type TimelineEntry } from "./universal/timeline";
import { provesRotation, takeVerdict } from "./transitions";
import { TOKEN_KINDS, type TokenKind } from "./universal/token-kind";

/**
 * The installation once an answer proved one of its tokens dead (lifecycle.ts, verdictForError):
 * that token revoked, or the whole installation needing reinstall, as the lifecycle model takes it
 * (transitions.ts, takeVerdict), with `entry` in its timeline. A token
 * that alone died (its app has rotation) leaves the installation as it is while another of its tokens
 * still works or can be renewed; with none left, only a reinstall gives the console a token again.
 */
export function withVerdict(
  installation: InstallationRecord,
  kind: TokenKind,
  verdict: DeadTokenVerdict | null,
  error: string,
  entry: TimelineEntry,
  nowMs: number,
): InstallationRecord {
  let updated: InstallationRecord = { ...installation, timeline: prependEntry(installation.timeline, entry) };
  if (!verdict) return updated;
  // A refusal (the token was already revoked) changes nothing: the answer confirms what the record says.
  const taken = takeVerdict(updated, kind, verdict, error, nowMs);
  if (taken.ok) updated = taken.installation;
  if (verdict === "token_revoked" && !TOKEN_KINDS.some((k) => isUsable(updated[k]))) {
    const ended = takeVerdict(updated, kind, "needs_reinstall", error, nowMs);
    if (ended.ok) updated = ended.installation;
  }
  return updated;
}

/** A token that works, or that its refresh token can replace. */
function isUsable(token: StoredToken | undefined): boolean {
  return Boolean(token && (!token.revoked || token.refreshToken));
}

/**
 * What a dead answer to the `kind` token proves, and nothing more. A long-lived token's death takes the
 * whole authorization with it only when its app has no rotation (spec 3, row 7, "usually"); when the
 * console cannot tell, the installation's other token says, with auth.test, the spec's way to confirm a
 * token no longer works: still working, only this token died; dead too, the authorization did. An answer
 * that proves nothing (a timeout) kills nothing that was not proven dead.
 */
export async function judgeDeadToken(
  installation: InstallationRecord,
  kind: TokenKind,
  error: string,
  runtime: RotationRuntime,
): Promise<DeadTokenVerdict | null> {
  const token = installation[kind];
  if (!token) return null;
  const rotating = Boolean(token.refreshToken);
  const verdict = verdictForError(error, { rotating }, rotating || provesRotation(installation));
  if (verdict !== "needs_reinstall" || error === "account_inactive") return verdict;
  // Known dead already, and judged then: the answer confirms it and proves nothing of the others.
  if (token.revoked) return "token_revoked";
  const sibling = TOKEN_KINDS.map((k) => installation[k]).find((t) => t && t !== token && !t.revoked);
  if (!sibling) return verdict;
  return (await siblingIsDead(sibling, runtime)) ? "needs_reinstall" : "token_revoked";
}

export async function siblingIsDead(sibling: StoredToken, runtime: RotationRuntime): Promise<boolean> {
  const probe = await callMethod({
    baseUrl: runtime.baseUrl,
    token: sibling.value,
    method: "auth.test",
    timeoutMs: runtime.timeoutMs,
    ...(runtime.transport ? { transport: runtime.transport } : {}),
  }).catch(() => null);
  if (!probe || probe.ok) return false;
  return verdictForError(answerError(probe), { rotating: Boolean(sibling.refreshToken) }) !== null;
}

/** The code of a failed answer: the platform's, or its HTTP status. */
export function answerError(result: PlatformCallResult): string {
  return timelineErrorCode(platformErrorCode(result) ?? `http_${result.status}`);
}
