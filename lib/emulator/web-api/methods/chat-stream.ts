/**
 * chat.startStream, chat.appendStream and chat.stopStream: a message written as it is generated, from the
 * platform's method pages (https://docs.slack.dev/reference/methods/chat.startStream and its siblings;
 * transcribed in docs/reference/platform-methods). chat:write; Tier 2, appendStream Tier 4.
 *
 * startStream posts a reply in a thread (thread_ts required; outside a DM the platform also wants the
 * recipient: missing_recipient_team_id / missing_recipient_user_id) holding the markdown given so far;
 * appendStream adds to its text; stopStream adds the last of it (and blocks at the bottom, metadata) and
 * ends the stream. Appending to or stopping a stream that was stopped, or a message that is no stream, is
 * message_not_in_streaming_state; another app's or member's stream is cant_update_message (the emulator's
 * choice, chat.update's refusal). markdown_text is at most 12,000 characters a call (msg_too_long).
 *
 * Appending and stopping edit the message as chat.update does, so subscribed apps hear `message_changed`
 * each time. A stream left alone for STREAM_IDLE_MS of the emulator's clock ends by itself (the platform
 * closes idle streams but documents no time: docs/emulator.md, "User groups, assistant threads and
 * streamed messages").
 */
import { WebApiError } from "../../core/errors";
import { touch } from "../../core/change-tracking";
import { parseJsonWithin } from "../../core/json-depth";
import { validateBlocks } from "../../blocks/validate";
import { dispatchMessageChanged, eventTsAt } from "../../events/workspace-events";
import type { Caller, MethodContext, MethodDefinition } from "../../types";
import { messageKey, type MessageStream } from "../../workspace/assistant";
import { resolveChannel } from "../../workspace/channels";
import { findMessage } from "../../workspace/messages";
import type { Channel, Message } from "../../workspace/workspace";
import { actingUserId, postToChannel, requirePostable, wireMessage } from "./chat";

const SCOPES = { bot: ["chat:write"], user: ["chat:write"] };
/** How long a stream may go without an append before it ends by itself: the emulator's choice, 5 minutes. */
const STREAM_IDLE_MS = 5 * 60 * 1000;
const MAX_MARKDOWN = 12_000;
/** The chunk types the platform's streaming takes (the message streaming guide's chunk objects). */
const CHUNK_TYPES = ["markdown_text", "task_update", "plan_update", "blocks"];

function required(ctx: MethodContext, field: string): string {
  const value = ctx.params[field];
  if (value === undefined || value === "") {
    throw new WebApiError("invalid_arguments", { response_metadata: { messages: [`[ERROR] missing required field: ${field}`] } });
  }
  return value;
}

function requireStreamChannel(ctx: MethodContext): Channel {
  const channel = resolveChannel(ctx.ws, required(ctx, "channel"));
  if (!channel) throw new WebApiError("channel_not_found");
  return channel;
}

/** What a call adds: its markdown_text, then the markdown of its chunks; the other chunks as given. */
function readAddition(ctx: MethodContext): { text: string; chunks: unknown[] } | undefined {
  const markdown = ctx.params.markdown_text;
  const raw = ctx.params.chunks;
  if ((markdown === undefined || markdown === "") && (raw === undefined || raw === "")) return undefined;
  let chunks: Record<string, unknown>[] = [];
  if (raw !== undefined && raw !== "") {
    const parsed = parseJsonWithin(raw);
    const valid =
      parsed.ok &&
      Array.isArray(parsed.value) &&
      parsed.value.every((c) => typeof c === "object" && c !== null && CHUNK_TYPES.includes(String((c as Record<string, unknown>).type)));
    if (!valid) throw new WebApiError("invalid_chunks");
    chunks = parsed.value as Record<string, unknown>[];
  }
  const texts = [markdown ?? "", ...chunks.filter((c) => c.type === "markdown_text").map((c) => String(c.text ?? ""))];
  if (texts.some((t) => Array.from(t).length > MAX_MARKDOWN)) throw new WebApiError("msg_too_long");
  return { text: texts.join(""), chunks: chunks.filter((c) => c.type !== "markdown_text") };
}

/** The stream a call names, still streaming and the caller's own. */
function requireStream(ctx: MethodContext): { channel: Channel; message: Message; stream: MessageStream } {
  const channel = requireStreamChannel(ctx);
  const ts = required(ctx, "ts");
  const message = findMessage(ctx.ws, channel.id, ts);
  if (!message) throw new WebApiError("message_not_found");
  const stream = ctx.ws.streams.get(messageKey(channel.id, ts));
  if (!stream || stream.state !== "streaming" || isIdle(stream, ctx.clock.now())) {
    // A stopped or idle stream is over: nothing of it is kept (a stopped stream answers as no stream does).
    if (stream) ctx.ws.streams.delete(messageKey(channel.id, ts));
    throw new WebApiError("message_not_in_streaming_state");
  }
  const caller = ctx.caller as Caller;
  if (stream.appId !== caller.app.id || stream.userId !== actingUserId(caller)) throw new WebApiError("cant_update_message");
  return { channel, message, stream };
}

