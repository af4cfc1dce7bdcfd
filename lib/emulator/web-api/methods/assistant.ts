/**
 * assistant.threads.setStatus, .setSuggestedPrompts and .setTitle: what an app acting as an AI assistant
 * shows in a thread, from the platform's method pages (https://docs.slack.dev/reference/methods/
 * assistant.threads.setStatus and its siblings; transcribed in docs/reference/platform-methods). Bot tokens
 * with assistant:write. The emulator keeps each thread's status, title and prompts (workspace/assistant.ts)
 * for the admin state to show; the thread is a message of the channel (thread_not_found otherwise).
 */
import { WebApiError } from "../../core/errors";
import { touch } from "../../core/change-tracking";
import { parseJsonWithin } from "../../core/json-depth";
import type { MethodContext, MethodDefinition } from "../../types";
import { messageKey, type AssistantThread } from "../../workspace/assistant";
import { findMessage } from "../../workspace/messages";

const SCOPES = { bot: ["assistant:write"] };
/** The platform shows at most 4 suggested prompts and rotates through at most 10 loading messages. */
const MAX_PROMPTS = 4;
const MAX_LOADING_MESSAGES = 10;

function invalid(messages: string[]): WebApiError {
  return new WebApiError("invalid_arguments", { response_metadata: { messages: messages.map((m) => `[ERROR] ${m}`) } });
}

function required(ctx: MethodContext, field: string): string {
  const value = ctx.params[field];
  if (value === undefined) throw invalid([`missing required field: ${field}`]);
  return value;
}

/** The thread a call names, created on first use, after its channel and message are checked. */
function threadOf(ctx: MethodContext): AssistantThread {
  const channelId = required(ctx, "channel_id");
  const threadTs = required(ctx, "thread_ts");
  if (!ctx.ws.channelsById.has(channelId)) throw new WebApiError("channel_not_found");
  if (!findMessage(ctx.ws, channelId, threadTs)) throw new WebApiError("thread_not_found");
  const key = messageKey(channelId, threadTs);
  const existing = ctx.ws.assistantThreads.get(key);
  if (existing) return existing;
  const thread: AssistantThread = { channelId, threadTs, appId: ctx.caller!.app.id, status: "", loadingMessages: [], title: "", prompts: [], promptsTitle: "" };
  ctx.ws.assistantThreads.set(key, thread);
  return thread;
}

/** A JSON array parameter (form-encoded clients send arrays as JSON text; a JSON body's arrays arrive so too). */
function jsonArray(raw: string, field: string): unknown[] {
  const parsed = parseJsonWithin(raw);
  if (!parsed.ok || !Array.isArray(parsed.value)) throw invalid([`must be an array [json-pointer:/${field}]`]);
  return parsed.value;
}

function readPrompts(raw: string): AssistantThread["prompts"] {
  const items = jsonArray(raw, "prompts");
  const problems: string[] = [];
  if (items.length > MAX_PROMPTS) problems.push(`no more than ${MAX_PROMPTS} items allowed [json-pointer:/prompts]`);
  items.forEach((item, i) => {
    const prompt = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    for (const field of ["title", "message"]) {
      if (typeof prompt[field] !== "string" || prompt[field] === "") problems.push(`missing required field: ${field} [json-pointer:/prompts/${i}]`);
    }
  });
  if (problems.length > 0) throw invalid(problems);
  return items.map((item) => {
    const { title, message } = item as { title: string; message: string };
    return { title, message };
  });
}

export const assistantMethods: MethodDefinition[] = [
  {
    name: "assistant.threads.setStatus",
    tier: "special",
    auth: "token",
    json: true,
    scopes: SCOPES,
    handler(ctx) {
      const status = required(ctx, "status");
      const raw = ctx.params.loading_messages;
      const loading = raw === undefined || raw === "" ? [] : jsonArray(raw, "loading_messages");
      if (loading.length > MAX_LOADING_MESSAGES) throw invalid([`no more than ${MAX_LOADING_MESSAGES} items allowed [json-pointer:/loading_messages]`]);
      if (loading.some((m) => typeof m !== "string")) throw invalid(["must be an array of strings [json-pointer:/loading_messages]"]);
      const thread = threadOf(ctx);
      // An empty status clears it, as the platform documents.
      thread.status = status;
      thread.loadingMessages = status === "" ? [] : (loading as string[]);
      touch(thread);
      return {};
    },
  },
  {
    name: "assistant.threads.setSuggestedPrompts",
    tier: 4,
    auth: "token",
    json: true,
    scopes: SCOPES,
    handler(ctx) {
      const prompts = readPrompts(required(ctx, "prompts"));
      const thread = threadOf(ctx);
      thread.prompts = prompts;
      thread.promptsTitle = ctx.params.title ?? "";
      touch(thread);
      return {};
    },
  },
  {
    name: "assistant.threads.setTitle",
    tier: 4,
    auth: "token",
    json: true,
    scopes: SCOPES,
    handler(ctx) {
      const title = required(ctx, "title");
      const thread = threadOf(ctx);
      thread.title = title;
      touch(thread);
      return {};
    },
  },
];
