import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { EventSink, ReceivedEvent } from "./feed";
import { verifyRequestSignature } from "./signature";

/** Events are small; a larger body is refused before it is buffered whole. */
export const MAX_EVENT_BODY_BYTES = 1024 * 1024;

export interface ReceiveEventOptions {
  /** The signing secrets of the apps whose events this request URL receives. */
  signingSecrets: readonly string[];
  /** Where a verified request goes: this instance's feed, and with Redis the other instances' too. */
  sink: EventSink;
  now?: () => number;
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
const refuse = (status: number, error: string, message: string) => json(status, { ok: false, error, message });

/**
 * The Events API request URL. The platform waits 3 seconds for an answer and retries otherwise, so the
 * only work done before answering is verifying the signature and appending to the in-memory feed (relaying
 * to other instances goes on after the answer).
 */
export async function receiveEventRequest(request: Request, options: ReceiveEventOptions): Promise<Response> {
  const now = options.now ?? Date.now;
  const rawBody = await readBodyText(request, MAX_EVENT_BODY_BYTES);
  if (rawBody === null) return refuse(413, "payload_too_large", `Event requests are limited to ${MAX_EVENT_BODY_BYTES} bytes.`);

  const check = verifyRequestSignature(
    {
      timestamp: request.headers.get("x-slack-request-timestamp"),
      signature: request.headers.get("x-slack-signature"),
      rawBody,
    },
    options.signingSecrets,
    now(),
  );
  if (!check.ok) return refuse(401, "invalid_signature", check.reason);

  let envelope: z.infer<typeof Envelope>;
  try {
    envelope = Envelope.parse(JSON.parse(rawBody));
  } catch {
    return refuse(400, "invalid_payload", "The body is not an Events API JSON envelope.");
  }

  const retryNum = Number(request.headers.get("x-slack-retry-num"));
  const received: ReceivedEvent = {
    id: randomUUID(),
    receivedAt: now(),
    envelopeType: envelope.type,
    eventType: envelope.event?.type ?? null,
    eventId: envelope.event_id ?? null,
    teamId: envelope.team_id ?? null,
    retryNum: request.headers.has("x-slack-retry-num") && Number.isInteger(retryNum) ? retryNum : null,
    retryReason: request.headers.get("x-slack-retry-reason"),
    bytes: Buffer.byteLength(rawBody, "utf8"),
    payload: withoutCredentials(envelope),
  };
  options.sink.publish(received);

  if (envelope.type === "url_verification") {
    if (!envelope.challenge) return refuse(400, "invalid_payload", "A url_verification request needs a challenge.");
    return json(200, { challenge: envelope.challenge });
  }
  return new Response(null, { status: 200 });
}

/** The body as text, or null when it is larger than `limit` bytes (stops reading there). */
async function readBodyText(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
