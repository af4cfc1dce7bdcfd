/**
 * The emulated workspace: its team, members, channels (the generated public ones, and those conversations.create
 * and conversations.open add) and the messages they received, and how a workspace is created from a seed. What
 * acts on it lives beside it: members.ts (users.list's records and bot users), channels.ts, membership.ts (who is
 * in which conversation), messages.ts; ids.ts makes the platform-shaped ids, vocabulary.ts the names.
 *
 * Members are a pure function of (seed, position): member i is generated when asked for, never stored,
 * so a workspace of 100,000 members costs nothing at start and a page costs the same wherever it is.
 * Ids are an invertible scramble of the position, so an id (from a cursor or an avatar URL) leads back
 * to its member in O(1). Bot users added by installs come after the generated members.
 */
import { randomBytes } from "node:crypto";
import { createFilesState, type FilesState } from "./files";
import { fnv1a, hex, inverseMod32, rng, scrambleId, type ScrambleKeys } from "./ids";
import { seedWorkspaceContent } from "./seed-content";
import { createViewsState, type ViewsState } from "./views";
import type { Usergroup } from "./usergroups";
import type { AssistantThread, MessageStream } from "./assistant";
import { CHANNELS, EPOCH_2019, SPAN_2019_2025 } from "./vocabulary";

export const DEFAULT_USER_COUNT = 3000;

export interface Team {
  id: string;
  name: string;
  domain: string;
}

export interface Channel {
  id: string;
  name: string;
  /** Position in the workspace's channel list (pagination order). */
  index: number;
  created: number;
  creator: string;
  isArchived: boolean;
  isGeneral: boolean;
  topic: string;
  purpose: string;
  /**
   * Human members: the first baseMembers generated members (those not in removedMembers), then
   * addedMembers; bots that joined are counted on top (their installations' joinedChannels).
   */
  baseMembers: number;
  /** "public" when absent; "private" from conversations.create is_private; "im" and "mpim" from conversations.open. */
  type?: ConversationType;
  /** People who joined beyond the generated ones (invite, join, create, open), in the order they came. */
  addedMembers?: string[];
  /** Positions (below baseMembers) of generated members who left or were removed, ascending. */
  removedMembers?: number[];
  /** An im's or mpim's people, sorted and joined: the same people open the same conversation again. */
  directKey?: string;
  /** Who set the topic and purpose last, and when (epoch seconds); absent: the channel's creator at its creation. */
  topicSet?: { creator: string; lastSet: number };
  purposeSet?: { creator: string; lastSet: number };
  /** Names it had before conversations.rename, oldest first. */
  previousNames?: string[];
}

export type ConversationType = "public" | "private" | "im" | "mpim";

/** A message as the platform stores it in a channel's history. */
export interface Message {
  type: "message";
  ts: string;
  text: string;
  /** The posting bot user, for chat.postMessage. */
  user?: string;
  bot_id?: string;
  app_id?: string;
  subtype?: "bot_message";
  username?: string;
  team: string;
  /** Block Kit blocks and legacy attachments, kept and returned as posted. */
  blocks?: unknown[];
  attachments?: unknown[];
  /** The UUID a member's client sends with a post (workspace/rich-text.ts). */
  client_msg_id?: string;
  /** A reply's parent ts; on a parent, its own ts once it has replies. */
  thread_ts?: string;
  reply_count?: number;
  reply_users?: string[];
  latest_reply?: string;
  edited?: { user: string; ts: string };
  /** Files shared with the message (files.completeUploadExternal), as the platform's file objects. */
  files?: unknown[];
  /** Set on a message that shares an upload. */
  upload?: boolean;
  /** reactions.add: each emoji once, with who reacted (in order) and how many. */
  reactions?: Reaction[];
  /** pins.add: the channels the message is pinned to. */
  pinned_to?: string[];
  /** Who pinned it and when (epoch seconds), for pins.list: not a platform field of the message. */
  pin?: { by: string; at: number };
  /** How it arrived: not a platform field, shown by the admin state. */
  via:
    "chat.postMessage" | "chat.scheduleMessage" | "chat.startStream" | "incoming-webhook" | "admin" | "files.completeUploadExternal" | "seed" | "interactivity";
  /** chat.stopStream's metadata ({event_type, event_payload}), as the platform returns it. */
  metadata?: unknown;
}

/** A reaction on a message, as conversations.history and reactions.get show it. */
export interface Reaction {
  name: string;
  users: string[];
  count: number;
}

export interface BotUser {
  userId: string;
  botId: string;
  appId: string;
  appName: string;
  /** Position in users.list (after every generated member). */
  index: number;
  avatarHash: string;
  created: number;
  deleted: boolean;
}

