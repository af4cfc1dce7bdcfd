/**
 * The platform's rules on an app's event traffic, as its `app_rate_limited` page gives them:
 *
 * - Rate limit: an app receives at most 30,000 events an hour from one workspace. Past that, events from the
 *   workspace are not sent (each is recorded, `not_sent: "app_rate_limited"`), and the app gets one
 *   `app_rate_limited` callback naming the minute it became limited, then again each time it becomes limited anew.
 * - Disabling: an app that does not answer HTTP 200 to at least 5% of its deliveries in the past 60 minutes has
 *   its event subscriptions disabled. The page is silent on how many deliveries it judges at least; the emulator
 *   judges none before DISABLE_MIN_DELIVERIES have finished in the hour (a delivery finishes once, after its
 *   retries: delivered, or failed). A disabled app gets an `app_rate_limited` callback (the page: "when your
 *   app's event subscriptions are rate limited or disabled"), and no event (`not_sent: "app_disabled"`) until it
 *   is enabled again: from the admin surface (`POST {base}/admin/apps/{app_id}/events/enable`), as from the
 *   app's settings on the platform.
 *
 * Both count on the emulator's clock, by the minute, so a test moves time instead of waiting. The counts are the
 * process's own and belong to the event logs they count: a reset (which makes new logs) starts them afresh.
 */
import { WebApiError, jsonResponse } from "../core/errors";
import { touch } from "../core/change-tracking";
import type { Router } from "../core/router";
import type { App, EmulatorState, RequestContext } from "../types";
import type { Workspace } from "../workspace/workspace";
import { eventLogOf, nextEventId, startDelivery } from "./deliveries";
import { verificationToken } from "./event-signing";
import type { DeliveryRoute } from "./routing";
import type { EventDelivery } from "./types";

/** Events an app may receive from one workspace in an hour. */
export const EVENTS_PER_HOUR = 30_000;
/** Below this share of successful deliveries in the hour, the app's event subscriptions are disabled. */
export const DISABLE_BELOW_SHARE = 0.05;
/** The platform is silent on it: fewer finished deliveries in the hour are not judged. */
export const DISABLE_MIN_DELIVERIES = 100;
const MINUTE_MS = 60_000;
const WINDOW_MINUTES = 60;

/** Counts by minute (the clock's epoch minute). */
type Minutes = Map<number, { count: number; ok: number }>;

interface Health {
  /** Events admitted, by `${team}\0${app}`. */
  admitted: Map<string, Minutes>;
  /** Deliveries finished, by app id. */
  finished: Map<string, Minutes>;
  /** The minute a workspace's events to an app became limited (the callback sent), while they are. */
  limitedAt: Map<string, number>;
}

const HEALTH = new WeakMap<EmulatorState["eventLogs"], Health>();

function healthOf(state: EmulatorState): Health {
  let health = HEALTH.get(state.eventLogs);
  if (!health) {
    health = { admitted: new Map(), finished: new Map(), limitedAt: new Map() };
    HEALTH.set(state.eventLogs, health);
  }
  return health;
}

/** The sums over the 60 minutes up to `minute` (older minutes are dropped as they pass). */
function inWindow(minutes: Minutes, minute: number): { count: number; ok: number } {
  const sum = { count: 0, ok: 0 };
  for (const [at, counts] of minutes) {
    if (at <= minute - WINDOW_MINUTES) minutes.delete(at);
    else {
      sum.count += counts.count;
      sum.ok += counts.ok;
    }
  }
  return sum;
}

function bump(table: Map<string, Minutes>, key: string, minute: number, ok: boolean): Minutes {
  let minutes = table.get(key);
  if (!minutes) table.set(key, (minutes = new Map()));
  const counts = minutes.get(minute) ?? { count: 0, ok: 0 };
  counts.count += 1;
  if (ok) counts.ok += 1;
  minutes.set(minute, counts);
  return minutes;
}

/**
 * The `app_rate_limited` callback: no inner event, no `event_callback` wrapper, sent the way the app's events go
 * (to its request URL, or in an `events_api` envelope over Socket Mode), with the usual retries.
 */
function sendRateLimited(ctx: RequestContext, ws: Workspace, app: App, route: DeliveryRoute, minute: number): void {
  const log = eventLogOf(ctx.state, ws.team.id);
  const delivery: EventDelivery = {
    eventId: nextEventId(log, ws),
    eventType: "app_rate_limited",
    appId: app.id,
    installationId: "",
    teamId: ws.team.id,
    channel: "",
    url: route.url,
    via: route.via,
    state: "pending",
    attempts: [],
    payload: { token: verificationToken(app), type: "app_rate_limited", team_id: ws.team.id, minute_rate_limited: minute * 60, api_app_id: app.id },
  };
  startDelivery(ctx.state, log, delivery, app, ctx.options.deliverEvent);
}

/**
 * Whether an event may go to the app now; counts it when it may. Answers why not: its subscriptions are
 * disabled, or it had its 30,000 events from this workspace in the hour (the callback sent when that starts).
 */
export function admitEvent(ctx: RequestContext, ws: Workspace, app: App, route: DeliveryRoute): "app_disabled" | "app_rate_limited" | undefined {
  if (app.eventsDisabled) return "app_disabled";
  const health = healthOf(ctx.state);
  const key = `${ws.team.id}\0${app.id}`;
  const minute = Math.floor(ctx.clock.now() / MINUTE_MS);
  const admitted = health.admitted.get(key);
  if (admitted && inWindow(admitted, minute).count >= EVENTS_PER_HOUR) {
    if (!health.limitedAt.has(key)) {
      health.limitedAt.set(key, minute);
      sendRateLimited(ctx, ws, app, route, minute);
    }
    return "app_rate_limited";
  }
  health.limitedAt.delete(key);
  bump(health.admitted, key, minute, true);
  return undefined;
}

/** Counts a finished delivery and disables the app's event subscriptions when its hour mostly failed. */
export function recordOutcome(ctx: RequestContext, ws: Workspace, app: App, route: DeliveryRoute, delivery: EventDelivery): void {
  if (delivery.notSent) return;
  const health = healthOf(ctx.state);
  const minute = Math.floor(ctx.clock.now() / MINUTE_MS);
  const hour = inWindow(bump(health.finished, app.id, minute, delivery.state === "delivered"), minute);
  // The app as the state holds it now (a manifest update replaces the record).
  const current = ctx.state.apps.get(app.id);
  if (!current || current.eventsDisabled || hour.count < DISABLE_MIN_DELIVERIES || hour.ok >= hour.count * DISABLE_BELOW_SHARE) return;
  current.eventsDisabled = { at: ctx.clock.now(), reason: "delivery_failures", attempted: hour.count, delivered: hour.ok };
  touch(current);
  sendRateLimited(ctx, ws, current, route, minute);
}

/** `POST {base}/admin/apps/{app_id}/events/enable`: turns a disabled app's event subscriptions back on. */
export function registerEventHealthRoutes(router: Router): void {
  router.post("/admin/apps/:app_id/events/enable", (ctx, params) => {
    const app = ctx.state.apps.get(params.app_id ?? "");
    if (!app) throw new WebApiError("app_not_found", {}, { status: 404 });
    const wasDisabled = app.eventsDisabled !== undefined;
    delete app.eventsDisabled;
    touch(app);
    // A fresh hour: the failures that disabled it are not judged again.
    healthOf(ctx.state).finished.delete(app.id);
    return jsonResponse({ ok: true, app_id: app.id, was_disabled: wasDisabled });
  });
}
