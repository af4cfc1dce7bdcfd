import "server-only";
import * as oidc from "openid-client";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import { AppError, isAppError } from "@/lib/http/app-error";
import { platformClockFor } from "@/lib/platform";
import { issuerTransport, keepIssuerKeys, signInConfiguration, type IssuerTransport } from "./oidc-client";
import type { SignedInPerson } from "./universal/person";

/** An ID token proves a sign-in that just happened: one issued longer ago than this is refused. */
const MAX_TOKEN_AGE_S = 600;
const CLOCK_TOLERANCE_S = 30;

export type IdTokenProblem =
  "bad_signature" | "wrong_issuer" | "wrong_audience" | "token_expired" | "nonce_mismatch" | "invalid_id_token" | "profile_too_large";

/**
 * The longest of each claim the console keeps in the sign-in cookie, which must fit a browser's 4 KB once
 * sealed: a longer one is refused, saying which (the cookie's own limit answered exchange_failed, its cause unsaid).
 */
const MAX_CLAIM_LENGTH: Record<string, number> = {
  sub: 64,
  [`https://slack.com/team_id`]: 64,
  [`https://slack.com/team_name`]: 128,
  [`https://slack.com/enterprise_id`]: 64,
  [`https://slack.com/enterprise_name`]: 128,
  name: 128,
  email: 254,
  picture: 1024,
};

/** The first kept claim longer than the console keeps, as a refusal naming it. */
function oversizedClaim(claims: Record<string, unknown>): RedeemedCode | undefined {
  for (const [claim, max] of Object.entries(MAX_CLAIM_LENGTH)) {
    const value = claims[claim];
    if (typeof value === "string" && value.length > max) {
      return refused(
        "profile_too_large",
        `The ID token's ${claim} claim is ${value.length} characters long, more than the ${max} the console keeps in its sign-in cookie.`,
      );
    }
  }
  return undefined;
}
export type CodeProblem = IdTokenProblem | "code_rejected" | "exchange_failed";

export type RedeemedCode = { ok: true; person: SignedInPerson } | { ok: false; problem: CodeProblem; detail: string };

const NS = "https://slack.com/";
const optional = z
  .string()
  .nullish()
  .transform((v) => v || undefined);
const ClaimsSchema = z.object({
  sub: z.string().min(1),
  [`${NS}team_id`]: z.string().min(1),
  [`${NS}team_name`]: optional,
  [`${NS}enterprise_id`]: optional,
  [`${NS}enterprise_name`]: optional,
  name: optional,
  email: optional,
  picture: optional,
});

/** The claims the console keeps, turned into its own shape. */
function personFrom(claims: oidc.IDToken): SignedInPerson | undefined {
  const parsed = ClaimsSchema.safeParse(claims);
  if (!parsed.success) return undefined;
  const c = parsed.data as Record<string, string | undefined>;
  const userId = c.sub!;
  const teamId = c[`${NS}team_id`]!;
  const enterpriseId = c[`${NS}enterprise_id`];
  const enterpriseName = c[`${NS}enterprise_name`];
  return {
    userId,
    teamId,
    teamName: c[`${NS}team_name`] ?? teamId,
    ...(enterpriseId ? { enterpriseId } : {}),
    ...(enterpriseName ? { enterpriseName } : {}),
    name: c.name ?? userId,
    ...(c.email ? { email: c.email } : {}),
    ...(c.picture ? { picture: c.picture } : {}),
  };
}

