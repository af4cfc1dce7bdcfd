/**
 * Scheduled messages: chat.scheduleMessage queues a message for post_at (the emulator's clock), the first Web
 * API call once the clock has passed it posts it (deliverScheduledMessages, called by web-api.ts before every
 * method), and until then chat.scheduledMessages.list lists it and chat.deleteScheduledMessage takes it back.
 * https://docs.slack.dev/reference/methods/chat.scheduleMessage, .../chat.scheduledMessages.list,
 * .../chat.deleteScheduledMessage
 */
import { randomInt } from "node:crypto";
import { WebApiError } from "../../core/errors";
import { resolvePage } from "../../pagination/pagination";
import type { Caller, MethodDefinition, RequestContext, ScheduledMessage } from "../../types";
import { findChannel } from "../../workspace/channels";
import { CHAT_WRITE_SCOPES, TRUNCATION_WARNING, actingUserId, messageContent, postToChannel, requireChannel, requirePostable } from "./chat";

/** The platform schedules at most 120 days ahead. */
export const MAX_SCHEDULE_AHEAD_S = 120 * 24 * 60 * 60;
const SCHEDULED_STREAM = 206;
const ID_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const SCHEDULED_DEFAULT_LIMIT = 100;

/** Posts every scheduled message whose post_at the clock has reached, oldest post_at first. */
export function deliverScheduledMessages(ctx: RequestContext): void {
  const { state } = ctx;
  if (state.scheduledMessages.size === 0) return;
  const nowS = Math.floor(ctx.clock.now() / 1000);
  const due = [...state.scheduledMessages.values()].filter((m) => m.postAt <= nowS).sort((a, b) => a.postAt - b.postAt);
  for (const scheduled of due) {
    state.scheduledMessages.delete(scheduled.id);
    // An uninstalled app's queue goes with it; a channel deleted meanwhile takes nothing.
    const installation = state.installations.get(scheduled.installationId);
    const ws = state.workspaces.get(scheduled.teamId);
    const channel = ws ? findChannel(ws, scheduled.channelId) : undefined;
    if (!installation || installation.uninstalled || !ws || !channel || channel.isArchived) continue;
    const content = {
      text: scheduled.text,
      ...(scheduled.blocks ? { blocks: scheduled.blocks } : {}),
      ...(scheduled.attachments ? { attachments: scheduled.attachments } : {}),
    };
    postToChannel(
      ctx,
      ws,
      channel,
      {
        content,
        user: scheduled.user,
        ...(scheduled.botId ? { botId: scheduled.botId, appId: scheduled.appId } : {}),
        threadTs: scheduled.threadTs,
        via: "chat.scheduleMessage",
      },
      scheduled.postAt * 1000,
    );
  }
}

/** A scheduled message id of the platform's shape (`Q1298393284`): Q and ten characters, never reused. */
function nextScheduledId(ctx: RequestContext): string {
  let id: string;
  do {
    id = `Q${Array.from({ length: 10 }, () => ID_CHARS[randomInt(ID_CHARS.length)]).join("")}`;
  } while (ctx.state.scheduledMessages.has(id));
  return id;
}

/** post_at as the platform reads it: epoch seconds, in the future, at most 120 days ahead. */
function postAtOf(raw: string | undefined, nowS: number): number {
  const value = raw === undefined ? NaN : Number(raw.trim());
  if (raw === undefined || raw.trim() === "" || !Number.isFinite(value)) throw new WebApiError("invalid_time");
  const postAt = Math.floor(value);
  if (postAt <= nowS) throw new WebApiError("time_in_past");
  if (postAt > nowS + MAX_SCHEDULE_AHEAD_S) throw new WebApiError("time_too_far");
  return postAt;
}

/** The caller's own scheduled messages in its workspace: a user token's are its member's. */
function ownScheduled(caller: Caller, message: ScheduledMessage): boolean {
  return message.installationId === caller.installation.id && message.user === actingUserId(caller);
}

