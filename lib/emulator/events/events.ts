import { z } from "zod";
import { isAllowedRequestUrl } from "../apps/registry";
import { WebApiError } from "../core/errors";
import { signEventRequest, verificationToken } from "./event-signing";
import { workspaceOf } from "../store";
import { describeVerification, eventRequestUrlOf, isVerifiedRequestUrl } from "./url-verification";
import type { App, DeliverEvent, Installation, RequestContext } from "../types";
import { generalChannel, resolveChannel } from "../workspace/channels";
import { installingUserId, memberIndexOf } from "../workspace/members";
import { appendMessage } from "../workspace/messages";
import type { Channel, Message, Workspace } from "../workspace/workspace";

/**
 * The Events API, as far as the spec goes: `app_mention` events, delivered to the request URL an app
 * subscribed (manifest settings.event_subscriptions), signed with the app's signing secret the
 * platform's way, and retried when the app does not acknowledge in time.
 */

/** The platform waits 3 seconds for an acknowledgement. */
export const EVENT_TIMEOUT_MS = 3000;
/** The platform retries a failed delivery 3 times: nearly immediately, after 1 minute, after 5 minutes. */
export const EVENT_RETRY_DELAYS_MS = [1000, 60_000, 300_000] as const;
/** How many deliveries the admin state keeps. */
const KEPT_DELIVERIES = 200;
const MENTION = /<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g;

export type RetryReason = "http_timeout" | "http_error" | "connection_failed";

export interface DeliveryAttempt {
  /** 0 for the first attempt; X-Slack-Retry-Num of a retry. */
  retryNum: number;
  /** Wall-clock epoch ms. */
  at: number;
  durationMs: number;
  /** The app's HTTP status, when it answered. */
  status?: number;
  /** Why it counts as failed. */
  failure?: RetryReason;
}

export interface EventDelivery {
  eventId: string;
  eventType: "app_mention";
  appId: string;
  installationId: string;
  teamId: string;
  channel: string;
  /** The request URL: an app's own configuration, shown only on the development admin surface. */
  url: string;
  state: "pending" | "delivered" | "failed";
  /** Why nothing was sent: the request URL's verification, under way when the event happened, failed. */
  notSent?: "request_url_not_verified";
  attempts: DeliveryAttempt[];
  payload: Record<string, unknown>;
}

function nextEventId(ws: Workspace): string {
  ws.eventSeq += 1;
  const n = (Math.imul(ws.eventSeq, 0x2545f491) ^ ws.keys.add) >>> 0;
  return `Ev0${n.toString(36).toUpperCase().padStart(7, "0")}${ws.eventSeq.toString(36).toUpperCase()}`;
}

/**
 * Events reach an installation while it is installed: with token rotation, revoking a single token
 * leaves the installation (and its events) in place (spec 6); without rotation, auth.revoke revokes the
 * authorization, which the emulator records as an uninstall.
 */
function receivesEvents(installation: Installation): boolean {
  return !installation.uninstalled;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    (timer as { unref?: () => void }).unref?.();
  });
}

async function attempt(deliverEvent: DeliverEvent, url: string, app: App, body: string, retryNum: number, reason: RetryReason | undefined) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
    ...signEventRequest(app, body),
  };
  if (retryNum > 0 && reason) {
    headers["x-slack-retry-num"] = String(retryNum);
    headers["x-slack-retry-reason"] = reason;
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), EVENT_TIMEOUT_MS);
  (timer as { unref?: () => void }).unref?.();
  const started = Date.now();
  const result: DeliveryAttempt & { noRetry?: boolean } = { retryNum, at: started, durationMs: 0 };
  try {
    const response = await deliverEvent(url, { method: "POST", headers, body, signal: controller.signal, redirect: "manual" });
    result.status = response.status;
    if (response.status < 200 || response.status > 299) result.failure = "http_error";
    result.noRetry = response.headers.get("x-slack-no-retry") === "1";
    await response.body?.cancel().catch(() => undefined);
  } catch {
    result.failure = controller.signal.aborted ? "http_timeout" : "connection_failed";
  } finally {
    clearTimeout(timer);
  }
  result.durationMs = Date.now() - started;
  return result;
}

