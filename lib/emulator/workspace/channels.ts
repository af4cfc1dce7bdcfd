/** The workspace's public channels: looked up by id or name, the #general one, and those a webhook can post to. */
import type { Channel, Workspace } from "./workspace";

export function findChannel(ws: Workspace, channelId: string): Channel | undefined {
  return ws.channelsById.get(channelId);
}

/** A channel by id, or by name (`general` or `#general`), as chat.postMessage accepts both. */
export function resolveChannel(ws: Workspace, idOrName: string): Channel | undefined {
  const byId = ws.channelsById.get(idOrName);
  if (byId) return byId;
  const name = idOrName.replace(/^#/, "");
  return ws.channels.find((c) => c.name === name);
}

/**
 * Deletes a channel (admin only: the emulated workspace has no conversations.delete). The others keep
 * their order; their positions close up, so cursors that pointed past it stay in place by id.
 */
export function deleteChannel(ws: Workspace, channel: Channel): void {
  ws.channels = ws.channels.filter((c) => c !== channel);
  ws.channels.forEach((c, index) => {
    c.index = index;
  });
  ws.channelsById.delete(channel.id);
  ws.messages.delete(channel.id);
}

export function generalChannel(ws: Workspace): Channel {
  return ws.channels.find((c) => c.isGeneral) as Channel;
}

/** Channels an incoming webhook can be created for (the consent page's picker). */
export function postableChannels(ws: Workspace): Channel[] {
  return ws.channels.filter((c) => !c.isArchived);
}
