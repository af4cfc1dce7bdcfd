/**
 * The events that follow from a workspace's own changes rather than from messages: a public channel created,
 * renamed, archived or unarchived (`channel_*`, for apps with channels:read, members of the channel or not: a
 * public channel's existence is no secret), a person joined (`team_join`) or changed their profile (`user_change`,
 * users:read), a file
 * shared into a conversation (`file_shared`, files:read, for those in it). Private channels have events of their
 * own on the platform (`group_*`), which the emulator does not send.
 */
import type { RequestContext } from "../types";
import { conversationType } from "../workspace/membership";
import type { Channel, Workspace } from "../workspace/workspace";
import { needOf } from "./event-catalog";
import { send, targets } from "./targets";
import type { EventDelivery } from "./types";
import { eventTsAt } from "./workspace-events";

function publicOnly(channel: Channel): boolean {
  return conversationType(channel) === "public";
}

/** `channel_created`: the new channel's id, name, created and creator. */
export function dispatchChannelCreated(ctx: RequestContext, ws: Workspace, channel: Channel): EventDelivery[] {
  if (!publicOnly(channel)) return [];
  const found = targets(ctx, ws, needOf("channel_created"));
  return send(ctx, ws, found, () => ({
    type: "channel_created",
    channel: { id: channel.id, name: channel.name, created: channel.created, creator: channel.creator },
    event_ts: eventTsAt(ctx.clock.now()),
  }));
}

/** `channel_rename`: the channel's id, new name and created. */
export function dispatchChannelRename(ctx: RequestContext, ws: Workspace, channel: Channel): EventDelivery[] {
  if (!publicOnly(channel)) return [];
  const found = targets(ctx, ws, needOf("channel_rename"));
  return send(ctx, ws, found, () => ({
    type: "channel_rename",
    channel: { id: channel.id, name: channel.name, created: channel.created },
    event_ts: eventTsAt(ctx.clock.now()),
  }));
}

/** `channel_archive` / `channel_unarchive`: the channel and who did it. */
export function dispatchChannelArchive(ctx: RequestContext, ws: Workspace, channel: Channel, change: { user: string; archived: boolean }): EventDelivery[] {
  if (!publicOnly(channel)) return [];
  const type = change.archived ? "channel_archive" : "channel_unarchive";
  const found = targets(ctx, ws, needOf(type));
  return send(ctx, ws, found, () => ({ type, channel: channel.id, user: change.user, event_ts: eventTsAt(ctx.clock.now()) }));
}

/** `user_change`: the member's whole user record as users.info answers it now. */
export function dispatchUserChange(ctx: RequestContext, ws: Workspace, user: Record<string, unknown>): EventDelivery[] {
  const found = targets(ctx, ws, needOf("user_change"));
  const eventTs = eventTsAt(ctx.clock.now());
  return send(ctx, ws, found, () => ({ type: "user_change", user, cache_ts: Math.floor(ctx.clock.now() / 1000), event_ts: eventTs }));
}

/** `team_join`: a new member's user record. */
export function dispatchTeamJoin(ctx: RequestContext, ws: Workspace, user: Record<string, unknown>): EventDelivery[] {
  const found = targets(ctx, ws, needOf("team_join"));
  return send(ctx, ws, found, () => ({ type: "team_join", user, event_ts: eventTsAt(ctx.clock.now()) }));
}

/** `file_shared`: a file shared into a conversation, to those in it; the event names the file, the app reads it with files.info. */
export function dispatchFileShared(ctx: RequestContext, ws: Workspace, channel: Channel, share: { fileId: string; user: string }): EventDelivery[] {
  const found = targets(ctx, ws, needOf("file_shared", channel));
  return send(ctx, ws, found, () => ({
    type: "file_shared",
    channel_id: channel.id,
    file_id: share.fileId,
    user_id: share.user,
    file: { id: share.fileId },
    event_ts: eventTsAt(ctx.clock.now()),
  }));
}
