/**
 * Request URL verification: when an app's event request URL is set, the platform POSTs a signed
 * `url_verification` request carrying a `challenge`, and the URL counts as verified only when it answers
 * HTTP 200 with that challenge (as plain text, `challenge=` form-encoded, or JSON `{"challenge": …}`).
 * Events go only to a verified URL. The platform tries once; a developer retries from the app's settings
 * (here: POST {base}/admin/apps/{app_id}/verify).
 */
import { randomBytes } from "node:crypto";
import { signEventRequest, verificationToken } from "./event-signing";
import type { App, DeliverEvent, ResolvedOptions } from "../types";
import type { RequestUrlVerification } from "./types";
import { touch } from "../core/change-tracking";

/** The platform gives a request URL 3 seconds to answer the challenge. */
export const VERIFICATION_TIMEOUT_MS = 3000;
/** The part of an answer read for the challenge: a challenge is 48 characters, an answer needs no more. */
const READ_LIMIT_BYTES = 4096;

/** Where an app's events go: its manifest's request URL, else the emulator's default for its apps. */
export function eventRequestUrlOf(app: App, options: Pick<ResolvedOptions, "eventsRequestUrl">): string | undefined {
  return app.eventsRequestUrl ?? options.eventsRequestUrl;
}

/** Whether an answer's body carries the challenge, in any of the three forms the platform accepts. */
function answersChallenge(body: string, contentType: string, challenge: string): boolean {
  const text = body.trim();
  if (text === challenge) return true;
  if (contentType.includes("json") || text.startsWith("{")) {
    try {
      const parsed = JSON.parse(text) as unknown;
      return typeof parsed === "object" && parsed !== null && (parsed as { challenge?: unknown }).challenge === challenge;
    } catch {
      return false;
    }
  }
  return new URLSearchParams(text).get("challenge") === challenge;
}

async function readLimited(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < READ_LIMIT_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, READ_LIMIT_BYTES).toString("utf8");
}

async function sendChallenge(deliverEvent: DeliverEvent, app: App, url: string, record: RequestUrlVerification): Promise<void> {
  const challenge = randomBytes(36).toString("base64url");
  const body = JSON.stringify({ token: verificationToken(app), challenge, type: "url_verification" });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), VERIFICATION_TIMEOUT_MS);
  (timer as { unref?: () => void }).unref?.();
  try {
    const response = await deliverEvent(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "Slackbot 1.0 (+https://api.slack.com/robots)", ...signEventRequest(app, body) },
      body,
      signal: controller.signal,
      redirect: "manual",
    });
    record.status = response.status;
    const answer = await readLimited(response);
    if (response.status !== 200) record.failure = "http_error";
    else if (!answersChallenge(answer, response.headers.get("content-type") ?? "", challenge)) record.failure = "challenge_mismatch";
  } catch {
    record.failure = controller.signal.aborted ? "http_timeout" : "connection_failed";
  } finally {
    clearTimeout(timer);
  }
  record.durationMs = Date.now() - record.at;
  record.state = record.failure ? "failed" : "verified";
  touch(app);
}

/**
 * Sends a url_verification challenge to the app's request URL and records the attempt on the app;
 * resolves with the outcome. Nothing is sent for an app without a request URL.
 */
export function verifyRequestUrl(app: App, options: Pick<ResolvedOptions, "eventsRequestUrl" | "deliverEvent">): Promise<RequestUrlVerification | undefined> {
  const url = eventRequestUrlOf(app, options);
  if (!url) {
    app.requestUrlVerification = undefined;
    touch(app);
    return Promise.resolve(undefined);
  }
  const record: RequestUrlVerification = { url, state: "pending", at: Date.now(), done: Promise.resolve() };
  record.done = sendChallenge(options.deliverEvent, app, url, record);
  app.requestUrlVerification = record;
  touch(app);
  return record.done.then(() => record);
}

/**
 * Whether events may go to this URL now: verified, or pending and then verified (a delivery that meets
 * a verification under way waits for it). A failed or superseded verification sends nothing.
 */
export async function isVerifiedRequestUrl(app: App, url: string): Promise<boolean> {
  const record = app.requestUrlVerification;
  if (!record || record.url !== url) return false;
  await record.done;
  return record.state === "verified";
}

/** What the admin surface shows of a verification. */
export function describeVerification(record: RequestUrlVerification | undefined) {
  if (!record) return null;
  return {
    url: record.url,
    state: record.state,
    at: new Date(record.at).toISOString(),
    duration_ms: record.durationMs ?? null,
    status: record.status ?? null,
    failure: record.failure ?? null,
  };
}
