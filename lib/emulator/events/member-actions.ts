/**
 * The admin surface acting as a member of a workspace, so that a test (or the console) can drive a person's
 * side and watch the events it causes reach apps:
 *
 * - POST {base}/admin/act/post `{"channel"?, "text", "thread_ts"?, "user"?, "team_id"?}`: a member posts (in a
 *   thread with thread_ts); the member must be in the conversation
 * - POST {base}/admin/act/dm `{"app_id", "text", "user"?, "team_id"?}`: a member writes to the app in their DM
 * - POST {base}/admin/act/react `{"channel", "ts", "name", "user"?, "team_id"?}`: a member reacts (again: removes)
 * - POST {base}/admin/act/open-home `{"app_id", "tab"?, "user"?, "team_id"?}`: a member opens the App Home
 * - POST {base}/admin/act/join-team `{"real_name", "email"?, "team_id"?}`: a person joins the workspace (team_join);
 *   they are in #general, as every member is
 * - POST {base}/admin/act/profile `{"real_name"?, "display_name"?, "title"?, "phone"?, "status_text"?, "status_emoji"?, "user"?, "team_id"?}`:
 *   a member changes their profile (user_change)
 *
 * `user` defaults to the workspace's primary owner. Each answers what it made and the event ids it started.
 */
import { z } from "zod";
import { parseAdminBody, requireTargetInstallation } from "../admin/admin-target";
import { WebApiError, jsonResponse } from "../core/errors";
import { touch } from "../core/change-tracking";
import type { Router } from "../core/router";
import { workspaceOf } from "../store";
import type { EmulatorState, RequestContext } from "../types";
import { postToChannel } from "../web-api/methods/chat";
import { generalChannel, resolveChannel, createConversation, findDirect } from "../workspace/channels";
import { addJoinedMember, botByUserId, installingUserId, memberAt, memberIndexOf } from "../workspace/members";
import { announceChange } from "../workspace/changes";
import { addMember, canSee, isMember } from "../workspace/membership";
import { findMessage } from "../workspace/messages";
import { memberPostContent } from "../workspace/rich-text";
import { appUserKey } from "../workspace/views";
import type { Channel, Workspace } from "../workspace/workspace";
import type { EventDelivery, EventLog } from "./types";
import { dispatchAppHomeOpened, dispatchReaction, eventTsAt } from "./workspace-events";
import { dispatchTeamJoin, dispatchUserChange } from "./workspace-change-events";
import { EDITABLE_PROFILE_FIELDS, editProfile } from "../workspace/profile-edits";