/** The errors an error's causes hold, outermost first (openid-client wraps oauth4webapi's, which hold the claim). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e !== undefined && e !== null && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

const refused = (problem: CodeProblem, detail: string): RedeemedCode => ({ ok: false, problem, detail });

/** What openid-client's refusal means for the person: which check failed, in the console's words. */
function problemOf(error: unknown): RedeemedCode {
  if (error instanceof oidc.ResponseBodyError) {
    if (error.error === "invalid_code" || error.error === "invalid_grant") return refused("code_rejected", "The platform refused the code.");
    return refused("exchange_failed", `The platform answered ${error.error}.`);
  }
  const chain = causes(error);
  const code = (error as { code?: unknown }).code;
  const claim = chain.map((c) => (c as { claim?: unknown }).claim).find((c) => typeof c === "string");
  const messages = chain.map((c) => (c instanceof Error ? c.message : "")).join(" ");
  if (code === "OAUTH_JWT_TIMESTAMP_CHECK_FAILED") return refused("token_expired", `The ID token's ${claim ?? "time"} claim does not fit the platform's time.`);
  if (code === "OAUTH_JWT_CLAIM_COMPARISON_FAILED") {
    if (claim === "nonce") return refused("nonce_mismatch", "The ID token's nonce is not the one this browser sent: the sign-in was not started here.");
    if (claim === "iss") return refused("wrong_issuer", "The ID token was issued by someone other than the platform's issuer.");
    if (claim === "azp") return refused("wrong_audience", "The ID token was issued for another party (its azp is not this console's client id).");
    return refused("wrong_audience", "The ID token was issued to another app (its aud is not this console's client id).");
  }
  if (code === "OAUTH_KEY_SELECTION_FAILED" || /signature|"alg"/.test(messages)) {
    return refused("bad_signature", "The ID token's signature does not verify with the platform's RS256 keys.");
  }
  if (code === "OAUTH_INVALID_RESPONSE" && /id_token|JWT/.test(messages)) return refused("invalid_id_token", "The ID token could not be read.");
  return refused("exchange_failed", `The platform's answer could not be used (${error instanceof Error ? error.message : "unknown error"}).`);
}

/**
 * The checks openid-client leaves to the client: azp with a single audience (Core §3.1.3.7 item 5 says
 * SHOULD), and the token's age. exp once more: openid-client judged it by the platform's time as known when
 * the exchange began, and the exchange's own answer may have told the console its clock had moved.
 */
function ownChecks(claims: oidc.IDToken, clientId: string, nowMs: number): RedeemedCode | undefined {
  if (claims.azp !== undefined && claims.azp !== clientId) {
    return refused("wrong_audience", "The ID token was issued for another party (its azp is not this console's client id).");
  }
  if (claims.exp <= nowMs / 1000 - CLOCK_TOLERANCE_S) return refused("token_expired", "The ID token's exp claim is past, by the platform's time.");
  if (claims.iat < nowMs / 1000 - MAX_TOKEN_AGE_S - CLOCK_TOLERANCE_S) return refused("token_expired", "The ID token was issued too long ago.");
  return undefined;
}

/**
 * Exchanges the code the platform sent back (openid.connect.token, with the app's credentials) and checks
 * the ID token as OpenID Connect Core §3.1.3.7 asks, by openid-client: an RS256 signature by one of the
 * issuer's keys, iss, aud (this client), azp, exp by the platform's time, and the nonce this browser sent
 * (which binds the token to this sign-in: a code obtained in another browser's flow carries another).
 * `state` has already been checked against this browser's cookie. The platform documents no PKCE for
 * sign-in: the state, the nonce and the client secret protect the code instead. `transport` is openid-client's fetch.
 */
export async function redeemSignInCode(
  callback: URLSearchParams,
  expect: { state: string; nonce: string },
  transport: IssuerTransport = issuerTransport,
): Promise<RedeemedCode> {
  const { auth, clientId, upstream } = getConfig();
  const config = await signInConfiguration(transport);
  // The redirect_uri sent is the one registered, not the address this request reached (a proxy may stand between).
  const currentUrl = new URL(auth.redirectUri);
  currentUrl.search = callback.toString();
  let claims: oidc.IDToken | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, { expectedState: expect.state, expectedNonce: expect.nonce, idTokenExpected: true });
    claims = tokens.claims();
  } catch (error) {
    const appError = causes(error).find(isAppError);
    // The platform could not be reached or did not answer in time: its failure (502, 504), not the token's.
    if (appError instanceof AppError && appError.code !== "upstream_bad_answer") throw appError;
    return problemOf(error);
  } finally {
    keepIssuerKeys(config);
  }
  if (!claims) return refused("invalid_id_token", "The platform sent no ID token.");
  const own = ownChecks(claims, clientId, platformClockFor(upstream.baseUrl).now());
  if (own) return own;
  const oversized = oversizedClaim(claims as Record<string, unknown>);
  if (oversized) return oversized;
  const person = personFrom(claims);
  if (!person) return refused("invalid_id_token", "The ID token does not say who signed in, or in which workspace.");
  return { ok: true, person };
}
