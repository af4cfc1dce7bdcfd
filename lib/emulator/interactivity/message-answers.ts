/**
 * A message an app sends back to a member's interaction, as the platform shows it: a slash command's
 * immediate answer, or a POST to a response_url. `response_type: "in_channel"` posts it to the conversation
 * for everyone (as the app's bot user); the default, `ephemeral`, shows it to the member alone (never stored
 * in the history); `replace_original` and `delete_original` change or remove the message the interaction came
 * from, ephemeral or not.
 */
import { announceChange } from "../workspace/changes";
import { z } from "zod";
import { touch } from "../core/change-tracking";
import { WebApiError } from "../core/errors";
import { dispatchMessageChanged, dispatchMessageDeleted, eventTsAt } from "../events/workspace-events";
import type { Installation, RequestContext } from "../types";
import { postToChannel, wireMessage } from "../web-api/methods/chat";
import { findMessage, nextMessageTs, removeMessage } from "../workspace/messages";
import type { Channel, Workspace } from "../workspace/workspace";
import { forgetEphemeral, rememberEphemeral } from "./lifecycle";
import { interactivityOf, type EphemeralMessage } from "./side-state";

export const MessageAnswer = z.looseObject({
  text: z.string().max(40_000).optional(),
  blocks: z.array(z.unknown()).max(50).optional(),
  attachments: z.array(z.unknown()).max(100).optional(),
  response_type: z.enum(["ephemeral", "in_channel"]).optional(),
  replace_original: z.union([z.boolean(), z.enum(["true", "false"])]).optional(),
  delete_original: z.union([z.boolean(), z.enum(["true", "false"])]).optional(),
  thread_ts: z.string().optional(),
});
export type MessageAnswer = z.infer<typeof MessageAnswer>;

export interface AnswerTarget {
  installation: Installation;
  channel: Channel;
  /** The member who interacted: an ephemeral answer shows to them. */
  userId: string;
  /** The message the interaction came from, if it came from one. */
  originalTs?: string;
}

export interface AppliedAnswer {
  outcome: "ephemeral" | "in_channel" | "replaced" | "deleted";
  message?: Record<string, unknown>;
}

const yes = (flag: boolean | string | undefined) => flag === true || flag === "true";

function content(answer: MessageAnswer): { text: string; blocks?: unknown[]; attachments?: unknown[] } {
  const hasBlocks = answer.blocks !== undefined && answer.blocks.length > 0;
  const hasAttachments = answer.attachments !== undefined && answer.attachments.length > 0;
  if ((answer.text ?? "").trim() === "" && !hasBlocks && !hasAttachments) throw new WebApiError("no_text", {}, { status: 400 });
  return { text: answer.text ?? "", ...(hasBlocks ? { blocks: answer.blocks } : {}), ...(hasAttachments ? { attachments: answer.attachments } : {}) };
}

function showEphemeral(ctx: RequestContext, ws: Workspace, target: AnswerTarget, body: ReturnType<typeof content>): EphemeralMessage {
  const ephemeral: EphemeralMessage = {
    channel: target.channel.id,
    user: target.userId,
    ts: nextMessageTs(ws, ctx.clock.now()),
    appId: target.installation.appId,
    botId: target.installation.botId,
    ...body,
  };
  rememberEphemeral(ctx.state, ephemeral, ctx.clock.now());
  announceChange(ws, { type: "ephemeral", channel: ephemeral.channel, user: ephemeral.user, message: describeEphemeral(ephemeral) });
  return ephemeral;
}

function describeEphemeral(e: EphemeralMessage): Record<string, unknown> {
  return {
    type: "message",
    subtype: "ephemeral",
    channel: e.channel,
    user: e.user,
    ts: e.ts,
    bot_id: e.botId,
    app_id: e.appId,
    text: e.text,
    ...(e.blocks ? { blocks: e.blocks } : {}),
  };
}

/** Changes or removes the original message (stored, or ephemeral), as chat.update and chat.delete would. */
function changeOriginal(ctx: RequestContext, ws: Workspace, target: AnswerTarget, answer: MessageAnswer, originalTs: string): AppliedAnswer {
  const { channel } = target;
  const ephemeral = interactivityOf(ctx.state).ephemerals.get(`${channel.id}:${originalTs}`);
  const remove = yes(answer.delete_original);
  if (ephemeral && ephemeral.user === target.userId) {
    if (remove) forgetEphemeral(ctx.state, ephemeral);
    else Object.assign(ephemeral, { blocks: undefined, attachments: undefined }, content(answer));
    announceChange(ws, {
      type: "ephemeral",
      channel: channel.id,
      user: ephemeral.user,
      message: { ...describeEphemeral(ephemeral), ...(remove ? { deleted: true } : {}) },
    });
    return { outcome: remove ? "deleted" : "replaced", ...(remove ? {} : { message: describeEphemeral(ephemeral) }) };
  }
  const message = findMessage(ws, channel.id, originalTs);
  if (!message) throw new WebApiError("message_not_found", {}, { status: 404 });
  const eventTs = eventTsAt(ctx.clock.now());
  if (remove) {
    removeMessage(ws, channel.id, message.ts);
    dispatchMessageDeleted(ctx, ws, channel, message, eventTs);
    return { outcome: "deleted" };
  }
  const previous = structuredClone(message);
  const next = content(answer);
  message.text = next.text;
  // A replacement is the whole message: what it leaves out is gone.
  if (next.blocks) message.blocks = next.blocks;
  else delete message.blocks;
  if (next.attachments) message.attachments = next.attachments;
  else delete message.attachments;
  message.edited = { user: message.user ?? "", ts: `${Math.floor(ctx.clock.now() / 1000)}.000000` };
  touch(message);
  dispatchMessageChanged(ctx, ws, channel, previous, message, eventTs);
  return { outcome: "replaced", message: { ...wireMessage(message) } };
}

export function applyMessageAnswer(ctx: RequestContext, ws: Workspace, target: AnswerTarget, answer: MessageAnswer): AppliedAnswer {
  if (target.originalTs !== undefined && (yes(answer.replace_original) || yes(answer.delete_original))) {
    return changeOriginal(ctx, ws, target, answer, target.originalTs);
  }
  const body = content(answer);
  if (answer.response_type === "in_channel") {
    const { installation } = target;
    const message = postToChannel(
      ctx,
      ws,
      target.channel,
      { content: body, user: installation.botUserId, botId: installation.botId, appId: installation.appId, threadTs: answer.thread_ts, via: "interactivity" },
      ctx.clock.now(),
    );
    return { outcome: "in_channel", message: { channel: target.channel.id, ...wireMessage(message) } };
  }
  return { outcome: "ephemeral", message: describeEphemeral(showEphemeral(ctx, ws, target, body)) };
}
