import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/lib/http/app-error";
import type { ConsoleErrorCode } from "@/lib/http/error-codes";
import type { ErrorBody } from "@/lib/http/error-body";
import { MAX_JSON_BODY_DEPTH, nestsDeeperThan } from "@/lib/http/json-body";
import { logger } from "@/lib/log";
import { readBounded } from "@/lib/read-bounded";
import type { EventSink, ReceivedEvent } from "./feed";
import { checkSignatureHeaders, verifyRequestSignature } from "./signature";

/** Events are small; a larger body is refused before it is buffered whole. */
export const MAX_EVENT_BODY_BYTES = 1024 * 1024;
/**
 * How long a body may take to arrive. The platform sends an event at once and gives up on an answer after
 * 3 seconds; without a bound a client trickling its body would hold the connection for the server's own
 * request timeout (300 s in Node).
 */
export const EVENT_BODY_TIMEOUT_MS = 10_000;

/** An app whose events this request URL receives: its signing secret, and its id when known. */
export interface EventSigner {
  signingSecret: string;
  appId: string | null;
}

export interface ReceiveEventOptions {
  /** The apps whose events this request URL receives. */
  signers: readonly EventSigner[];
  /** Where a verified request goes: this instance's feed, and with Redis the other instances' too. */
  sink: EventSink;
  now?: () => number;
  /** How long the body may take to arrive (default EVENT_BODY_TIMEOUT_MS). */
  bodyTimeoutMs?: number;
}

const Envelope = z.looseObject({
  type: z.string(),
  challenge: z.string().optional(),
  team_id: z.string().optional(),
  event_id: z.string().optional(),
  event: z.looseObject({ type: z.string() }).optional(),
});

/**
 * The envelope as the feed shows it. Its `token` is the app's verification token (a credential of the
 * deprecated verification scheme), so it never reaches the feed, the browser or a log.
 */
function withoutCredentials(envelope: z.infer<typeof Envelope>): Record<string, unknown> {
  const shown: Record<string, unknown> = { ...envelope };
  delete shown.token;
  return shown;
}

const json = (status: number, body: unknown) => Response.json(body, { status, headers: { "cache-control": "no-store" } });
/** Answers as handleRoute's error mapper does (this route is the platform's to call, so it has no wrapper). */
const refuse = (code: ConsoleErrorCode, message?: string) => {
  const error = new AppError(code, message === undefined ? {} : { message });
  return json(error.status, { ok: false, error: error.code, message: error.message } satisfies ErrorBody);
};

/**
 * The Events API request URL. The platform waits 3 seconds for an answer and retries otherwise, so the
 * only work done before answering is verifying the signature and appending to the in-memory feed (relaying
 * to other instances goes on after the answer).
 */
export async function receiveEventRequest(request: Request, options: ReceiveEventOptions): Promise<Response> {
  const now = options.now ?? Date.now;
  const headers = { timestamp: request.headers.get("x-slack-request-timestamp"), signature: request.headers.get("x-slack-signature") };
  // Whatever the headers alone can refuse is refused before a byte of the body is waited for.
  const signingSecrets = options.signers.map((signer) => signer.signingSecret);
  const headersCheck = checkSignatureHeaders(headers, signingSecrets, now());
  if (!headersCheck.ok) return refuse("invalid_signature", headersCheck.reason);

  const bodyTimeoutMs = options.bodyTimeoutMs ?? EVENT_BODY_TIMEOUT_MS;
  const body = await readBodyText(request, MAX_EVENT_BODY_BYTES, bodyTimeoutMs);
  if (body.problem === "too_large") return refuse("payload_too_large", `Event requests are limited to ${MAX_EVENT_BODY_BYTES} bytes.`);
  if (body.problem !== null) {
    // One line, no stack: a client that goes away mid-body is not the server's error, and there can be many.
    logger.warn({ problem: body.problem, receivedBytes: body.receivedBytes, ms: body.ms }, "POST /api/events: the request body did not arrive");
    return body.problem === "too_slow"
      ? refuse("request_timeout", `The request body did not arrive within ${bodyTimeoutMs / 1000} seconds.`)
      : refuse("body_aborted");
  }
  const rawBody = body.text;

  const check = verifyRequestSignature({ ...headers, rawBody }, signingSecrets, now());
  if (!check.ok) return refuse("invalid_signature", check.reason);

  // Nesting deeper than any envelope of the platform's would break whatever writes the event out again (the feed of every viewer).
  if (nestsDeeperThan(rawBody, MAX_JSON_BODY_DEPTH)) return refuse("json_too_deep", `Event requests nest at most ${MAX_JSON_BODY_DEPTH} levels deep.`);
  let envelope: z.infer<typeof Envelope>;
  try {
    envelope = Envelope.parse(JSON.parse(rawBody));
  } catch {
    return refuse("invalid_payload");
  }
  const signer = options.signers.find((s) => s.signingSecret === check.signedWith);

  const retryNum = Number(request.headers.get("x-slack-retry-num"));
  const received: ReceivedEvent = {
    id: randomUUID(),
    receivedAt: now(),
    envelopeType: envelope.type,
    eventType: envelope.event?.type ?? null,
    eventId: envelope.event_id ?? null,
    teamId: envelope.team_id ?? null,
    appId: typeof envelope.api_app_id === "string" ? envelope.api_app_id : (signer?.appId ?? null),
    retryNum: request.headers.has("x-slack-retry-num") && Number.isInteger(retryNum) ? retryNum : null,
    retryReason: request.headers.get("x-slack-retry-reason"),
    bytes: Buffer.byteLength(rawBody, "utf8"),
    payload: withoutCredentials(envelope),
  };
  options.sink.publish(received);

  if (envelope.type === "url_verification") {
    if (!envelope.challenge) return refuse("invalid_payload", "A url_verification request needs a challenge.");
    return json(200, { challenge: envelope.challenge });
  }
  return new Response(null, { status: 200 });
}

type BodyRead = { problem: null; text: string } | { problem: "too_large" } | { problem: "too_slow" | "aborted"; receivedBytes: number; ms: number };

/**
 * The body as text, read until `limit` bytes (stops reading there: too_large) or `timeoutMs` (too_slow).
 * A body that fails mid-way (the client went away) is `aborted`, never a thrown error.
 */
async function readBodyText(request: Request, limit: number, timeoutMs: number): Promise<BodyRead> {
  const read = await readBounded(request.body, { maxBytes: limit, declaredLength: request.headers.get("content-length"), timeoutMs });
  switch (read.outcome) {
    case "complete":
      return { problem: null, text: new TextDecoder().decode(read.bytes) };
    case "too_large":
      return { problem: "too_large" };
    default:
      return { problem: read.outcome, receivedBytes: read.receivedBytes, ms: read.ms };
  }
}
