/**
 * response_urls: the platform hands one out with each slash command (`…/commands/T…/…`) and with each
 * interaction on a message (`…/actions/T…/…`). An app POSTs a message to it (JSON, or a form field `payload`
 * holding that JSON) up to 5 times within 30 minutes (message-answers.ts says what each does). Answers: 200
 * `{"ok": true}`; 404 `{"ok": false, "error": "used_url"}` after the fifth use, `expired_url` after 30 minutes
 * of the emulator's clock, `no_service` for a URL it never handed out (or forgot: lifecycle.ts); 400 `invalid_payload`, `no_text`.
 */
import { randomBytes } from "node:crypto";
import { WebApiError, jsonResponse } from "../core/errors";
import { MAX_JSON_DEPTH, parseJsonWithin } from "../core/json-depth";
import { findChannel } from "../workspace/channels";
import type { Installation, RequestContext } from "../types";
import { applyMessageAnswer, MessageAnswer } from "./message-answers";
import { RESPONSE_URL_LIFETIME_MS, RESPONSE_URL_USES, sweepResponseUrls } from "./lifecycle";
import { interactivityOf, type ResponseUrl } from "./side-state";

/** Hands out a response_url for an interaction in a conversation (from a message: `messageTs`). */
export function mintResponseUrl(
  ctx: RequestContext,
  init: { kind: ResponseUrl["kind"]; installation: Installation; channelId: string; userId: string; messageTs?: string },
): string {
  const { installation } = init;
  sweepResponseUrls(ctx.state, ctx.clock.now());
  const id = `${installation.teamId}/${randomBytes(5).readUIntBE(0, 5)}/${randomBytes(12).toString("base64url")}`;
  interactivityOf(ctx.state).responseUrls.set(`${init.kind}/${id}`, {
    id,
    kind: init.kind,
    teamId: installation.teamId,
    appId: installation.appId,
    installationId: installation.id,
    channelId: init.channelId,
    userId: init.userId,
    ...(init.messageTs ? { messageTs: init.messageTs } : {}),
    expiresAt: ctx.clock.now() + RESPONSE_URL_LIFETIME_MS,
    uses: 0,
  });
  return `${ctx.baseUrl}/${init.kind}/${id}`;
}

const refuse = (status: number, error: string) => jsonResponse({ ok: false, error }, status);

async function readAnswer(request: Request): Promise<MessageAnswer | undefined> {
  let raw = await request.text();
  if ((request.headers.get("content-type") ?? "").toLowerCase().includes("application/x-www-form-urlencoded"))
    raw = new URLSearchParams(raw).get("payload") ?? "";
  const read = parseJsonWithin(raw, MAX_JSON_DEPTH + 1);
  if (!read.ok) return undefined;
  const parsed = MessageAnswer.safeParse(read.value);
  return parsed.success ? parsed.data : undefined;
}

/** POST {base}/commands/… and {base}/actions/…: a message to the member's conversation. */
export async function handleResponseUrl(ctx: RequestContext, kind: ResponseUrl["kind"], id: string): Promise<Response> {
  const entry = interactivityOf(ctx.state).responseUrls.get(`${kind}/${id}`);
  if (!entry) return refuse(404, "no_service");
  if (ctx.clock.now() >= entry.expiresAt) return refuse(404, "expired_url");
  if (entry.uses >= RESPONSE_URL_USES) return refuse(404, "used_url");
  const answer = await readAnswer(ctx.request);
  if (!answer) return refuse(400, "invalid_payload");
  const installation = ctx.state.installations.get(entry.installationId);
  const ws = ctx.state.workspaces.get(entry.teamId);
  const channel = ws ? findChannel(ws, entry.channelId) : undefined;
  if (!installation || installation.uninstalled || !ws) return refuse(404, "no_service");
  if (!channel) return refuse(404, "channel_not_found");
  try {
    applyMessageAnswer(ctx, ws, { installation, channel, userId: entry.userId, originalTs: entry.messageTs }, answer);
  } catch (error) {
    if (error instanceof WebApiError) return refuse(error.status ?? 400, error.code);
    throw error;
  }
  entry.uses += 1;
  return jsonResponse({ ok: true });
}
