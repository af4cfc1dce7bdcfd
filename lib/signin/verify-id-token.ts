import "server-only";
import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { z } from "zod";
import { isAppError } from "@/lib/http/app-error";
import type { SignedInPerson } from "./universal/person";

/** An ID token proves a sign-in that just happened: one issued longer ago than this is refused. */
const MAX_TOKEN_AGE_S = 600;
/** Leeway for the clocks of the issuer and the console (by the platform's time as the console knows it). */
const CLOCK_TOLERANCE_S = 30;

export type IdTokenProblem = "bad_signature" | "wrong_issuer" | "wrong_audience" | "token_expired" | "nonce_mismatch" | "invalid_id_token";

export type IdTokenCheck = { ok: true; person: SignedInPerson } | { ok: false; problem: IdTokenProblem; detail: string };

export interface IdTokenExpectations {
  issuer: string;
  /** The app's client id: the token's aud. */
  clientId: string;
  /** The nonce this browser sent with its authorize request. */
  nonce: string;
  keys: JWTVerifyGetKey;
  /** The platform's time now (epoch ms): exp and iat are the issuer's clock, which the emulator's may have moved. */
  nowMs: number;
}

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
function personFrom(payload: JWTPayload): SignedInPerson | undefined {
  const parsed = ClaimsSchema.safeParse(payload);
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

function problemOf(error: unknown): { problem: IdTokenProblem; detail: string } {
  if (error instanceof errors.JWTExpired) return { problem: "token_expired", detail: `The ID token has expired (its ${error.claim} claim).` };
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud")
      return { problem: "wrong_audience", detail: "The ID token was issued to another app (its aud is not this console's client id)." };
    if (error.claim === "iss") return { problem: "wrong_issuer", detail: "The ID token was issued by someone other than the platform's issuer." };
    return { problem: "token_expired", detail: `The ID token's ${error.claim} claim does not fit the platform's time: ${error.reason}.` };
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return { problem: "bad_signature", detail: "The ID token's signature does not verify with the platform's keys." };
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return { problem: "bad_signature", detail: "The ID token is not signed with RS256." };
  return { problem: "invalid_id_token", detail: "The ID token could not be read." };
}

/**
 * Verifies an ID token as OpenID Connect Core §3.1.3.7 asks: an RS256 signature by one of the issuer's
 * keys, iss, aud (the client id), exp and iat judged by the platform's time, and the nonce this browser
 * sent (which binds the token to this sign-in: a code obtained in another browser's flow carries another).
 */
export async function verifyIdToken(idToken: string, expect: IdTokenExpectations): Promise<IdTokenCheck> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, expect.keys, {
      algorithms: ["RS256"],
      issuer: expect.issuer,
      audience: expect.clientId,
      currentDate: new Date(expect.nowMs),
      maxTokenAge: MAX_TOKEN_AGE_S,
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ["sub", "exp", "iat"],
    }));
  } catch (error) {
    // The issuer's keys could not be read: the platform's failure (502, 504), not the token's.
    if (isAppError(error)) throw error;
    return { ok: false, ...problemOf(error) };
  }
  if (payload.nonce !== expect.nonce) {
    return { ok: false, problem: "nonce_mismatch", detail: "The ID token's nonce is not the one this browser sent: the sign-in was not started here." };
  }
  const person = personFrom(payload);
  if (!person) return { ok: false, problem: "invalid_id_token", detail: "The ID token does not say who signed in, or in which workspace." };
  return { ok: true, person };
}
