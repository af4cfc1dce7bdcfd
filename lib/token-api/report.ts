import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/lib/http/app-error";
import { answerError, judgeDeadToken, withVerdict } from "@/lib/installations/dead-token";
import { saveInstallation } from "@/lib/installations/repository";
import { fromStoreInstallation } from "@/lib/installations/store-mapping";
import { getStore } from "@/lib/store";
import type { TimelineEntry } from "@/lib/installations/universal/timeline";
import { callMethod, maskToken } from "@/lib/platform";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import type { StoreApiKey } from "@/lib/store";
import { actingFor, tokenFor, upToDate, type TokenAnswer } from "./token-for";

/**
 * POST /api/v1/installations/{team_id}/token/report: a backend says the token the API gave it failed, with
 * the platform's error. A backend's word is not enough to kill a token others still hold: the report is
 * honoured only when the token reported is still the one stored and auth.test, asked by the console, refuses
 * it. Then the refusal is a fact, recorded as any other (the timeline's "found dead" entry with the
 * platform's error; the token revoked, or the installation needing reinstall, lifecycle.ts), and the answer
 * is a new token when its refresh token can issue one, else 409 needs_reinstall. Otherwise the answer is the
 * current token, and nothing changes.
 */

export const REPORT_MAX_BYTES = 4096;

const USER_ID = /^[UW][A-Z0-9]{1,31}$/;

export const failureReportSchema = z
  .object({
    kind: z.enum(["bot", "user"]).default("bot"),
    user_id: z.string().regex(USER_ID, "must be a user id (U… or W…)").optional(),
    access_token: z.string().min(1).max(1024),
    error: z.string().regex(/^[a-z0-9_]{1,64}$/, "must be the platform's error code (invalid_auth, token_revoked, …)"),
  })
  .refine((r) => r.kind === "bot" || r.user_id !== undefined, { message: "kind=user needs user_id: whose user token", path: ["user_id"] })
  .refine((r) => r.kind === "user" || r.user_id === undefined, { message: "user_id goes with kind=user", path: ["user_id"] });

export type FailureReport = z.infer<typeof failureReportSchema>;

/**
 * What the console made of the report: `not_current`, the token reported is no longer the one stored (another
 * request replaced it); `still_valid`, auth.test accepts it (the failure was something else); `unconfirmed`,
 * auth.test answered nothing that proves it dead (a timeout); `recorded`, the platform refused it and the
 * console recorded so.
 */
export type ReportOutcome = "not_current" | "still_valid" | "unconfirmed" | "recorded";

const BY = "the token API (a backend's report)";

/** Compares two secrets without telling, by the time it takes, how much of them matched. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

export async function reportFailure(id: string, report: FailureReport, key: StoreApiKey): Promise<TokenAnswer & { report: ReportOutcome }> {
  const current = async (outcome: ReportOutcome) => ({ ...(await tokenFor(id, report.kind, report.user_id, key)), report: outcome });
  const runtime = getRotationRuntime();
  const stored = await (await getStore()).installations.get(id, { fresh: true });
  if (!stored) throw new AppError("unknown_installation");
  const record = actingFor(await upToDate(fromStoreInstallation(stored, [], false, { holder: undefined }), runtime), report.kind, report.user_id);
  const token = record[report.kind];
  if (!token || !sameSecret(token.value, report.access_token)) return current("not_current");
  // Known dead already: the answer is what the record says (a refreshed token, or 409 needs_reinstall).
  if (token.revoked || record.state !== "active") return current("recorded");
  const probe = await callMethod({
    baseUrl: runtime.baseUrl,
    token: token.value,
    method: "auth.test",
    timeoutMs: runtime.timeoutMs,
    ...(runtime.transport ? { transport: runtime.transport } : {}),
  }).catch(() => null);
  if (!probe) return current("unconfirmed");
  if (probe.ok) return current("still_valid");
  const error = answerError(probe);
  const verdict = await judgeDeadToken(record, report.kind, error, runtime);
  if (!verdict) return current("unconfirmed");
  const now = runtime.now();
  const entry: TimelineEntry = { at: now, type: "found_dead", token: report.kind, masked: maskToken(token.value), error, verdict, by: BY };
  await saveInstallation(withVerdict(record, report.kind, verdict, error, entry, now));
  return current("recorded");
}
