import "server-only";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import { isAppError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import { platformClockFor } from "@/lib/platform";
import { issuerMetadata } from "./discovery";
import { fetchFromIssuer, issuerJson } from "./issuer-fetch";
import { issuerKeys } from "./issuer-keys";
import type { SignedInPerson } from "./universal/person";
import { writeSignedInPerson } from "./signed-in-cookie";
import { consumeSignInState, type SignInStateProblem } from "./sign-in-state";
import { verifyIdToken, type IdTokenProblem } from "./verify-id-token";

export type SignInProblem = SignInStateProblem | IdTokenProblem | "access_denied" | "missing_code" | "code_rejected" | "exchange_failed";

export type SignInOutcome =
  | { ok: true; person: SignedInPerson; returnTo: string }
  /** `platformError`: the `error` the platform sent back on the redirect, as it came (the page names only known ones). */
  | { ok: false; problem: SignInProblem; detail?: string; platformError?: string };

const TokenAnswer = z.union([z.object({ ok: z.literal(true), id_token: z.string().min(1) }), z.object({ ok: z.literal(false), error: z.string() })]);

/** openid.connect.token (the discovery's token endpoint) with the app's credentials: the ID token, or the platform's error code. */
async function exchangeSignInCode(tokenEndpoint: string, code: string): Promise<{ idToken: string } | { error: string }> {
  const config = getConfig();
  const response = await fetchFromIssuer(tokenEndpoint, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: config.clientId,
      client_secret: config.clientSecret,
      code,
      redirect_uri: config.auth.redirectUri,
    }),
  });
  const parsed = TokenAnswer.safeParse(await issuerJson(response, "sign-in token answer"));
  if (!parsed.success) return { error: `unexpected answer (HTTP ${response.status})` };
  return parsed.data.ok ? { idToken: parsed.data.id_token } : { error: parsed.data.error };
}

/**
 * The sign-in callback: the state is checked and consumed first (so nothing that fails it reaches the
 * platform), then the code is exchanged, the ID token verified against the nonce this browser sent, and
 * who signed in sealed into this browser's sign-in cookie. The sign-in's access token is not kept: the
 * console needs to know who the person is, not to act as them.
 */
export async function completeSignIn(query: URLSearchParams): Promise<SignInOutcome> {
  const config = getConfig();
  const clock = platformClockFor(config.upstream.baseUrl);
  const check = await consumeSignInState(query.get("state"), clock.now());
  const platformError = query.get("error");
  if (platformError) return { ok: false, problem: "access_denied", platformError };
  if (!check.ok) return { ok: false, problem: check.problem };
  const code = query.get("code");
  if (!code) return { ok: false, problem: "missing_code" };
  try {
    const metadata = await issuerMetadata();
    const exchanged = await exchangeSignInCode(metadata.tokenEndpoint, code);
    if ("error" in exchanged) {
      if (exchanged.error === "invalid_code") return { ok: false, problem: "code_rejected" };
      return { ok: false, problem: "exchange_failed", detail: `The platform answered ${exchanged.error}.` };
    }
    const verified = await verifyIdToken(exchanged.idToken, {
      issuer: metadata.issuer,
      clientId: config.clientId,
      nonce: check.nonce,
      keys: issuerKeys(metadata.jwksUri),
      nowMs: clock.now(),
    });
    if (!verified.ok) {
      logger.warn({ problem: verified.problem }, "sign-in refused: the ID token did not verify");
      return { ok: false, problem: verified.problem, detail: verified.detail };
    }
    await writeSignedInPerson(verified.person, clock.now());
    logger.info({ user: verified.person.userId, team: verified.person.teamId }, "signed in");
    return { ok: true, person: verified.person, returnTo: check.returnTo };
  } catch (error) {
    if (isAppError(error)) return { ok: false, problem: "exchange_failed", detail: error.message };
    throw error;
  }
}
