/**
 * How one interaction reaches an app and how its immediate answer comes back: over Socket Mode (a
 * `slash_commands` or `interactive` envelope on one of the app's connections; the ack's `payload` is the
 * answer) when the app turned it on, else a signed, form-encoded POST to a URL of its manifest (a slash
 * command's fields as form fields, any other interaction as one `payload` field of JSON; the response body is
 * the answer). The platform waits 3 seconds and does not retry an interaction.
 */
import { signEventRequest } from "../events/event-signing";
import { usesSocketMode } from "../events/routing";
import { isAllowedRequestUrl } from "../apps/registry";
import { hubOf } from "../socket-mode/hub";
import type { App, RequestContext } from "../types";

/** The platform gives an app 3 seconds to answer an interaction. */
export const INTERACTION_TIMEOUT_MS = 3000;
/** The part of an answer read: more than any answer the platform takes (a modal view is at most 250 kB). */
const READ_LIMIT_BYTES = 512 * 1024;

/**
 * Why an interaction failed: the platform's words where it shows them to the member (`operation_timeout`,
 * `dispatch_failed`, `http_service_error`), and what the emulator could not even try (`no_url`, `url_not_allowed`).
 */
export type InteractionFailure = "operation_timeout" | "dispatch_failed" | "http_service_error" | "no_url" | "url_not_allowed";

export interface Exchange {
  via: "http" | "socket";
  /** The URL posted to, or "socket_mode". */
  url: string;
  at: number;
  durationMs: number;
  status?: number;
  envelopeId?: string;
  connectionId?: string;
  /** The app's immediate answer: parsed JSON, a text, or undefined for an empty one. */
  answer?: unknown;
  failure?: InteractionFailure;
}

export type Envelope = { type: "slash_commands"; payload: Record<string, string> } | { type: "interactive"; payload: Record<string, unknown> };

/** The answer's body: JSON when it reads as JSON, else its text; nothing for an empty body. */
function readAnswer(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return trimmed;
  }
}

async function readLimited(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > READ_LIMIT_BYTES) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, READ_LIMIT_BYTES).toString("utf8");
}

async function overHttp(ctx: RequestContext, app: App, url: string | undefined, envelope: Envelope): Promise<Exchange> {
  const at = Date.now();
  if (!url) return { via: "http", url: "", at, durationMs: 0, failure: "no_url" };
  if (!isAllowedRequestUrl(ctx.options, url)) return { via: "http", url, at, durationMs: 0, failure: "url_not_allowed" };
  const body =
    envelope.type === "slash_commands"
      ? new URLSearchParams(envelope.payload).toString()
      : new URLSearchParams({ payload: JSON.stringify(envelope.payload) }).toString();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), INTERACTION_TIMEOUT_MS);
  timer.unref?.();
  const exchange: Exchange = { via: "http", url, at, durationMs: 0 };
  try {
    const response = await ctx.options.deliverEvent(url, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "user-agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
        ...signEventRequest(app, body),
      },
      body,
      signal: controller.signal,
      redirect: "manual",
    });
    exchange.status = response.status;
    const text = await readLimited(response);
    if (response.status < 200 || response.status > 299) exchange.failure = "http_service_error";
    else exchange.answer = readAnswer(text);
  } catch {
    exchange.failure = controller.signal.aborted ? "operation_timeout" : "dispatch_failed";
  } finally {
    clearTimeout(timer);
  }
  exchange.durationMs = Date.now() - at;
  return exchange;
}

async function overSocket(ctx: RequestContext, app: App, envelope: Envelope, acceptsResponse: boolean): Promise<Exchange> {
  const at = Date.now();
  const hub = hubOf(ctx.state);
  // The platform fails at once when the app has no connection open: it does not wait for one, as events do.
  if (hub.openConnections(app.id) === 0) return { via: "socket", url: "socket_mode", at, durationMs: 0, failure: "dispatch_failed" };
  const result = await hub.send(
    app.id,
    () => ({ type: envelope.type, payload: envelope.payload, accepts_response_payload: acceptsResponse, retry_attempt: 0, retry_reason: "" }),
    INTERACTION_TIMEOUT_MS,
  );
  const exchange: Exchange = { via: "socket", url: "socket_mode", at, durationMs: Date.now() - at, envelopeId: result.envelopeId };
  if (result.connectionId) exchange.connectionId = result.connectionId;
  if (result.failure === "timeout") exchange.failure = "operation_timeout";
  else if (result.failure) exchange.failure = "dispatch_failed";
  else if (result.response !== undefined) exchange.answer = result.response;
  return exchange;
}

/**
 * Sends an interaction and waits for the app's answer. `url` is where it goes over HTTP (a slash command's own
 * URL, the Interactivity Request URL or the Options Load URL); `acceptsResponse`, whether a Socket Mode ack
 * may carry an answer (slash commands, view submissions, options requests). Never throws.
 */
export function exchange(ctx: RequestContext, app: App, target: { url: string | undefined; envelope: Envelope; acceptsResponse: boolean }): Promise<Exchange> {
  return usesSocketMode(app) ? overSocket(ctx, app, target.envelope, target.acceptsResponse) : overHttp(ctx, app, target.url, target.envelope);
}
