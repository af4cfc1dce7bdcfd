/**
 * Event deliveries, as the platform makes them (spec 6, docs/spec/web-api.md, where it says "not shown":
 * docs/emulator.md): a signed POST to the app's request URL, 3 seconds to acknowledge, 3 retries with
 * X-Slack-Retry-Num and X-Slack-Retry-Reason unless the app answers X-Slack-No-Retry, and only to a
 * verified request URL. Each workspace's log (the deliveries the admin state shows, those still under way)
 * is kept here, in the emulator's state by team id: the workspace itself holds none.
 */
import { hubOf, type SocketHub } from "../socket-mode/hub";
import type { App, DeliverEvent, EmulatorState } from "../types";
import type { Workspace } from "../workspace/workspace";
import { signEventRequest } from "./event-signing";
import type { DeliveryAttempt, EventDelivery, EventLog, RetryReason } from "./types";
import { isVerifiedRequestUrl } from "./url-verification";
import { touch } from "../core/change-tracking";

/** The platform waits 3 seconds for an acknowledgement. */
export const EVENT_TIMEOUT_MS = 3000;
/** The platform retries a failed delivery 3 times: nearly immediately, after 1 minute, after 5 minutes. */
export const EVENT_RETRY_DELAYS_MS = [1000, 60_000, 300_000] as const;
/** How many deliveries the admin state keeps. */
const KEPT_DELIVERIES = 200;

/** The event log of a workspace, started at its first event. */
export function eventLogOf(state: EmulatorState, teamId: string): EventLog {
  let log = state.eventLogs.get(teamId);
  if (!log) {
    log = { deliveries: [], inFlight: new Set(), seq: 0 };
    state.eventLogs.set(teamId, log);
  }
  return log;
}

/** The next event id of a workspace, shaped like the platform's (`Ev0…`). */
export function nextEventId(log: EventLog, ws: Workspace): string {
  log.seq += 1;
  touch(log);
  const n = (Math.imul(log.seq, 0x2545f491) ^ ws.keys.add) >>> 0;
  return `Ev0${n.toString(36).toUpperCase().padStart(7, "0")}${log.seq.toString(36).toUpperCase()}`;
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
  const result: DeliveryAttempt & { failure?: RetryReason; noRetry?: boolean } = { retryNum, at: started, durationMs: 0 };
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

/**
 * A delivery over Socket Mode: the same payload in an `events_api` envelope on one of the app's connections,
 * the ack awaited as long as an HTTP answer is, and the same retries, `retry_attempt` and `retry_reason`
 * saying which and why (a fresh envelope id each time, the event id the same).
 */
async function runSocketDelivery(hub: SocketHub, delivery: EventDelivery): Promise<void> {
  let reason: string | undefined;
  for (let retryNum = 0; retryNum <= EVENT_RETRY_DELAYS_MS.length; retryNum++) {
    if (retryNum > 0) await sleep(EVENT_RETRY_DELAYS_MS[retryNum - 1] as number);
    const started = Date.now();
    const result = await hub.send(
      delivery.appId,
      () => ({ type: "events_api", payload: delivery.payload, accepts_response_payload: false, retry_attempt: retryNum, retry_reason: reason ?? "" }),
      EVENT_TIMEOUT_MS,
    );
    const attempted: DeliveryAttempt = { retryNum, at: started, durationMs: Date.now() - started, envelopeId: result.envelopeId };
    if (result.connectionId) attempted.connectionId = result.connectionId;
    if (result.failure) attempted.failure = result.failure;
    delivery.attempts.push(attempted);
    if (!result.failure) delivery.state = "delivered";
    touch(delivery);
    if (!result.failure) return;
    reason = result.failure;
  }
  delivery.state = "failed";
  touch(delivery);
}

async function runDelivery(state: EmulatorState, delivery: EventDelivery, app: App, deliverEvent: DeliverEvent): Promise<void> {
  if (delivery.via === "socket") return runSocketDelivery(hubOf(state), delivery);
  if (!(await isVerifiedRequestUrl(app, delivery.url))) {
    delivery.state = "failed";
    delivery.notSent = "request_url_not_verified";
    touch(delivery);
    return;
  }
  const body = JSON.stringify(delivery.payload);
  let reason: RetryReason | undefined;
  for (let retryNum = 0; retryNum <= EVENT_RETRY_DELAYS_MS.length; retryNum++) {
    if (retryNum > 0) await sleep(EVENT_RETRY_DELAYS_MS[retryNum - 1] as number);
    const { noRetry, ...result } = await attempt(deliverEvent, delivery.url, app, body, retryNum, reason);
    delivery.attempts.push(result);
    if (!result.failure) delivery.state = "delivered";
    touch(delivery);
    if (!result.failure) return;
    reason = result.failure;
    // An app may ask the platform not to retry (X-Slack-No-Retry: 1).
    if (noRetry) break;
  }
  delivery.state = "failed";
  touch(delivery);
}

/** Records a delivery in its workspace's log (the last few hundred are kept). */
export function recordDelivery(log: EventLog, delivery: EventDelivery): void {
  log.deliveries.push(delivery);
  if (log.deliveries.length > KEPT_DELIVERIES) log.deliveries.splice(0, log.deliveries.length - KEPT_DELIVERIES);
}

/**
 * Records a delivery in its workspace's log and runs it in the background (retries included); `onDone` hears
 * its outcome before settleEventDeliveries does.
 */
export function startDelivery(
  state: EmulatorState,
  log: EventLog,
  delivery: EventDelivery,
  app: App,
  deliverEvent: DeliverEvent,
  onDone?: (delivery: EventDelivery) => void,
): void {
  recordDelivery(log, delivery);
  const running = runDelivery(state, delivery, app, deliverEvent)
    .then(() => onDone?.(delivery))
    .finally(() => log.inFlight.delete(running));
  log.inFlight.add(running);
}

/** Resolves when every delivery under way (retries included), in every workspace, has finished. */
export async function settleEventDeliveries(state: EmulatorState): Promise<void> {
  const running = () => [...state.eventLogs.values()].flatMap((log) => [...log.inFlight]);
  for (let pending = running(); pending.length > 0; pending = running()) await Promise.allSettled(pending);
}

/** Records an interaction, already made (interactivity/), in its workspace's log beside the events: kept and saved alike. */
export function recordInteraction(state: EmulatorState, delivery: EventDelivery & { interaction: object }): void {
  recordDelivery(eventLogOf(state, delivery.teamId), delivery);
}

/** A workspace's recent event deliveries for the admin state, newest first (the payload's verification token left out). */
export function describeDeliveries(state: EmulatorState, teamId: string) {
  const events = (state.eventLogs.get(teamId)?.deliveries ?? []).filter((d) => d.interaction === undefined);
  return [...events].reverse().map((d) => ({
    event_id: d.eventId,
    event_type: d.eventType,
    app_id: d.appId,
    installation_id: d.installationId,
    channel: d.channel,
    url: d.url,
    via: d.via ?? "http",
    state: d.state,
    not_sent: d.notSent ?? null,
    attempts: d.attempts.map((a) => ({
      retry_num: a.retryNum,
      at: new Date(a.at).toISOString(),
      duration_ms: a.durationMs,
      status: a.status ?? null,
      failure: a.failure ?? null,
      ...(a.envelopeId ? { envelope_id: a.envelopeId, connection_id: a.connectionId ?? null } : {}),
    })),
    event: d.payload.event,
  }));
}
