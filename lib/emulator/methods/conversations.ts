import { WebApiError } from "../errors";
import { resolvePage } from "../pagination";
import type { Caller, EmulatorState, MethodDefinition } from "../types";
import type { Channel, Workspace } from "../workspace";

/** The platform's documented default page size for conversations.list. */
export const CONVERSATIONS_LIST_DEFAULT_LIMIT = 100;

const CONVERSATIONS_STREAM = 202;
const CONVERSATION_TYPES = new Set(["public_channel", "private_channel", "mpim", "im"]);

/** Whether the caller's bot user (or, for a user token, the installing user) is in the channel. */
function isMember(caller: Caller | null, channel: Channel): boolean {
  if (!caller) return false;
  if (caller.token.family === "bot") return caller.installation.joinedChannels.has(channel.id);
  // Every member is in #general; the emulator does not track people's other memberships.
  return channel.isGeneral;
}

function joinedBots(state: EmulatorState, channel: Channel): number {
  let count = 0;
  for (const installation of state.installations.values()) {
    if (!installation.uninstalled && installation.joinedChannels.has(channel.id)) count++;
  }
  return count;
}

/** A channel as conversations.* return it (the platform's conversation object, public channels only). */
function conversationRecord(state: EmulatorState, ws: Workspace, channel: Channel, caller: Caller | null): Record<string, unknown> {
  return {
    id: channel.id,
    name: channel.name,
    is_channel: true,
    is_group: false,
    is_im: false,
    is_mpim: false,
    is_private: false,
    created: channel.created,
    is_archived: channel.isArchived,
    is_general: channel.isGeneral,
    unlinked: 0,
    name_normalized: channel.name,
    is_shared: false,
    is_org_shared: false,
    is_ext_shared: false,
    is_pending_ext_shared: false,
    pending_shared: [],
    context_team_id: ws.team.id,
    updated: channel.created * 1000,
    parent_conversation: null,
    creator: channel.creator,
    is_member: isMember(caller, channel),
    topic: { value: channel.topic, creator: channel.topic ? channel.creator : "", last_set: channel.topic ? channel.created : 0 },
    purpose: { value: channel.purpose, creator: channel.creator, last_set: channel.created },
    previous_names: [],
    num_members: channel.baseMembers + joinedBots(state, channel),
  };
}

function requireChannel(ws: Workspace, id: string | undefined): Channel {
  const channel = id ? ws.channelsById.get(id) : undefined;
  if (!channel) throw new WebApiError("channel_not_found");
  return channel;
}

export const conversationsMethods: MethodDefinition[] = [
  {
    name: "conversations.list",
    tier: 2,
    auth: "token",
    scopes: { bot: ["channels:read"], user: ["channels:read"] },
    handler({ params, ws, state, clock, options, caller }) {
      const types = (params.types || "public_channel").split(",").map((t) => t.trim()).filter(Boolean);
      if (types.some((t) => !CONVERSATION_TYPES.has(t))) throw new WebApiError("invalid_types");
      // The workspace has public channels only, so asking for other types lists nothing.
      const channels = types.includes("public_channel") ? ws.channels : [];
      const page = resolvePage({
        ws,
        scope: { method: "conversations.list", kind: "channel" },
        stream: CONVERSATIONS_STREAM,
        total: channels.length,
        params,
        defaultLimit: CONVERSATIONS_LIST_DEFAULT_LIMIT,
        idAt: (index) => (channels[index] as Channel).id,
        indexOf: (id) => {
          const channel = ws.channelsById.get(id);
          return channel && channels.length > 0 ? channel.index : -1;
        },
        nowMs: clock.now(),
        cursorTtlSeconds: options.cursorTtlSeconds,
      });
      const excludeArchived = params.exclude_archived === "true" || params.exclude_archived === "1";
      // Archived channels are dropped from the page after it is cut, as on the platform: such a page
      // can come out short, or even empty, while next_cursor still points further.
      const listed = channels
        .slice(page.start, page.end)
        .filter((c) => !(excludeArchived && c.isArchived))
        .map((c) => conversationRecord(state, ws, c, caller));
      return { channels: listed, response_metadata: { next_cursor: page.nextCursor } };
    },
  },
  {
    name: "conversations.join",
    tier: 3,
    auth: "token",
    json: true,
    scopes: { bot: ["channels:join"], user: ["channels:write"] },
    handler({ params, ws, state, caller }) {
      const channel = requireChannel(ws, params.channel);
      if (channel.isArchived) throw new WebApiError("is_archived");
      const already = isMember(caller, channel);
      if (caller && caller.token.family === "bot") caller.installation.joinedChannels.add(channel.id);
      const record = { ...conversationRecord(state, ws, channel, caller), is_member: true };
      return already
        ? { channel: record, warning: "already_in_channel", response_metadata: { warnings: ["already_in_channel"] } }
        : { channel: record };
    },
  },
];
