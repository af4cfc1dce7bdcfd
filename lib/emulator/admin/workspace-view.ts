/**
 * What a member sees of a workspace, for the console's Workspace page (what GET {base}/admin/state lacks):
 *
 * - GET {base}/admin/workspace/member?team_id=&user=&people=: the member, the people the page offers to act as (the first 12, or `people` of them, and the latest 50 who joined), the
 *   installed apps (bot user, slash commands with their usage hints, shortcuts), and the conversations the
 *   member sees: public channels, and the private ones, DMs and group DMs they are in
 * - GET {base}/admin/workspace/history?team_id=&user=&channel=&cursor=&limit=&message=: a page of a
 *   conversation's messages with their thread replies (oldest first): the newest `limit` top-level messages
 *   (HISTORY_DEFAULT_LIMIT), then older pages by `cursor` (conversations.history's cursor: has_more and
 *   response_metadata.next_cursor), to the first message. `message=<ts>` answers the one thread that message
 *   is in (the page reads again what the live stream says changed). The first page also carries the ephemeral
 *   messages shown to that member there; every page the names of everyone who wrote in it.
 *
 * `user` defaults to the workspace's primary owner and must be a person of the workspace.
 */
import { jsonResponse, WebApiError } from "../core/errors";
import type { Router } from "../core/router";
import type { EmulatorState, RequestContext } from "../types";
import { slashCommandsOf, shortcutsOf } from "../interactivity/app-config";
import { actingMember, adminWorkspace } from "../interactivity/parts";
import { interactivityOf } from "../interactivity/side-state";
import { wireMessage } from "../web-api/methods/chat";
import { findChannel } from "../workspace/channels";
import { botByUserId, memberAt, memberIdAt, memberIndexOf } from "../workspace/members";
import { canSee, conversationType, isMember } from "../workspace/membership";
import { channelMessages } from "../workspace/messages";
import { resolvePage } from "../pagination/pagination";
import { describePeople } from "./workspace-people";
import type { Channel, Message, Workspace } from "../workspace/workspace";

/** How many people the page offers to act as at first (more are added one by one). */
const PEOPLE_OFFERED = 12;
/** How many of the people who joined the workspace (POST /admin/act/join-team) are offered too, the latest. */
const JOINED_OFFERED = 50;
const MAX_PEOPLE_OFFERED = 200;
/** How many top-level messages a page of history holds unless `limit` says (1..1000, as conversations.history). */
const HISTORY_DEFAULT_LIMIT = 100;
/** Separates this history's short-page pattern from the Web API's (pagination.ts). */
const HISTORY_STREAM = 231;
/** How many conversations one read lists at most. */
const CONVERSATIONS_LIMIT = 500;

function nameOf(ws: Workspace, userId: string, baseUrl: string): string {
  const bot = botByUserId(ws, userId);
  if (bot) return bot.appName;
  const index = memberIndexOf(ws, userId);
  return index < 0 ? userId : String(memberAt(ws, index, baseUrl).real_name);
}

function installedApps(state: EmulatorState, ws: Workspace) {
  return [...state.installations.values()]
    .filter((i) => i.teamId === ws.team.id && !i.uninstalled)
    .flatMap((i) => {
      const app = state.apps.get(i.appId);
      if (!app) return [];
      return [
        {
          app_id: app.id,
          name: app.name,
          bot_user_id: i.botUserId,
          commands: slashCommandsOf(app).map((c) => ({ command: c.command, description: c.description ?? "", usage_hint: c.usage_hint ?? "" })),
          shortcuts: shortcutsOf(app).map((s) => ({
            name: s.name ?? s.callback_id,
            type: s.type,
            callback_id: s.callback_id,
            description: s.description ?? "",
          })),
        },
      ];
    });
}

