/**
 * How the platform signs what it POSTs to an app's request URL (events and url_verification alike):
 * `X-Slack-Signature: v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{body}` with the app's signing secret.
 */
import { createHmac } from "node:crypto";
import type { App } from "../types";

/**
 * The signature headers for a body. The timestamp is wall-clock time even when the emulator's clock was
 * pushed forward: receivers check it against their own clock (and refuse requests older than 5 minutes).
 */
export function signEventRequest(app: App, body: string): Record<string, string> {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac("sha256", app.signingSecret).update(`v0:${timestamp}:${body}`).digest("hex");
  return { "x-slack-request-timestamp": String(timestamp), "x-slack-signature": `v0=${signature}` };
}

/** Verification tokens by signing secret: every event carries one, and an HMAC per event showed in the bench's profile. */
const VERIFICATION_TOKENS = new Map<string, string>();

/** The deprecated verification token in each payload, derived from the app so it is stable per app. */
export function verificationToken(app: App): string {
  let token = VERIFICATION_TOKENS.get(app.signingSecret);
  if (token === undefined) {
    token = createHmac("sha256", app.signingSecret).update("verification-token").digest("base64url").slice(0, 24);
    // Apps are few; a process that made very many (tests) starts the cache again rather than grow it.
    if (VERIFICATION_TOKENS.size >= 1000) VERIFICATION_TOKENS.clear();
    VERIFICATION_TOKENS.set(app.signingSecret, token);
  }
  return token;
}
