/**
 * One event to one installed app: the outer envelope the app reads (`event_callback` with `token`, `team_id`,
 * `api_app_id`, `event_id`, `event_time`, `event_context`, `authorizations`, `is_ext_shared_channel`),
 * recorded in its workspace's log and delivered the way the app chose (routing.ts), unless the platform's
 * rules on traffic hold it back (event-health.ts: the app's subscriptions disabled, or its hourly limit from the
 * workspace reached). Who may receive what (subscriptions, scopes, membership) is the caller's to decide.
 */
import { createHash } from "node:crypto";
import type { App, Installation, RequestContext } from "../types";
import type { Workspace } from "../workspace/workspace";
import { eventLogOf, nextEventId, recordDelivery, startDelivery } from "./deliveries";
import { admitEvent, recordOutcome } from "./event-health";
import { verificationToken } from "./event-signing";
import type { DeliveryRoute } from "./routing";
import type { EventDelivery } from "./types";

/** An opaque token naming where the event happened, as the platform's `event_context` is. */
function eventContext(teamId: string, appId: string, channel: string | undefined): string {
  const digest = createHash("sha256")
    .update(`${teamId}\0${appId}\0${channel ?? ""}`)
    .digest("base64url")
    .slice(0, 32);
  return `4-${digest}`;
}

export function emitEvent(
  ctx: RequestContext,
  ws: Workspace,
  /** `authorizedUser`: a user event's member, whom `authorizations` names (else the bot user). */
  target: { app: App; installation: Installation; route: DeliveryRoute; authorizedUser?: string },
  event: Record<string, unknown>,
): EventDelivery {
  const { app, installation, route } = target;
  const authorized = target.authorizedUser ?? installation.botUserId;
  const log = eventLogOf(ctx.state, ws.team.id);
  const eventId = nextEventId(log, ws);
  const channel = typeof event.channel === "string" ? event.channel : undefined;
  const delivery: EventDelivery = {
    eventId,
    eventType: String(event.type),
    appId: app.id,
    installationId: installation.id,
    teamId: ws.team.id,
    channel: channel ?? "",
    url: route.url,
    via: route.via,
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
        { enterprise_id: null, team_id: ws.team.id, user_id: authorized, is_bot: authorized === installation.botUserId, is_enterprise_install: false },
      ],
      is_ext_shared_channel: false,
      event_context: eventContext(ws.team.id, app.id, channel),
    },
  };
  const heldBack = admitEvent(ctx, ws, app, route);
  if (heldBack) {
    delivery.state = "failed";
    delivery.notSent = heldBack;
    recordDelivery(log, delivery);
    return delivery;
  }
  startDelivery(ctx.state, log, delivery, app, ctx.options.deliverEvent, (done) => recordOutcome(ctx, ws, app, route, done));
  return delivery;
}