export const chatScheduledMethods: MethodDefinition[] = [
  {
    name: "chat.scheduleMessage",
    tier: 3,
    auth: "token",
    json: true,
    scopes: { bot: CHAT_WRITE_SCOPES, user: CHAT_WRITE_SCOPES },
    handler(ctx) {
      const caller = ctx.caller as Caller;
      const nowS = Math.floor(ctx.clock.now() / 1000);
      const postAt = postAtOf(ctx.params.post_at, nowS);
      const channel = requireChannel(ctx);
      const { content, truncated } = messageContent(ctx.params);
      requirePostable(caller, channel);
      const isBot = caller.token.family === "bot";
      const scheduled: ScheduledMessage = {
        id: nextScheduledId(ctx),
        teamId: ctx.ws.team.id,
        channelId: channel.id,
        appId: caller.app.id,
        installationId: caller.installation.id,
        user: actingUserId(caller),
        ...(isBot ? { botId: caller.installation.botId } : {}),
        postAt,
        dateCreated: nowS,
        ...content,
        ...(ctx.params.thread_ts ? { threadTs: ctx.params.thread_ts } : {}),
      };
      ctx.state.scheduledMessages.set(scheduled.id, scheduled);
      const message = {
        ...(isBot ? { bot_id: caller.installation.botId } : {}),
        type: "delayed_message",
        text: content.text,
        user: scheduled.user,
        team: ctx.ws.team.id,
        ...(content.blocks ? { blocks: content.blocks } : {}),
        ...(content.attachments ? { attachments: content.attachments } : {}),
      };
      return { channel: channel.id, scheduled_message_id: scheduled.id, post_at: postAt, message, ...(truncated ? TRUNCATION_WARNING : {}) };
    },
  },
  {
    name: "chat.scheduledMessages.list",
    pages: "scheduled_messages",
    tier: 3,
    auth: "token",
    json: true,
    scopes: { bot: [], user: [] },
    handler(ctx) {
      const caller = ctx.caller as Caller;
      const { params } = ctx;
      const channel = params.channel ? findChannel(ctx.ws, params.channel) : undefined;
      if (params.channel && !channel) throw new WebApiError("invalid_channel");
      const oldest = params.oldest ? Number(params.oldest) : -Infinity;
      const latest = params.latest ? Number(params.latest) : Infinity;
      const list = [...ctx.state.scheduledMessages.values()]
        .filter((m) => m.teamId === ctx.ws.team.id && ownScheduled(caller, m) && (!channel || m.channelId === channel.id))
        .filter((m) => !(m.postAt < oldest) && !(m.postAt > latest))
        .sort((a, b) => a.postAt - b.postAt || a.dateCreated - b.dateCreated);
      const page = resolvePage({
        ws: ctx.ws,
        scope: { method: "chat.scheduledMessages.list", kind: "scheduled" },
        stream: SCHEDULED_STREAM,
        total: list.length,
        params,
        defaultLimit: SCHEDULED_DEFAULT_LIMIT,
        idAt: (index) => (list[index] as ScheduledMessage).id,
        indexOf: (id) => list.findIndex((m) => m.id === id),
        nowMs: ctx.clock.now(),
        cursorTtlSeconds: ctx.options.cursorTtlSeconds,
      });
      return {
        scheduled_messages: list
          .slice(page.start, page.end)
          .map((m) => ({ id: m.id, channel_id: m.channelId, post_at: m.postAt, date_created: m.dateCreated, text: m.text })),
        response_metadata: { next_cursor: page.nextCursor },
      };
    },
  },
  {
    name: "chat.deleteScheduledMessage",
    tier: 3,
    auth: "token",
    json: true,
    scopes: { bot: CHAT_WRITE_SCOPES, user: CHAT_WRITE_SCOPES },
    handler(ctx) {
      const caller = ctx.caller as Caller;
      const channel = ctx.params.channel ? findChannel(ctx.ws, ctx.params.channel) : undefined;
      if (!channel) throw new WebApiError("channel_not_found");
      const scheduled = ctx.state.scheduledMessages.get(ctx.params.scheduled_message_id ?? "");
      // Unknown, posted already, another app's or another channel's: the platform's one error for all of them.
      if (!scheduled || scheduled.channelId !== channel.id || !ownScheduled(caller, scheduled)) throw new WebApiError("invalid_scheduled_message_id");
      ctx.state.scheduledMessages.delete(scheduled.id);
      return {};
    },
  },
];