/**
 * A person who joined the workspace after it was generated (the admin surface: `POST {base}/admin/act/join-team`):
 * kept whole, at the next position of users.list, as a bot user is.
 */
export interface JoinedMember {
  userId: string;
  /** Position in users.list. */
  index: number;
  realName: string;
  /** The handle (`name`). */
  name: string;
  email?: string;
  avatarHash: string;
  /** Epoch seconds. */
  created: number;
}

/** A member's own changes to their profile (profile-edits.ts), laid over their generated record. */
export interface ProfileEdit {
  real_name?: string;
  display_name?: string;
  title?: string;
  phone?: string;
  status_text?: string;
  status_emoji?: string;
  /** Epoch seconds of the last change: the record's `updated`. */
  updated: number;
}

export interface Workspace {
  team: Team;
  seed: string;
  /** Generated (human) members; bot users come after them. */
  userCount: number;
  /** Keys the HMAC of pagination cursors: random, so cursors die with the workspace (restart, reset). */
  cursorSecret: Buffer;
  channels: Channel[];
  channelsById: Map<string, Channel>;
  /** Each channel's messages, oldest first. */
  messages: Map<string, Message[]>;
  bots: BotUser[];
  botsByAppId: Map<string, BotUser>;
  /** Internal: the id scramble and the last message ts handed out. */
  keys: ScrambleKeys;
  lastTs: { seconds: number; seq: number };
  /** Modals, App Home tabs and trigger ids (views.ts). */
  views: ViewsState;
  /** Uploads and files (files.ts). */
  files: FilesState;
  /** User groups by id (usergroups.ts). */
  usergroups: Map<string, Usergroup>;
  /** Assistant threads' status, title and prompts, and streamed messages, by `channel:ts` (assistant.ts). */
  assistantThreads: Map<string, AssistantThread>;
  streams: Map<string, MessageStream>;
  /** People who joined after the workspace was generated, in the order they joined; absent until the first. */
  joined?: JoinedMember[];
  /** Members' changes to their profiles, by user id (profile-edits.ts); absent until the first. */
  profileEdits?: Record<string, ProfileEdit>;
}

export interface CreateWorkspaceOptions {
  seed: string;
  users?: number;
  /** Default "Emulated Workspace". */
  name?: string;
  /** A history drawn from the seed in four channels (seed-content.ts); default empty channels. */
  content?: boolean;
  /**
   * Only the first this many of the standard channels (#general first). Seeded workspaces (admin
   * /installations/seed) keep a few: 100,000 workspaces of every channel would hold about 1.3 GB.
   */
  channels?: number;
}

/** Creates the workspace for a seed. Cheap for any size: members are generated on demand. */
export function createWorkspace(options: CreateWorkspaceOptions): Workspace {
  const seedHash = fnv1a(options.seed);
  const r = rng(seedHash, 0, 0);
  const mul = (Math.floor(r() * 0x7fffffff) * 2 + 1) >>> 0;
  const keys: ScrambleKeys = { seedHash, mul, mulInverse: inverseMod32(mul), add: Math.floor(r() * 0xffffffff) >>> 0 };
  const userCount = Math.max(1, Math.floor(options.users ?? DEFAULT_USER_COUNT));
  const teamId = scrambleId(keys, "T", 0);
  const team: Team = { id: teamId, name: options.name ?? "Emulated Workspace", domain: `emulated-${hex(r, 6)}` };

  const creator = scrambleId(keys, "U", 0);
  const channels = CHANNELS.slice(0, Math.max(1, options.channels ?? CHANNELS.length)).map(([name, purpose, archived], index): Channel => {
    const c = rng(seedHash, 20, index);
    const general = name === "general";
    return {
      id: scrambleId(keys, "C", index),
      name,
      index,
      created: EPOCH_2019 + Math.floor(c() * SPAN_2019_2025 * (archived ? 0.4 : 1)),
      creator: general ? creator : scrambleId(keys, "U", Math.floor(c() * userCount)),
      isArchived: archived === true,
      isGeneral: general,
      topic: general || c() < 0.5 ? purpose : "",
      purpose,
      baseMembers: general ? userCount : Math.max(1, Math.floor(userCount * (0.02 + c() * 0.3))),
    };
  });

  const ws: Workspace = {
    team,
    seed: options.seed,
    userCount,
    cursorSecret: randomBytes(32),
    channels,
    channelsById: new Map(channels.map((c) => [c.id, c])),
    messages: new Map(),
    bots: [],
    botsByAppId: new Map(),
    keys,
    lastTs: { seconds: 0, seq: 0 },
    views: createViewsState(),
    files: createFilesState(),
    usergroups: new Map(),
    assistantThreads: new Map(),
    streams: new Map(),
  };
  if (options.content) seedWorkspaceContent(ws);
  return ws;
}
