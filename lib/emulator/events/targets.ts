/**
 * Who receives an event: each installed app of the workspace that subscribes to it, as a bot event (its
 * manifest's `bot_events`: the installation was granted one of the scopes it needs and, for a conversation's
 * event, its bot user is in the conversation) or as a user event (`user_events`: a member who installed it
 * with user scopes holds an active user token with one of those scopes and, for a conversation's event, is
 * in the conversation). One delivery per app, as on the platform; its `authorizations` names the bot user
 * when the bot may see the event, else the member.
 */
import type { App, EmulatorState, Installation, RequestContext } from "../types";
import { installationTokens, tokenState } from "../tokens/tokens";
import { isMember } from "../workspace/membership";
import type { Channel, Workspace } from "../workspace/workspace";
import { emitEvent } from "./emit";
import { deliveryRouteOf, type DeliveryRoute } from "./routing";
import type { EventDelivery } from "./types";

export interface Target {
  app: App;
  installation: Installation;
  route: DeliveryRoute;
  /** The member a user event is for (absent: the bot user). */
  authorizedUser?: string;
}

export interface TargetNeed {
  /** The subscription's name (`message.channels`, `reaction_added`, …). */
  event: string;
  /** One of them is needed, by the bot or by the member's user token; none: no scope needed. */
  scopes: string[];
  /** A conversation's event reaches only those in it. */
  channel?: Channel;
  /** false: a bot event only, whatever a manifest's user_events says. */
  userEvent?: boolean;
}

/** The members holding an active user token of the installation (each who installed with user scopes keeps theirs). */
function userTokenHolders(state: EmulatorState, installation: Installation, now: number): string[] {
  const holders = new Set<string>();
  for (const token of installationTokens(state, installation.id)) {
    if (token.kind !== "user") continue;
    if (tokenState(token, now) === "active") holders.add(token.userId ?? installation.authedUserId);
  }
  return [...holders];
}

function botMay(state: EmulatorState, ws: Workspace, app: App, installation: Installation, need: TargetNeed): boolean {
  if (!app.botEvents.includes(need.event)) return false;
  if (need.scopes.length > 0 && !need.scopes.some((s) => installation.botScopes.includes(s))) return false;
  return !need.channel || isMember(state, ws, need.channel, installation.botUserId);
}

function userWhoMay(ctx: RequestContext, ws: Workspace, app: App, installation: Installation, need: TargetNeed): string | undefined {
  if (need.userEvent === false || !(app.userEvents ?? []).includes(need.event)) return undefined;
  if (need.scopes.length > 0 && !need.scopes.some((s) => installation.userScopes.includes(s))) return undefined;
  return userTokenHolders(ctx.state, installation, ctx.clock.now()).find((user) => !need.channel || isMember(ctx.state, ws, need.channel, user));
}

/** The installations of a workspace that receive an event now. */
export function targets(ctx: RequestContext, ws: Workspace, need: TargetNeed): Target[] {
  const found: Target[] = [];
  for (const installation of ctx.state.installations.values()) {
    if (installation.teamId !== ws.team.id || installation.uninstalled) continue;
    const app = ctx.state.apps.get(installation.appId);
    if (!app) continue;
    const asBot = botMay(ctx.state, ws, app, installation, need);
    const user = asBot ? undefined : userWhoMay(ctx, ws, app, installation, need);
    if (!asBot && !user) continue;
    const route = deliveryRouteOf(app, ctx.options);
    if (route) found.push({ app, installation, route, ...(user ? { authorizedUser: user } : {}) });
  }
  return found;
}

export function send(ctx: RequestContext, ws: Workspace, found: Target[], event: (target: Target) => Record<string, unknown>): EventDelivery[] {
  return found.map((target) => emitEvent(ctx, ws, target, event(target)));
}
