/**
 * The workspace's conversations: looked up by id or name, the #general one, those a webhook can post to, and
 * new ones (conversations.create's channels, conversations.open's ims and mpims).
 */
import { scrambleId } from "./ids";
import { isDirect } from "./membership";
import type { Channel, ConversationType, Workspace } from "./workspace";
import { touch } from "../core/change-tracking";

export function findChannel(ws: Workspace, channelId: string): Channel | undefined {
  return ws.channelsById.get(channelId);
}

/** A channel by id, or by name (`general` or `#general`), as chat.postMessage accepts both. */
export function resolveChannel(ws: Workspace, idOrName: string): Channel | undefined {
  const byId = ws.channelsById.get(idOrName);
  if (byId) return byId;
  const name = idOrName.replace(/^#/, "");
  return ws.channels.find((c) => c.name === name && !isDirect(c));
}

/**
 * Deletes a channel (admin only: the emulated workspace has no conversations.delete). The others keep
 * their order; their positions close up, so cursors that pointed past it stay in place by id.
 */
export function deleteChannel(ws: Workspace, channel: Channel): void {
  ws.channels.splice(ws.channels.indexOf(channel), 1);
  ws.channels.forEach((c, index) => {
    if (c.index === index) return;
    c.index = index;
    touch(c);
  });
  ws.channelsById.delete(channel.id);
  ws.messages.delete(channel.id);
}

export function generalChannel(ws: Workspace): Channel {
  return ws.channels.find((c) => c.isGeneral) as Channel;
}

/** Channels an incoming webhook can be created for (the consent page's picker). */
export function postableChannels(ws: Workspace): Channel[] {
  return ws.channels.filter((c) => !c.isArchived && !isDirect(c));
}

export interface NewConversation {
  type: ConversationType;
  /** Ignored for an im, which has no name (its id stands in for one). */
  name: string;
  creator: string;
  /** Epoch seconds. */
  created: number;
  directKey?: string;
}

const ID_PREFIX = { public: "C", private: "C", im: "D", mpim: "G" } as const;

/**
 * Adds a conversation at the end of the list, with no members yet. Its id is the first unused one from its
 * position on (a deleted channel's position is taken again, its id not), so the same calls give the same ids.
 */
export function createConversation(ws: Workspace, input: NewConversation): Channel {
  let n = ws.channels.length;
  while (ws.channelsById.has(scrambleId(ws.keys, ID_PREFIX[input.type], n))) n++;
  const id = scrambleId(ws.keys, ID_PREFIX[input.type], n);
  const channel: Channel = {
    id,
    name: input.type === "im" ? id : input.name,
    index: ws.channels.length,
    created: input.created,
    creator: input.creator,
    isArchived: false,
    isGeneral: false,
    topic: "",
    purpose: "",
    baseMembers: 0,
    type: input.type,
    ...(input.directKey ? { directKey: input.directKey } : {}),
  };
  ws.channels.push(channel);
  ws.channelsById.set(id, channel);
  return channel;
}

/** The im or mpim of exactly these people, if one was opened. */
export function findDirect(ws: Workspace, directKey: string): Channel | undefined {
  return ws.channels.find((c) => c.directKey === directKey);
}