function describeConversation(state: EmulatorState, ws: Workspace, channel: Channel, user: string, baseUrl: string) {
  const type = conversationType(channel);
  const base = { id: channel.id, type, is_member: isMember(state, ws, channel, user), is_archived: channel.isArchived };
  if (type !== "im" && type !== "mpim") return { ...base, name: channel.name };
  // A DM is named by the others in it, as a client names it.
  const others = (channel.directKey ?? "").split(",").filter((id) => id !== "" && id !== user);
  return { ...base, name: others.map((id) => nameOf(ws, id, baseUrl)).join(", ") || "you", with: others };
}

function describeMember(ctx: RequestContext) {
  const query = new URL(ctx.request.url).searchParams;
  const ws = adminWorkspace(ctx.state, query.get("team_id"));
  const user = actingMember(ws, query.get("user") ?? undefined);
  // `people=N` offers more (the page's "Add a member"), up to MAX_PEOPLE_OFFERED.
  const asked = Number(query.get("people") ?? PEOPLE_OFFERED);
  const offered = Number.isInteger(asked) ? Math.min(Math.max(asked, 1), MAX_PEOPLE_OFFERED) : PEOPLE_OFFERED;
  const people = Array.from({ length: Math.min(offered, ws.userCount) }, (_, i) => memberIdAt(ws, i));
  // Those who joined since the workspace was made: a person added from the page is someone to act as at once.
  for (const joined of (ws.joined ?? []).slice(-JOINED_OFFERED)) people.push(joined.userId);
  if (!people.includes(user)) people.push(user);
  const conversations = ws.channels
    .filter((c) => canSee(ctx.state, ws, c, user))
    .slice(0, CONVERSATIONS_LIMIT)
    .map((c) => describeConversation(ctx.state, ws, c, user, ctx.baseUrl));
  return {
    team: { id: ws.team.id, name: ws.team.name },
    user,
    people: people.map((id) => ({ id, name: nameOf(ws, id, ctx.baseUrl) })),
    member_count: ws.userCount + (ws.joined?.length ?? 0),
    apps: installedApps(ctx.state, ws),
    conversations,
  };
}

const isTopLevel = (m: Message) => m.thread_ts === undefined || m.thread_ts === m.ts;

/**
 * A conversation's log as its history reads it: the top-level messages newest first, where each ts is in the
 * log and in that list, and each thread's replies oldest first. Made once for each state of the log and read
 * by every page of it (scrolling up a long channel reads page after page of an unchanged log): walking the log
 * for each page took 6.9 ms a page at 10,000 messages (docs/benchmarks.md, issue 41's fifth pass).
 */
interface LogIndex {
  /** The log's length and newest ts when this was made: a message is appended with a ts above every other, or removed, so any change moves one of them. */
  length: number;
  newest: string | undefined;
  top: Message[];
  /** A top-level message's place in `top`, by ts. */
  topAt: Map<string, number>;
  /** Every message's place in the log, by ts. */
  logAt: Map<string, number>;
  /** Each thread's replies, oldest first, by its parent's ts. */
  replies: Map<string, Message[]>;
}

const LOG_INDEXES = new WeakMap<readonly Message[], LogIndex>();

function logIndex(all: readonly Message[]): LogIndex {
  const newest = all.at(-1)?.ts;
  const made = LOG_INDEXES.get(all);
  if (made && made.length === all.length && made.newest === newest) return made;
  const index: LogIndex = { length: all.length, newest, top: [], topAt: new Map(), logAt: new Map(), replies: new Map() };
  for (let i = all.length - 1; i >= 0; i--) {
    const m = all[i] as Message;
    index.logAt.set(m.ts, i);
    if (isTopLevel(m)) {
      index.topAt.set(m.ts, index.top.length);
      index.top.push(m);
    } else {
      const thread = index.replies.get(m.thread_ts as string);
      if (thread) thread.push(m);
      else index.replies.set(m.thread_ts as string, [m]);
    }
  }
  for (const thread of index.replies.values()) thread.reverse();
  LOG_INDEXES.set(all, index);
  return index;
}

