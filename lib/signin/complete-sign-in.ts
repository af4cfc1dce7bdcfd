import "server-only";
import { getConfig } from "@/lib/config";
import { isAppError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import { platformClockFor } from "@/lib/platform";
import { redeemSignInCode, type CodeProblem } from "./redeem-code";
import { safeReturnPath } from "./return-path";
import type { SignedInPerson } from "./universal/person";
import { writeSignedInPerson } from "./signed-in-cookie";
import { consumeSignInState, type SignInStateProblem } from "./sign-in-state";

export type SignInProblem = SignInStateProblem | CodeProblem | "access_denied" | "missing_code";

export type SignInOutcome =
  | { ok: true; person: SignedInPerson; returnTo: string }
  /** `platformError`: the `error` the platform sent back on the redirect, as it came (the page names only known ones). */
  | { ok: false; problem: SignInProblem; detail?: string; platformError?: string };

/**
 * The sign-in callback: the state is checked and consumed first (so nothing that fails it reaches the
 * platform), then the code is exchanged and the ID token verified (redeem-code.ts, by openid-client), and
 * who signed in sealed into this browser's sign-in cookie. The sign-in's access token is not kept: the
 * console needs to know who the person is, not to act as them.
 */
export async function completeSignIn(query: URLSearchParams): Promise<SignInOutcome> {
  const config = getConfig();
  const clock = platformClockFor(config.upstream.baseUrl);
  const state = query.get("state");
  const check = await consumeSignInState(state, clock.now());
  const platformError = query.get("error");
  if (platformError) return { ok: false, problem: "access_denied", platformError };
  if (!check.ok) return { ok: false, problem: check.problem };
  if (!query.get("code")) return { ok: false, problem: "missing_code" };
  try {
    const redeemed = await redeemSignInCode(query, { state: state!, nonce: check.nonce });
    if (!redeemed.ok) {
      if (redeemed.problem !== "code_rejected" && redeemed.problem !== "exchange_failed") {
        logger.warn({ problem: redeemed.problem }, "sign-in refused: the ID token did not verify");
      }
      return { ok: false, problem: redeemed.problem, detail: redeemed.detail };
    }
    await writeSignedInPerson(redeemed.person, clock.now());
    logger.info({ user: redeemed.person.userId, team: redeemed.person.teamId }, "signed in");
    // Checked again: a state cookie sealed before this check existed may hold any path.
    return { ok: true, person: redeemed.person, returnTo: safeReturnPath(check.returnTo) };
  } catch (error) {
    if (isAppError(error)) {
      // Said, not only shown: a cookie that would not fit (the sign-in's claims) is the operator's to know of too.
      logger.warn({ code: error.code, detail: error.message }, "sign-in failed after the platform's answer");
      return { ok: false, problem: "exchange_failed", detail: error.message };
    }
    throw error;
  }
}