async function runDelivery(delivery: EventDelivery, app: App, deliverEvent: DeliverEvent): Promise<void> {
  if (!(await isVerifiedRequestUrl(app, delivery.url))) {
    delivery.state = "failed";
    delivery.notSent = "request_url_not_verified";
    return;
  }
  const body = JSON.stringify(delivery.payload);
  let reason: RetryReason | undefined;
  for (let retryNum = 0; retryNum <= EVENT_RETRY_DELAYS_MS.length; retryNum++) {
    if (retryNum > 0) await sleep(EVENT_RETRY_DELAYS_MS[retryNum - 1] as number);
    const { noRetry, ...result } = await attempt(deliverEvent, delivery.url, app, body, retryNum, reason);
    delivery.attempts.push(result);
    if (!result.failure) {
      delivery.state = "delivered";
      return;
    }
    reason = result.failure;
    // An app may ask the platform not to retry (X-Slack-No-Retry: 1).
    if (noRetry) break;
  }
  delivery.state = "failed";
}

function startDelivery(ctx: RequestContext, ws: Workspace, delivery: EventDelivery, app: App): void {
  ws.deliveries.push(delivery);
  if (ws.deliveries.length > KEPT_DELIVERIES) ws.deliveries.splice(0, ws.deliveries.length - KEPT_DELIVERIES);
  const running = runDelivery(delivery, app, ctx.options.deliverEvent).finally(() => ws.deliveriesInFlight.delete(running));
  ws.deliveriesInFlight.add(running);
}

/**
 * The platform delivers events only to a verified request URL. One whose verification is still under way
 * gets the event once it passes (the delivery waits for it); a failed one gets nothing.
 */
function mayReceiveAt(app: App, url: string): boolean {
  const verification = app.requestUrlVerification;
  return verification !== undefined && verification.url === url && verification.state !== "failed";
}

/** The bot user ids a message text mentions (`<@U…>` or `<@U…|name>`). */
function mentionedUserIds(text: string): Set<string> {
  return new Set([...text.matchAll(MENTION)].map((m) => m[1] as string));
}

/**
 * Sends `app_mention` to every installed app whose bot user the message mentions, that was granted
 * app_mentions:read, subscribes to app_mention, and is a member of the channel: the platform sends no
 * event to an app mentioned in a conversation it is not part of (posting there with chat:write.public
 * does not make it a member). Returns at once; deliveries run in the background.
 */
export function dispatchMentions(ctx: RequestContext, ws: Workspace, channel: Channel, message: Message): EventDelivery[] {
  const mentioned = mentionedUserIds(message.text);
  if (mentioned.size === 0) return [];
  const { state } = ctx;
  const started: EventDelivery[] = [];
  for (const installation of state.installations.values()) {
    if (installation.teamId !== ws.team.id) continue;
    if (!mentioned.has(installation.botUserId) || !installation.joinedChannels.has(channel.id)) continue;
    const app = state.apps.get(installation.appId);
    if (!app || !receivesEvents(installation)) continue;
    if (!installation.botScopes.includes("app_mentions:read") || !app.botEvents.includes("app_mention")) continue;
    const url = eventRequestUrlOf(app, ctx.options);
    if (!url || !isAllowedRequestUrl(ctx.options, url) || !mayReceiveAt(app, url)) continue;
    const event: Record<string, unknown> = {
      type: "app_mention",
      user: message.user,
      text: message.text,
      ts: message.ts,
      team: ws.team.id,
      channel: channel.id,
      event_ts: message.ts,
    };
    if (message.bot_id) event.bot_id = message.bot_id;
    const eventId = nextEventId(ws);
    const delivery: EventDelivery = {
      eventId,
      eventType: "app_mention",
      appId: app.id,
      installationId: installation.id,
      teamId: ws.team.id,
      channel: channel.id,
      url,
      state: "pending",
      attempts: [],
      payload: {
        token: verificationToken(app),
        team_id: ws.team.id,
        api_app_id: app.id,
        event,
        type: "event_callback",
        event_id: eventId,
        event_time: Math.floor(ctx.clock.now() / 1000),
        authorizations: [
          { enterprise_id: null, team_id: ws.team.id, user_id: installation.botUserId, is_bot: true, is_enterprise_install: false },
        ],
        is_ext_shared_channel: false,
      },
    };
    startDelivery(ctx, ws, delivery, app);
    started.push(delivery);
  }
  return started;
}