/**
 * A stream nobody appended to for STREAM_IDLE_MS has ended. Checked when the stream is next used, or when
 * another starts, which is when anyone could tell: the emulator's clock may jump (POST /admin/clock), so no
 * timer would be right.
 */
function isIdle(stream: MessageStream, now: number): boolean {
  return stream.state !== "streaming" || now - (stream.lastActivityAt ?? stream.startedAt) >= STREAM_IDLE_MS;
}

/** Forgets the streams that ended (stopped ones are removed when they stop; this catches the idle). */
function sweepStreams(ws: MethodContext["ws"], now: number): void {
  for (const [key, stream] of ws.streams) if (isIdle(stream, now)) ws.streams.delete(key);
}

function add(message: Message, stream: MessageStream, addition: { text: string; chunks: unknown[] } | undefined): void {
  if (!addition) return;
  message.text += addition.text;
  stream.chunks.push(...addition.chunks);
}

/** The edit's end: saved, and heard by subscribed apps as chat.update's `message_changed`. */
function changed(ctx: MethodContext, channel: Channel, previous: Message, message: Message, stream: MessageStream): void {
  stream.lastActivityAt = ctx.clock.now();
  touch(message);
  touch(stream);
  dispatchMessageChanged(ctx, ctx.ws, channel, previous, message, eventTsAt(ctx.clock.now()));
}

export const chatStreamMethods: MethodDefinition[] = [
  {
    name: "chat.startStream",
    tier: 2,
    auth: "token",
    json: true,
    scopes: SCOPES,
    handler(ctx) {
      const caller = ctx.caller as Caller;
      const channel = requireStreamChannel(ctx);
      const threadTs = required(ctx, "thread_ts");
      if (channel.isArchived) throw new WebApiError("is_archived");
      requirePostable(caller, channel);
      if (!findMessage(ctx.ws, channel.id, threadTs)) throw new WebApiError("thread_not_found");
      if (channel.type !== "im") {
        if (!ctx.params.recipient_team_id) throw new WebApiError("missing_recipient_team_id");
        if (!ctx.params.recipient_user_id) throw new WebApiError("missing_recipient_user_id");
      }
      const addition = readAddition(ctx);
      const isBot = caller.token.family === "bot";
      const userId = actingUserId(caller);
      const message = postToChannel(
        ctx,
        ctx.ws,
        channel,
        {
          content: { text: addition?.text ?? "" },
          user: userId,
          ...(isBot ? { botId: caller.installation.botId, appId: caller.app.id } : {}),
          threadTs,
          via: "chat.startStream",
        },
        ctx.clock.now(),
      );
      const stream: MessageStream = {
        channelId: channel.id,
        ts: message.ts,
        appId: caller.app.id,
        userId,
        state: "streaming",
        startedAt: ctx.clock.now(),
        chunks: addition?.chunks ?? [],
      };
      sweepStreams(ctx.ws, ctx.clock.now());
      ctx.ws.streams.set(messageKey(channel.id, message.ts), stream);
      return { channel: channel.id, ts: message.ts };
    },
  },
  {
    name: "chat.appendStream",
    tier: 4,
    auth: "token",
    json: true,
    scopes: SCOPES,
    handler(ctx) {
      const { channel, message, stream } = requireStream(ctx);
      const addition = readAddition(ctx);
      if (!addition) throw new WebApiError("no_text");
      const previous = structuredClone(message);
      add(message, stream, addition);
      changed(ctx, channel, previous, message, stream);
      return { channel: channel.id, ts: message.ts };
    },
  },
  {
    name: "chat.stopStream",
    tier: 2,
    auth: "token",
    json: true,
    scopes: SCOPES,
    handler(ctx) {
      const { channel, message, stream } = requireStream(ctx);
      const addition = readAddition(ctx);
      let blocks: unknown[] | undefined;
      if (ctx.params.blocks) {
        const parsed = parseJsonWithin(ctx.params.blocks);
        const problems = parsed.ok ? validateBlocks(parsed.value, { surface: "message" }) : ["must be an array [json-pointer:/blocks]"];
        if (problems.length > 0)
          throw new WebApiError("invalid_blocks", { errors: problems, response_metadata: { messages: problems.map((p) => `[ERROR] ${p}`) } });
        blocks = parsed.ok ? (parsed.value as unknown[]) : undefined;
      }
      let metadata: unknown;
      if (ctx.params.metadata) {
        const parsed = parseJsonWithin(ctx.params.metadata);
        if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null) throw new WebApiError("invalid_metadata_format");
        metadata = parsed.value;
      }
      const previous = structuredClone(message);
      add(message, stream, addition);
      if (blocks && blocks.length > 0) message.blocks = [...(message.blocks ?? []), ...blocks];
      if (metadata !== undefined) message.metadata = metadata;
      stream.state = "stopped";
      changed(ctx, channel, previous, message, stream);
      ctx.ws.streams.delete(messageKey(channel.id, message.ts));
      return { channel: channel.id, ts: message.ts, message: wireMessage(message) };
    },
  },
];
