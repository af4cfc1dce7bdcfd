/**
 * Who is in which conversation. A generated channel's people are the first `baseMembers` generated members
 * (less those who left or were removed) and then whoever joined; a bot user is in the channels its
 * installation joined (`joinedChannels`: conversations.join, invited, its own conversations.create and .open).
 * Membership is stored as changes to the generated default, so #general of 100,000 members costs nothing.
 */
import type { Caller, EmulatorState, Installation } from "../types";
import { memberIdAt, memberIndexOf } from "./members";
import type { Channel, ConversationType, Workspace } from "./workspace";
import { touch } from "../core/change-tracking";

export function conversationType(channel: Channel): ConversationType {
  return channel.type ?? "public";
}

/** An im or an mpim (conversations.open), as opposed to a public or private channel. */
export function isDirect(channel: Channel): boolean {
  const type = conversationType(channel);
  return type === "im" || type === "mpim";
}

/** The member a token acts for: its app's bot user, or the person whose user token it is. */
export function callerUserId(caller: Caller): string {
  return caller.token.family === "bot" ? caller.installation.botUserId : (caller.token.userId ?? caller.installation.authedUserId);
}

/** The live installation whose bot user this is, in this workspace (none for people and uninstalled apps). */
export function installationOfBotUser(state: EmulatorState, ws: Workspace, userId: string): Installation | undefined {
  for (const installation of state.installations.values()) {
    if (!installation.uninstalled && installation.teamId === ws.team.id && installation.botUserId === userId) return installation;
  }
  return undefined;
}

function generatedCount(ws: Workspace, channel: Channel): number {
  return Math.min(channel.baseMembers, ws.userCount);
}

function joinedBotUserIds(state: EmulatorState, ws: Workspace, channel: Channel): string[] {
  return [...state.installations.values()].filter((i) => !i.uninstalled && i.teamId === ws.team.id && i.joinedChannels.has(channel.id)).map((i) => i.botUserId);
}

export function isMember(state: EmulatorState, ws: Workspace, channel: Channel, userId: string): boolean {
  const bot = installationOfBotUser(state, ws, userId);
  if (bot) return bot.joinedChannels.has(channel.id);
  const index = memberIndexOf(ws, userId);
  if (index >= 0 && index < generatedCount(ws, channel) && !channel.removedMembers?.includes(index)) return true;
  return channel.addedMembers?.includes(userId) ?? false;
}

/** A public channel is seen by everyone; a private channel, an im or an mpim only by its members. */
export function canSee(state: EmulatorState, ws: Workspace, channel: Channel, userId: string): boolean {
  return conversationType(channel) === "public" || isMember(state, ws, channel, userId);
}

export interface MemberList {
  total: number;
  idAt(position: number): string;
  /** -1 for someone who is not a member. */
  indexOf(userId: string): number;
}

/** A conversation's members in a stable order: the generated ones kept, then those who joined, then bots. */
export function channelMembers(state: EmulatorState, ws: Workspace, channel: Channel): MemberList {
  const base = generatedCount(ws, channel);
  const removed = channel.removedMembers ?? [];
  const kept = base - removed.length;
  const extra = [...(channel.addedMembers ?? []), ...joinedBotUserIds(state, ws, channel)];
  return {
    total: kept + extra.length,
    idAt(position) {
      if (position >= kept) return extra[position - kept] as string;
      // The position-th generated member that is still in: step over those removed before it.
      let index = position;
      for (const r of removed) {
        if (r <= index) index++;
        else break;
      }
      return memberIdAt(ws, index);
    },
    indexOf(userId) {
      const index = memberIndexOf(ws, userId);
      if (index >= 0 && index < base && !removed.includes(index)) return index - removed.filter((r) => r < index).length;
      const position = extra.indexOf(userId);
      return position >= 0 ? kept + position : -1;
    },
  };
}

export function addMember(state: EmulatorState, ws: Workspace, channel: Channel, userId: string): void {
  const bot = installationOfBotUser(state, ws, userId);
  if (bot) {
    bot.joinedChannels.add(channel.id);
    touch(bot);
    return;
  }
  const index = memberIndexOf(ws, userId);
  const removed = channel.removedMembers ?? [];
  if (index >= 0 && index < generatedCount(ws, channel)) {
    channel.removedMembers = removed.filter((r) => r !== index);
    touch(channel);
    return;
  }
  const added = channel.addedMembers ?? [];
  if (!added.includes(userId)) channel.addedMembers = [...added, userId];
  touch(channel);
}

export function removeMember(state: EmulatorState, ws: Workspace, channel: Channel, userId: string): void {
  const bot = installationOfBotUser(state, ws, userId);
  if (bot) {
    bot.joinedChannels.delete(channel.id);
    touch(bot);
    return;
  }
  const index = memberIndexOf(ws, userId);
  if (index >= 0 && index < generatedCount(ws, channel)) {
    const removed = channel.removedMembers ?? [];
    if (!removed.includes(index)) channel.removedMembers = [...removed, index].sort((a, b) => a - b);
    touch(channel);
    return;
  }
  channel.addedMembers = (channel.addedMembers ?? []).filter((id) => id !== userId);
  touch(channel);
}
