import { createHmac, timingSafeEqual } from "node:crypto";

/** The platform refuses to replay requests older than this; so do we. */
export const MAX_REQUEST_AGE_S = 5 * 60;

export type SignatureCheck = { ok: true } | { ok: false; reason: string };
/** A verified request also says which signing secret signed it: which app it is for. */
export type SignatureVerification = { ok: true; signedWith: string } | { ok: false; reason: string };

export interface SignatureHeaders {
  /** X-Slack-Request-Timestamp: epoch seconds, as sent. */
  timestamp: string | null;
  /** X-Slack-Signature: `v0=` followed by 64 hex characters. */
  signature: string | null;
}

export interface SignedRequestParts extends SignatureHeaders {
  /** The body exactly as received: the signature covers the bytes, not a re-serialisation. */
  rawBody: string;
}

/** v0 signature: `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{raw body}` keyed with the signing secret. */
export function signRequest(signingSecret: string, timestamp: string, rawBody: string): string {
  return `v0=${createHmac("sha256", signingSecret).update(`v0:${timestamp}:${rawBody}`).digest("hex")}`;
}

const secretsOf = (signingSecrets: string | readonly string[]) => (typeof signingSecrets === "string" ? [signingSecrets] : signingSecrets).filter(Boolean);

/**
 * What can be checked before the body is read: a signing secret to verify with, a timestamp inside the
 * replay window, a well-formed signature. A request that fails here is refused without waiting for its body.
 */
export function checkSignatureHeaders(headers: SignatureHeaders, signingSecrets: string | readonly string[], nowMs: number = Date.now()): SignatureCheck {
  if (secretsOf(signingSecrets).length === 0) return { ok: false, reason: "No signing secret is configured (SIGNING_SECRET)." };
  if (!headers.timestamp || !/^\d{1,12}$/.test(headers.timestamp)) {
    return { ok: false, reason: "X-Slack-Request-Timestamp is missing or not a number." };
  }
  const ageS = Math.floor(nowMs / 1000) - Number(headers.timestamp);
  if (Math.abs(ageS) > MAX_REQUEST_AGE_S) {
    return { ok: false, reason: "X-Slack-Request-Timestamp is more than 5 minutes away from now." };
  }
  if (!headers.signature || !/^v0=[0-9a-f]{64}$/.test(headers.signature)) {
    return { ok: false, reason: "X-Slack-Signature is missing or not a v0 signature." };
  }
  return { ok: true };
}

/**
 * Verifies a request signed by the platform, with the signing secret of any app the console receives
 * events for. The timestamp window stops replays of captured requests; each comparison runs in constant
 * time over equal-length buffers so it leaks nothing about an expected signature.
 */
export function verifyRequestSignature(
  parts: SignedRequestParts,
  signingSecrets: string | readonly string[],
  nowMs: number = Date.now(),
): SignatureVerification {
  const headersCheck = checkSignatureHeaders(parts, signingSecrets, nowMs);
  if (!headersCheck.ok) return headersCheck;
  // Both headers are there and well-formed once checkSignatureHeaders passed.
  const given = Buffer.from(parts.signature ?? "", "utf8");
  const timestamp = parts.timestamp ?? "";
  const secrets = secretsOf(signingSecrets);
  // Every secret is tried, so the time taken does not tell which one matched.
  const matches = secrets.map((secret) => {
    const expected = Buffer.from(signRequest(secret, timestamp, parts.rawBody), "utf8");
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  const signedWith = secrets[matches.indexOf(true)];
  if (signedWith === undefined) return { ok: false, reason: "X-Slack-Signature does not match the request." };
  return { ok: true, signedWith };
}