/**
 * The messages a read answers, oldest first: the page's top-level messages (newest first as
 * conversations.history pages them, by `cursor`/`limit`) with their threads' replies, or with `message`, only
 * the thread that message is in; and where the next page starts.
 */
function historyPage(ctx: RequestContext, ws: Workspace, channel: Channel, params: Record<string, string>): { messages: Message[]; nextCursor: string } {
  const all = channelMessages(ws, channel.id);
  const index = logIndex(all);
  let top: Message[];
  let nextCursor = "";
  if (params.message !== undefined) {
    const at = index.logAt.get(params.message);
    const found = at === undefined ? undefined : all[at];
    const root = found ? (found.thread_ts ?? found.ts) : undefined;
    const parent = root === undefined ? undefined : index.top[index.topAt.get(root) ?? -1];
    top = parent ? [parent] : [];
  } else {
    const page = resolvePage({
      ws,
      scope: { method: `conversations.history:${channel.id}`, kind: "message" },
      stream: HISTORY_STREAM,
      total: index.top.length,
      params,
      defaultLimit: HISTORY_DEFAULT_LIMIT,
      idAt: (at) => (index.top[at] as Message).ts,
      indexOf: (ts) => index.topAt.get(ts) ?? -1,
      nowMs: ctx.clock.now(),
      cursorTtlSeconds: ctx.options.cursorTtlSeconds,
    });
    top = index.top.slice(page.start, page.end);
    nextCursor = page.nextCursor;
  }
  // Each parent with its replies, in the log's order (as the page shows them).
  const messages = top.flatMap((m) => [m, ...(index.replies.get(m.ts) ?? [])]);
  messages.sort((a, b) => (index.logAt.get(a.ts) as number) - (index.logAt.get(b.ts) as number));
  return { messages, nextCursor };
}

function describeHistory(ctx: RequestContext) {
  const query = new URL(ctx.request.url).searchParams;
  const ws = adminWorkspace(ctx.state, query.get("team_id"));
  const user = actingMember(ws, query.get("user") ?? undefined);
  const channel = findChannel(ws, query.get("channel") ?? "");
  if (!channel || !canSee(ctx.state, ws, channel, user)) throw new WebApiError("channel_not_found", {}, { status: 404 });
  const params = Object.fromEntries(["cursor", "limit", "message"].flatMap((k) => (query.has(k) ? [[k, query.get(k) ?? ""]] : [])));
  const page = historyPage(ctx, ws, channel, params);
  const messages = page.messages.map(wireMessage);
  const { nextCursor } = page;
  const first = params.cursor === undefined && params.message === undefined;
  const ephemerals = [...interactivityOf(ctx.state).ephemerals.values()]
    .filter((e) => first && e.channel === channel.id && e.user === user)
    .map((e) => ({
      type: "message",
      subtype: "ephemeral",
      channel: e.channel,
      user: e.user,
      ts: e.ts,
      bot_id: e.botId,
      app_id: e.appId,
      text: e.text,
      ...(e.blocks ? { blocks: e.blocks } : {}),
    }));
  const writers = new Set<string>([user]);
  for (const m of messages) {
    if (m.user) writers.add(m.user);
    for (const r of m.reactions ?? []) for (const u of r.users) writers.add(u);
  }
  return {
    channel: describeConversation(ctx.state, ws, channel, user, ctx.baseUrl),
    messages,
    ephemerals,
    names: Object.fromEntries([...writers].map((id) => [id, nameOf(ws, id, ctx.baseUrl)])),
    has_more: nextCursor !== "",
    response_metadata: { next_cursor: nextCursor },
  };
}

export function registerWorkspaceViewRoutes(router: Router): void {
  router.get("/admin/workspace/member", (ctx) => jsonResponse({ ok: true, ...describeMember(ctx) }));
  router.get("/admin/workspace/history", (ctx) => jsonResponse({ ok: true, ...describeHistory(ctx) }));
  router.get("/admin/workspace/people", describePeople);
}