/** Resolves when every delivery under way (retries included) has finished. */
export async function settleEventDeliveries(ws: Workspace): Promise<void> {
  while (ws.deliveriesInFlight.size > 0) await Promise.allSettled([...ws.deliveriesInFlight]);
}

/** The body of POST {base}/admin/mention (snake_case, like the rest of the admin surface). */
export const MentionAppBody = z
  .object({
    /** The installation to mention; or `app_id` (that app's installation in the workspace). */
    installation_id: z.string().optional(),
    app_id: z.string().optional(),
    /** Channel id or name; default #general. */
    channel: z.string().optional(),
    /** Text after the mention; default a greeting. */
    text: z.string().max(40_000).optional(),
    /** The member who writes the message; default the workspace's primary owner. */
    user: z.string().optional(),
  })
  .refine((b) => b.installation_id !== undefined || b.app_id !== undefined, "give installation_id or app_id");

export type MentionAppRequest = z.infer<typeof MentionAppBody>;

export interface MentionAppResult {
  channel: string;
  ts: string;
  text: string;
  /** Event ids of the deliveries started (none when the app cannot receive app_mention). */
  event_ids: string[];
}

/**
 * The admin surface's "mention the app": a member invites the app to the channel (as `/invite @app`
 * does; the bot joins it) and posts `<@bot> text` there, as a person would in the client, and the
 * app_mention goes out like any other. An app whose request URL failed verification would get no event,
 * so nothing is posted: the answer is 409 request_url_not_verified, with the verification, until it is
 * verified again (POST /admin/apps/{app_id}/verify).
 */
export async function mentionApp(ctx: RequestContext, body: unknown): Promise<MentionAppResult> {
  const parsed = MentionAppBody.safeParse(body);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
    throw new WebApiError("invalid_arguments", { detail }, { status: 400 });
  }
  const request = parsed.data;
  const { state } = ctx;
  const installation = request.installation_id
    ? state.installations.get(request.installation_id)
    : [...state.installations.values()].find((i) => i.appId === request.app_id && i.teamId === state.workspace.team.id);
  if (!installation || installation.uninstalled) {
    throw new WebApiError("installation_not_found", {}, { status: 404 });
  }
  const ws = workspaceOf(state, installation.teamId);
  const channel = request.channel ? resolveChannel(ws, request.channel) : generalChannel(ws);
  if (!channel) throw new WebApiError("channel_not_found", {}, { status: 404 });
  if (channel.isArchived) throw new WebApiError("is_archived", {}, { status: 409 });
  const user = request.user ?? installingUserId(ws);
  if (memberIndexOf(ws, user) < 0) throw new WebApiError("user_not_found", {}, { status: 404 });
  const app = state.apps.get(installation.appId);
  const url = app && eventRequestUrlOf(app, ctx.options);
  if (app && url && !(await isVerifiedRequestUrl(app, url))) {
    throw new WebApiError("request_url_not_verified", { app_id: app.id, request_url_verification: describeVerification(app.requestUrlVerification) }, { status: 409 });
  }

  installation.joinedChannels.add(channel.id);
  const mention = `<@${installation.botUserId}>`;
  const rest = request.text?.trim() || "hello from the emulator";
  const text = rest.includes(mention) ? rest : `${mention} ${rest}`;
  const message = appendMessage(ws, channel.id, { text, user, via: "admin" }, ctx.clock.now());
  const deliveries = dispatchMentions(ctx, ws, channel, message);
  return { channel: channel.id, ts: message.ts, text, event_ids: deliveries.map((d) => d.eventId) };
}

/** The recent deliveries for the admin state, newest first (the payload's verification token left out). */
export function describeDeliveries(ws: Workspace) {
  return [...ws.deliveries].reverse().map((d) => ({
    event_id: d.eventId,
    event_type: d.eventType,
    app_id: d.appId,
    installation_id: d.installationId,
    channel: d.channel,
    url: d.url,
    state: d.state,
    not_sent: d.notSent ?? null,
    attempts: d.attempts.map((a) => ({
      retry_num: a.retryNum,
      at: new Date(a.at).toISOString(),
      duration_ms: a.durationMs,
      status: a.status ?? null,
      failure: a.failure ?? null,
    })),
    event: d.payload.event,
  }));
}
