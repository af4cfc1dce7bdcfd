/**
 * What every interaction shares: who acts (a member of the workspace), where (a conversation, a message the
 * app posted, one of its views), the pieces of a payload the platform repeats in each (`user`, `team`,
 * `channel`, `token`, `api_app_id`), and the trigger id each interaction mints (workspace/views.ts: once, 3 s).
 */
import { WebApiError } from "../core/errors";
import { verificationToken } from "../events/event-signing";
import type { EmulatorState, Installation, RequestContext, App } from "../types";
import { resolveChannel, generalChannel } from "../workspace/channels";
import { botByUserId, installingUserId, memberAt, memberIndexOf } from "../workspace/members";
import { isDirect, isMember } from "../workspace/membership";
import { findMessage } from "../workspace/messages";
import { appUserKey, issueTrigger, type StoredView } from "../workspace/views";
import type { Channel, Message, Workspace } from "../workspace/workspace";
import { interactivityOf, type EphemeralMessage } from "./side-state";

type Json = Record<string, unknown>;

/** The workspace an admin call names (default the first): 404 team_not_found for one that does not exist. */
export function adminWorkspace(state: EmulatorState, teamId: string | undefined | null): Workspace {
  const ws = teamId === undefined || teamId === null ? state.workspace : state.workspaces.get(teamId);
  if (!ws) throw new WebApiError("team_not_found", {}, { status: 404 });
  return ws;
}

/** The member acting (default the workspace's primary owner): 404 user_not_found for anyone else. */
export function actingMember(ws: Workspace, user: string | undefined): string {
  const id = user ?? installingUserId(ws);
  const index = memberIndexOf(ws, id);
  // A person: a generated member or one who joined since (POST /admin/act/join-team), not an app's bot user.
  if (index < 0 || (index >= ws.userCount && botByUserId(ws, id))) throw new WebApiError("user_not_found", {}, { status: 404 });
  return id;
}

/** A conversation the member is in (default #general). */
export function memberConversation(state: EmulatorState, ws: Workspace, user: string, idOrName: string | undefined): Channel {
  const channel = idOrName ? resolveChannel(ws, idOrName) : generalChannel(ws);
  if (!channel) throw new WebApiError("channel_not_found", {}, { status: 404 });
  if (channel.isArchived) throw new WebApiError("is_archived", {}, { status: 409 });
  if (!isMember(state, ws, channel, user)) throw new WebApiError("not_in_channel", {}, { status: 409 });
  return channel;
}

/** The app's installation in the workspace: 404 installation_not_found if it has none. */
export function installationIn(state: EmulatorState, ws: Workspace, appId: string): Installation {
  const installation = [...state.installations.values()].find((i) => i.appId === appId && i.teamId === ws.team.id && !i.uninstalled);
  if (!installation) throw new WebApiError("installation_not_found", {}, { status: 404 });
  return installation;
}

export function requireApp(state: EmulatorState, appId: string): App {
  const app = state.apps.get(appId);
  if (!app) throw new WebApiError("app_not_found", {}, { status: 404 });
  return app;
}

export function userPart(ctx: RequestContext, ws: Workspace, userId: string): Json {
  const name = String(memberAt(ws, memberIndexOf(ws, userId), ctx.baseUrl).name ?? "");
  return { id: userId, username: name, name, team_id: ws.team.id };
}

export const teamPart = (ws: Workspace): Json => ({ id: ws.team.id, domain: ws.team.domain });

export const channelPart = (channel: Channel): Json => ({ id: channel.id, name: isDirect(channel) ? "directmessage" : channel.name });

/** The fields every interactive payload opens with. */
export function commonPart(ctx: RequestContext, ws: Workspace, app: App, userId: string): Json {
  return {
    user: userPart(ctx, ws, userId),
    api_app_id: app.id,
    token: verificationToken(app),
    team: teamPart(ws),
    enterprise: null,
    is_enterprise_install: false,
  };
}

/** A trigger id for the app and member, from inside a view when the interaction happened in one. */
export function mintTrigger(ctx: RequestContext, ws: Workspace, appId: string, userId: string, viewId?: string): string {
  return issueTrigger(ws.views, { appId, userId, ...(viewId ? { viewId } : {}) }, ctx.clock.now()).id;
}

/** An action_ts / action time as the platform writes it (epoch seconds, six decimals). */
export const actionTs = (nowMs: number): string => (nowMs / 1000).toFixed(6);

export type Place =
  | { kind: "message"; channel: Channel; message: Message; ephemeral: false; installation: Installation }
  | { kind: "message"; channel: Channel; message: EphemeralMessage; ephemeral: true; installation: Installation }
  | { kind: "view"; view: StoredView; installation: Installation };

/**
 * Where a member interacts: a message of a conversation they are in (`channel` and `ts`; one of the app's, or
 * an ephemeral message it showed them), or one of their views (`view_id`: an open modal or their App Home).
 */
export function locate(ctx: RequestContext, ws: Workspace, userId: string, where: { channel?: string; ts?: string; view_id?: string }): Place {
  const { state } = ctx;
  if (where.view_id !== undefined) {
    const view = ws.views.views.get(where.view_id);
    const open = view && (view.type === "home" || (ws.views.stacks.get(appUserKey(view.appId, userId)) ?? []).includes(view.id));
    if (!view || view.userId !== userId || !open) throw new WebApiError("view_not_found", {}, { status: 404 });
    return { kind: "view", view, installation: installationIn(state, ws, view.appId) };
  }
  if (where.channel === undefined || where.ts === undefined) {
    throw new WebApiError("invalid_arguments", { detail: "give view_id, or channel and ts of a message" }, { status: 400 });
  }
  const channel = memberConversation(state, ws, userId, where.channel);
  const ephemeral = interactivityOf(state).ephemerals.get(`${channel.id}:${where.ts}`);
  if (ephemeral && ephemeral.user === userId) {
    return { kind: "message", channel, message: ephemeral, ephemeral: true, installation: installationIn(state, ws, ephemeral.appId) };
  }
  const message = findMessage(ws, channel.id, where.ts);
  if (!message) throw new WebApiError("message_not_found", {}, { status: 404 });
  if (!message.app_id)
    throw new WebApiError("not_an_app_message", { message: "Only an app's messages carry interactive elements that reach an app." }, { status: 409 });
  return { kind: "message", channel, message, ephemeral: false, installation: installationIn(state, ws, message.app_id) };
}