const Who = { user: z.string().optional(), team_id: z.string().optional() };
const PostBody = z.strictObject({ ...Who, channel: z.string().optional(), text: z.string().min(1).max(40_000), thread_ts: z.string().optional() });
const DmBody = z.strictObject({ ...Who, app_id: z.string(), text: z.string().min(1).max(40_000) });
const ReactBody = z.strictObject({ ...Who, channel: z.string(), ts: z.string(), name: z.string().regex(/^[a-z0-9_+'-]+$/, "an emoji name, without colons") });
const OpenHomeBody = z.strictObject({ ...Who, app_id: z.string(), tab: z.enum(["home", "messages"]).optional() });
/** A person's name as the workspace shows it: no control characters, bidirectional overrides, NUL or line breaks (as the console's timeline keeps names). */
const PERSON_NAME = /^[^\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]{1,80}$/u;
const JoinTeamBody = z.strictObject({
  team_id: z.string().optional(),
  real_name: z.string().trim().regex(PERSON_NAME, "a name of 1 to 80 characters, without control characters, bidirectional overrides or line breaks"),
  email: z.email().max(254).optional(),
});
const ProfileField = z.string().max(250).optional();
const ProfileBody = z
  .strictObject({
    ...Who,
    real_name: ProfileField,
    display_name: ProfileField,
    title: ProfileField,
    phone: ProfileField,
    status_text: z.string().max(100).optional(),
    status_emoji: z
      .string()
      .regex(/^(:[a-z0-9_+'-]+:)?$/, "an emoji as :name:, or empty")
      .optional(),
  })
  .refine((body) => EDITABLE_PROFILE_FIELDS.some((field) => body[field] !== undefined), "name at least one profile field to change");

function member(ws: Workspace, user: string | undefined): string {
  const id = user ?? installingUserId(ws);
  if (memberIndexOf(ws, id) < 0) throw new WebApiError("user_not_found", {}, { status: 404 });
  return id;
}

function conversation(ws: Workspace, idOrName: string | undefined): Channel {
  const channel = idOrName ? resolveChannel(ws, idOrName) : generalChannel(ws);
  if (!channel) throw new WebApiError("channel_not_found", {}, { status: 404 });
  if (channel.isArchived) throw new WebApiError("is_archived", {}, { status: 409 });
  return channel;
}

/** The member's DM with the app's bot user, opened if it is not yet. */
function directWithBot(ctx: RequestContext, ws: Workspace, user: string, botUserId: string): Channel {
  const directKey = [user, botUserId].sort().join(",");
  const existing = findDirect(ws, directKey);
  if (existing) return existing;
  const channel = createConversation(ws, { type: "im", name: "", creator: user, created: Math.floor(ctx.clock.now() / 1000), directKey });
  addMember(ctx.state, ws, channel, user);
  addMember(ctx.state, ws, channel, botUserId);
  return channel;
}

/**
 * The event ids a call started: the events the workspace's log gained after the last delivery it held before
 * (the log keeps its last few hundred, so a full log drops from its front as it gains). A callback that is no
 * event (app_rate_limited) has no event id to give.
 */
function startedSince(log: EventLog | undefined, last: EventDelivery | undefined): string[] {
  const deliveries = log?.deliveries ?? [];
  const from = last ? deliveries.lastIndexOf(last) + 1 : 0;
  return deliveries
    .slice(from)
    .filter((d) => d.payload.type === "event_callback")
    .map((d) => d.eventId);
}

async function withEvents(state: EmulatorState, teamId: string, act: () => Record<string, unknown>): Promise<Response> {
  const last = state.eventLogs.get(teamId)?.deliveries.at(-1);
  const result = act();
  return jsonResponse({ ok: true, ...result, event_ids: startedSince(state.eventLogs.get(teamId), last) });
}

async function read<T>(ctx: RequestContext, schema: z.ZodType<T>, parse: (text: string) => unknown): Promise<T> {
  return parseAdminBody(schema, parse(await ctx.request.text()));
}

export function registerMemberActionRoutes(router: Router, parse: (text: string) => unknown): void {
  router.post("/admin/act/post", async (ctx) => {
    const body = await read(ctx, PostBody, parse);
    const ws = workspaceOf(ctx.state, body.team_id);
    const user = member(ws, body.user);
    const channel = conversation(ws, body.channel);
    if (!isMember(ctx.state, ws, channel, user)) throw new WebApiError("not_in_channel", {}, { status: 409 });
    return withEvents(ctx.state, ws.team.id, () => {
      const message = postToChannel(ctx, ws, channel, { content: memberPostContent(body.text), user, threadTs: body.thread_ts, via: "admin" }, ctx.clock.now());
      return { channel: channel.id, ts: message.ts, ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}) };
    });
  });

  router.post("/admin/act/dm", async (ctx) => {
    const body = await read(ctx, DmBody, parse);
    const installation = requireTargetInstallation(ctx.state, body);
    const ws = workspaceOf(ctx.state, installation.teamId);
    const user = member(ws, body.user);
    return withEvents(ctx.state, ws.team.id, () => {
      const channel = directWithBot(ctx, ws, user, installation.botUserId);
      const message = postToChannel(ctx, ws, channel, { content: memberPostContent(body.text), user, via: "admin" }, ctx.clock.now());
      return { channel: channel.id, ts: message.ts };
    });
  });

  router.post("/admin/act/react", async (ctx) => {
    const body = await read(ctx, ReactBody, parse);
    const ws = workspaceOf(ctx.state, body.team_id);
    const user = member(ws, body.user);
    const channel = conversation(ws, body.channel);
    // reactions.add for this member: a private channel, an im or an mpim they are not in is channel_not_found.
    if (!canSee(ctx.state, ws, channel, user)) throw new WebApiError("channel_not_found", {}, { status: 404 });
    const message = findMessage(ws, channel.id, body.ts);
    if (!message) throw new WebApiError("message_not_found", {}, { status: 404 });
    return withEvents(ctx.state, ws.team.id, () => {
      const reactions = (message.reactions ??= []);
      const existing = reactions.find((r) => r.name === body.name);
      const added = !existing?.users.includes(user);
      if (!existing) reactions.push({ name: body.name, users: [user], count: 1 });
      else {
        existing.users = added ? [...existing.users, user] : existing.users.filter((u) => u !== user);
        existing.count = existing.users.length;
        if (existing.count === 0) message.reactions = reactions.filter((r) => r !== existing);
      }
      if (message.reactions?.length === 0) delete message.reactions;
      touch(message);
      dispatchReaction(ctx, ws, channel, message, { user, reaction: body.name, added, eventTs: eventTsAt(ctx.clock.now()) });
      return { channel: channel.id, ts: message.ts, reaction: body.name, added };
    });
  });

  router.post("/admin/act/open-home", async (ctx) => {
    const body = await read(ctx, OpenHomeBody, parse);
    const installation = requireTargetInstallation(ctx.state, body);
    const ws = workspaceOf(ctx.state, installation.teamId);
    const user = member(ws, body.user);
    return withEvents(ctx.state, ws.team.id, () => {
      const channel = directWithBot(ctx, ws, user, installation.botUserId);
      const viewId = ws.views.homes.get(appUserKey(installation.appId, user));
      const view = viewId ? ws.views.views.get(viewId) : undefined;
      const tab = body.tab ?? "home";
      dispatchAppHomeOpened(ctx, installation, { user, channel: channel.id, tab, view: view?.view, eventTs: eventTsAt(ctx.clock.now()) });
      return { channel: channel.id, tab };
    });
  });

  router.post("/admin/act/profile", async (ctx) => {
    const body = await read(ctx, ProfileBody, parse);
    const ws = workspaceOf(ctx.state, body.team_id);
    const user = member(ws, body.user);
    // A person edits their profile; a bot user's is its app's.
    if (botByUserId(ws, user)) throw new WebApiError("cannot_edit_bot_user", {}, { status: 409 });
    return withEvents(ctx.state, ws.team.id, () => {
      const changes = Object.fromEntries(EDITABLE_PROFILE_FIELDS.flatMap((field) => (body[field] === undefined ? [] : [[field, body[field]]])));
      editProfile(ws, user, changes, Math.floor(ctx.clock.now() / 1000));
      const record = memberAt(ws, memberIndexOf(ws, user), ctx.baseUrl);
      dispatchUserChange(ctx, ws, record);
      return { user: record };
    });
  });

  router.post("/admin/act/join-team", async (ctx) => {
    const body = await read(ctx, JoinTeamBody, parse);
    const ws = workspaceOf(ctx.state, body.team_id);
    return withEvents(ctx.state, ws.team.id, () => {
      const person = addJoinedMember(ws, { realName: body.real_name, ...(body.email ? { email: body.email } : {}) }, ctx.clock.now());
      addMember(ctx.state, ws, generalChannel(ws), person.userId);
      const record = memberAt(ws, person.index, ctx.baseUrl);
      // Every member's client learns of a new colleague (the Workspace page's people to act as).
      announceChange(ws, { type: "member_joined", user: person.userId, name: person.realName });
      dispatchTeamJoin(ctx, ws, record);
      return { user: record };
    });
  });
}
