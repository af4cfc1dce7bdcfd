import { readBounded } from "@/lib/read-bounded";
import { checkWebhookUrl, type WebhookUrlPolicy } from "./url-guard";
import { hintForWebhookAnswer } from "./hints";

/** The platform accepts webhook bodies well under this; a larger one is refused before sending. */
export const MAX_WEBHOOK_BODY_BYTES = 40 * 1024;
/** The platform answers `ok` or a short error code: nothing more is read. */
export const MAX_WEBHOOK_RESPONSE_BYTES = 4 * 1024;
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** A webhook send waits at most 10 seconds, or less when the console's upstream timeout is shorter. */
export function webhookTimeoutMs(upstreamTimeoutMs: number): number {
  return Math.min(upstreamTimeoutMs, WEBHOOK_TIMEOUT_MS);
}

/** What the platform answered (any HTTP status), as the console shows it. */
export interface WebhookAnswer {
  status: number;
  /** The plain-text body, at most 4 KB of it. */
  body: string;
  truncated: boolean;
  ok: boolean;
  /** What the developer can do about an error answer. */
  hint: string | null;
  retryAfterS: number | null;
  durationMs: number;
}

export type WebhookSendOutcome =
  | { kind: "answered"; answer: WebhookAnswer }
  /** Refused before any network I/O: 400 (URL or payload) or 413 (too large). */
  | { kind: "refused"; status: 400 | 413; reason: string }
  /** Sent, but no usable answer: 502 (redirect, connection failure) or 504 (timeout). */
  | { kind: "failed"; status: 502 | 504; reason: string };

export interface WebhookSendOptions {
  policy: WebhookUrlPolicy;
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?: () => number;
}

/**
 * POSTs a JSON body to an incoming-webhook URL. The body is sent as given, so a developer can also see how
 * the platform answers a malformed payload. The URL is checked by the SSRF guard and the size of
 * the body bounded before any connection is opened; redirects are not followed, the request is bounded
 * in time and the answer in size. Neither the URL nor any part of it appears in a returned reason.
 */
export async function sendToWebhook(rawUrl: string, body: string, options: WebhookSendOptions): Promise<WebhookSendOutcome> {
  const check = checkWebhookUrl(rawUrl, options.policy);
  if (!check.ok) return { kind: "refused", status: 400, reason: check.reason };
  const size = Buffer.byteLength(body, "utf8");
  if (size > MAX_WEBHOOK_BODY_BYTES) {
    return { kind: "refused", status: 413, reason: `The payload is ${size} bytes; the limit is ${MAX_WEBHOOK_BODY_BYTES} bytes (40 KB).` };
  }

  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const started = now();
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  let response: Response;
  try {
    response = await doFetch(check.url, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
      return { kind: "failed", status: 504, reason: `The webhook did not answer within ${Math.round(timeoutMs / 1000)} seconds.` };
    }
    return { kind: "failed", status: 502, reason: "The webhook host could not be reached." };
  }

  if ((response.status >= 300 && response.status < 400) || response.type === "opaqueredirect") {
    await response.body?.cancel().catch(() => {});
    return { kind: "failed", status: 502, reason: `The webhook answered with a redirect (HTTP ${response.status}); the proxy does not follow redirects.` };
  }
  let text: { text: string; truncated: boolean };
  try {
    text = await readAtMost(response, MAX_WEBHOOK_RESPONSE_BYTES);
  } catch (error) {
    if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
      return { kind: "failed", status: 504, reason: `The webhook did not finish answering within ${Math.round(timeoutMs / 1000)} seconds.` };
    }
    return { kind: "failed", status: 502, reason: "The connection to the webhook host broke while reading its answer." };
  }
  const retryAfter = Number(response.headers.get("retry-after"));
  return {
    kind: "answered",
    answer: {
      status: response.status,
      body: text.text,
      truncated: text.truncated,
      ok: response.status === 200,
      hint: hintForWebhookAnswer(response.status, text.text),
      retryAfterS: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
      durationMs: Math.max(0, now() - started),
    },
  };
}

/** Reads at most `limit` bytes of a body and drops the rest without downloading it. */
async function readAtMost(response: Response, limit: number): Promise<{ text: string; truncated: boolean }> {
  const read = await readBounded(response.body, { maxBytes: limit });
  // A body that broke off (the fetch's own timeout included) fails the send as it failed the read.
  if (read.outcome === "aborted") throw read.error;
  if (read.outcome === "too_slow") throw new DOMException("The webhook's answer was too slow.", "TimeoutError");
  return { text: new TextDecoder().decode(read.bytes), truncated: read.outcome === "too_large" };
}
