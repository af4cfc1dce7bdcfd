import { workspaceOf } from "../store";
import { dispatchMentions } from "../events/app-mention";
import { dispatchMessagePosted } from "../events/workspace-events";
import { PlainTextError } from "../core/errors";
import { MAX_JSON_DEPTH, parseJsonWithin } from "../core/json-depth";
import { consumeRateLimit } from "../web-api/rate-limit";
import type { Installation, RequestContext } from "../types";
import { findChannel } from "../workspace/channels";
import { appendMessage } from "../workspace/messages";
import { validateBlocks } from "../blocks/validate";

/**
 * Incoming webhooks (spec 2.5 and 4.5, docs/spec/web-api.md): POST {base}/services/{team}/{hook}/{secret}
 * with a JSON body {text, blocks, attachments} (or a form field `payload` holding that JSON). The platform answers 200 with the
 * plain-text body `ok`, and its errors as plain text with a status: 400 invalid_payload or no_text,
 * 403 invalid_token, 404 no_service or channel_not_found, 410 channel_is_archived, 429 with Retry-After
 * when rate limited.
 */

/** The platform allows about one message per second per webhook, with short bursts. */
export const WEBHOOK_MESSAGES_PER_MINUTE = 60;

function findHook(ctx: RequestContext, teamId: string, hookId: string): Installation | undefined {
  for (const installation of ctx.state.installations.values()) {
    if (installation.teamId === teamId && installation.incomingWebhook?.hookId === hookId) return installation;
  }
  return undefined;
}

function secretsMatch(given: string, expected: string): boolean {
  if (given.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < given.length; i++) diff |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  return diff === 0;
}

async function readPayload(request: Request): Promise<Record<string, unknown>> {
  // Its size is bounded before it gets here (EmulatorOptions.maxBodyBytes.webhooks, 413 past it).
  const raw = await request.text();
  let json = raw;
  if ((request.headers.get("content-type") ?? "").toLowerCase().includes("application/x-www-form-urlencoded")) {
    json = new URLSearchParams(raw).get("payload") ?? "";
  }
  // A payload is an object whose fields (blocks) may nest MAX_JSON_DEPTH deep, as a chat.postMessage's.
  const read = parseJsonWithin(json, MAX_JSON_DEPTH + 1);
  if (!read.ok) throw new PlainTextError(400, "invalid_payload");
  const parsed = read.value;
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new PlainTextError(400, "invalid_payload");
  return parsed as Record<string, unknown>;
}

/** The platform's limit on a message's attachments, as for chat.postMessage (blocks: blocks/validate.ts). */
const MAX_ATTACHMENTS = 100;

/**
 * What the message holds: its text, and its blocks and attachments when they are non-empty arrays, kept as
 * posted as chat.postMessage keeps them (conversations.history and the admin state show them). Past the
 * limits the platform answers too_many_attachments (people meet it at 100 attachments, for example
 * https://github.com/containrrr/shoutrrr/issues/238) and invalid_blocks, as plain text.
 */
function messageContent(payload: Record<string, unknown>): { text: string; blocks?: unknown[]; attachments?: unknown[] } | undefined {
  const { text, blocks, attachments } = payload;
  if (text !== undefined && typeof text !== "string") throw new PlainTextError(400, "invalid_payload");
  const nonEmpty = (v: unknown): v is unknown[] => Array.isArray(v) && v.length > 0;
  if (nonEmpty(blocks) && validateBlocks(blocks, { surface: "message" }).length > 0) throw new PlainTextError(400, "invalid_blocks");
  if (nonEmpty(attachments) && attachments.length > MAX_ATTACHMENTS) throw new PlainTextError(400, "too_many_attachments");
  if (!((typeof text === "string" && text.trim() !== "") || nonEmpty(blocks) || nonEmpty(attachments))) return undefined;
  return { text: text ?? "", ...(nonEmpty(blocks) ? { blocks } : {}), ...(nonEmpty(attachments) ? { attachments } : {}) };
}

/**
 * Handles POST {base}/services/*. `rest` is the path after /services/. An uninstalled app's webhook is
 * gone (404 no_service), as the platform removes it with the installation.
 */
export async function handleIncomingWebhook(ctx: RequestContext, rest: string): Promise<Response> {
  const [teamId, hookId, secret, ...extra] = rest.split("/");
  if (!teamId || !hookId || !secret || extra.length > 0) throw new PlainTextError(404, "no_service");
  const installation = findHook(ctx, teamId, hookId);
  const hook = installation?.incomingWebhook;
  if (!installation || !hook || installation.uninstalled) throw new PlainTextError(404, "no_service");
  if (!secretsMatch(secret, hook.secret)) throw new PlainTextError(403, "invalid_token");

  const now = ctx.clock.now();
  if (ctx.state.rateLimitsEnabled) {
    const retryAfter = consumeRateLimit(ctx.state, `webhook:${hook.hookId}`, WEBHOOK_MESSAGES_PER_MINUTE, now);
    if (retryAfter > 0) {
      return new Response(JSON.stringify({ ok: false, error: "ratelimited" }), {
        status: 429,
        headers: { "content-type": "application/json; charset=utf-8", "retry-after": String(retryAfter) },
      });
    }
  }

  const content = messageContent(await readPayload(ctx.request));
  if (!content) throw new PlainTextError(400, "no_text");
  const ws = workspaceOf(ctx.state, installation.teamId);
  const channel = findChannel(ws, hook.channelId);
  if (!channel) throw new PlainTextError(404, "channel_not_found");
  if (channel.isArchived) throw new PlainTextError(410, "channel_is_archived");

  const message = appendMessage(
    ws,
    channel.id,
    {
      ...content,
      subtype: "bot_message",
      bot_id: installation.botId,
      app_id: installation.appId,
      via: "incoming-webhook",
    },
    now,
  );
  dispatchMentions(ctx, ws, channel, message);
  dispatchMessagePosted(ctx, ws, channel, message);
  return new Response("ok", { status: 200, headers: { "content-type": "text/plain; charset=utf-8" } });
}
