/**
 * Each channel's messages, oldest first, with a strictly increasing ts across the workspace; a reply keeps
 * its parent's reply count and latest reply up to date.
 */
import type { Message, Workspace } from "./workspace";
import { touch } from "../core/change-tracking";

/** A message ts (`seconds.micro-sequence`), strictly increasing across the workspace. `now` is epoch ms. */
export function nextMessageTs(ws: Workspace, now: number): string {
  const seconds = Math.floor(now / 1000);
  if (seconds > ws.lastTs.seconds) ws.lastTs = { seconds, seq: 1 };
  else ws.lastTs = { seconds: ws.lastTs.seconds, seq: ws.lastTs.seq + 1 };
  touch(ws);
  return `${ws.lastTs.seconds}.${String(ws.lastTs.seq).padStart(6, "0")}`;
}

/** Stores a message in a channel's history. */
export function appendMessage(ws: Workspace, channelId: string, message: Omit<Message, "ts" | "team" | "type">, now: number): Message {
  const stored: Message = { type: "message", ts: nextMessageTs(ws, now), team: ws.team.id, ...message };
  const log = ws.messages.get(channelId);
  if (log) log.push(stored);
  else ws.messages.set(channelId, [stored]);
  return stored;
}

/** The message with this ts in a channel, if there is one. */
export function findMessage(ws: Workspace, channelId: string, ts: string): Message | undefined {
  return ws.messages.get(channelId)?.find((m) => m.ts === ts);
}

/** Removes a message (and, for a parent, keeps its replies, as the platform does). */
export function removeMessage(ws: Workspace, channelId: string, ts: string): boolean {
  const log = ws.messages.get(channelId);
  const index = log?.findIndex((m) => m.ts === ts) ?? -1;
  if (!log || index < 0) return false;
  const [removed] = log.splice(index, 1);
  const parent = removed?.thread_ts && removed.thread_ts !== removed.ts ? log.find((m) => m.ts === removed.thread_ts) : undefined;
  if (parent) {
    const replies = log.filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts);
    parent.reply_count = replies.length;
    parent.latest_reply = replies.at(-1)?.ts;
    if (replies.length === 0) {
      delete parent.reply_count;
      delete parent.latest_reply;
      delete parent.reply_users;
      delete parent.thread_ts;
    }
    touch(parent);
  }
  return true;
}

/** Every message in the workspace, per channel id (what the admin state shows). */
export function channelMessages(ws: Workspace, channelId: string): readonly Message[] {
  return ws.messages.get(channelId) ?? [];
}
