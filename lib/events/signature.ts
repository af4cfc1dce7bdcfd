import { createHmac, timingSafeEqual } from "node:crypto";

/** The platform refuses to replay requests older than this; so do we. */
export const MAX_REQUEST_AGE_S = 5 * 60;

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

export interface SignedRequestParts {
  /** X-Slack-Request-Timestamp: epoch seconds, as sent. */
  timestamp: string | null;
  /** X-Slack-Signature: `v0=` followed by 64 hex characters. */
  signature: string | null;
  /** The body exactly as received: the signature covers the bytes, not a re-serialisation. */
  rawBody: string;
}

/** v0 signature: `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{raw body}` keyed with the signing secret. */
export function signRequest(signingSecret: string, timestamp: string, rawBody: string): string {
  return `v0=${createHmac("sha256", signingSecret).update(`v0:${timestamp}:${rawBody}`).digest("hex")}`;
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
): SignatureCheck {
  const secrets = (typeof signingSecrets === "string" ? [signingSecrets] : signingSecrets).filter(Boolean);
  if (secrets.length === 0) return { ok: false, reason: "No signing secret is configured (SIGNING_SECRET)." };
  if (!parts.timestamp || !/^\d{1,12}$/.test(parts.timestamp)) {
    return { ok: false, reason: "X-Slack-Request-Timestamp is missing or not a number." };
  }
  const ageS = Math.floor(nowMs / 1000) - Number(parts.timestamp);
  if (Math.abs(ageS) > MAX_REQUEST_AGE_S) {
    return { ok: false, reason: "X-Slack-Request-Timestamp is more than 5 minutes away from now." };
  }
  if (!parts.signature || !/^v0=[0-9a-f]{64}$/.test(parts.signature)) {
    return { ok: false, reason: "X-Slack-Signature is missing or not a v0 signature." };
  }
  const given = Buffer.from(parts.signature, "utf8");
  const timestamp = parts.timestamp;
  const matches = secrets.map((secret) => {
    const expected = Buffer.from(signRequest(secret, timestamp, parts.rawBody), "utf8");
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!matches.includes(true)) return { ok: false, reason: "X-Slack-Signature does not match the request." };
  return { ok: true };
}
