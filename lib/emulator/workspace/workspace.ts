import { randomBytes } from "node:crypto";
import type { EventDelivery } from "../events/events";

/**
 * The emulated workspace: its team, members, public channels and the messages they received.
 *
 * Members are a pure function of (seed, position): member i is generated when asked for, never stored,
 * so a workspace of 100,000 members costs nothing at start and a page costs the same wherever it is.
 * Ids are an invertible scramble of the position, so an id (from a cursor or an avatar URL) leads back
 * to its member in O(1). Bot users added by installs come after the generated members.
 */

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
  /** Human members (bots that joined are counted on top). */
  baseMembers: number;
}

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
  /** A reply's parent ts; on a parent, its own ts once it has replies. */
  thread_ts?: string;
  reply_count?: number;
  reply_users?: string[];
  latest_reply?: string;
  edited?: { user: string; ts: string };
  /** How it arrived: not a platform field, shown by the admin state. */
  via: "chat.postMessage" | "incoming-webhook" | "admin";
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
  /** Events sent to apps' request URLs, newest last (the most recent few hundred). */
  deliveries: EventDelivery[];
  /** Deliveries still being attempted (retries included). */
  deliveriesInFlight: Set<Promise<void>>;
  /** Internal: the id scramble, the last message ts and event id handed out. */
  keys: ScrambleKeys;
  lastTs: { seconds: number; seq: number };
  eventSeq: number;
}

export interface CreateWorkspaceOptions {
  seed: string;
  users?: number;
  /** Default "Emulated Workspace". */
  name?: string;
}

interface ScrambleKeys {
  seedHash: number;
  mul: number;
  mulInverse: number;
  add: number;
}

// ---------------------------------------------------------------------------------------------------------
// Deterministic randomness

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A small fast PRNG (mulberry32): every member draws from its own stream, seeded by (seed, index). */
export function rng(seedHash: number, stream: number, index: number): () => number {
  let a = (seedHash ^ Math.imul(stream + 1, 0x85ebca6b) ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(list: readonly T[], r: number): T {
  return list[Math.floor(r * list.length) % list.length] as T;
}

function hex(r: () => number, length: number): string {
  let out = "";
  while (out.length < length) out += Math.floor(r() * 0x10000).toString(16).padStart(4, "0");
  return out.slice(0, length);
}

/** The inverse of an odd number modulo 2^32 (Newton's iteration). */
function inverseMod32(a: number): number {
  let x = a;
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(a, x));
  return x >>> 0;
}

const ID_STREAMS = { U: 1, C: 2, B: 3, T: 4 } as const;
type IdPrefix = keyof typeof ID_STREAMS;

/** An id like the platform's (`U0…`, 9 characters): a bijective scramble of a position. */
function scrambleId(keys: ScrambleKeys, prefix: IdPrefix, index: number): string {
  const n = (Math.imul(index + ID_STREAMS[prefix] * 0x1000_0000, keys.mul) + keys.add) >>> 0;
  return `${prefix}0${n.toString(36).toUpperCase().padStart(7, "0")}`;
}

const ID_SHAPE = /^[UCBT]0[0-9A-Z]{7}$/;

/** The position an id was made from, or -1 when it is not one of ours. */
function unscrambleId(keys: ScrambleKeys, prefix: IdPrefix, id: string): number {
  if (id[0] !== prefix || !ID_SHAPE.test(id)) return -1;
  const n = parseInt(id.slice(2), 36);
  if (!Number.isSafeInteger(n) || n > 0xffffffff) return -1;
  const index = (Math.imul((n - keys.add) >>> 0, keys.mulInverse) - ID_STREAMS[prefix] * 0x1000_0000) >>> 0;
  return scrambleId(keys, prefix, index) === id ? index : -1;
}

// ---------------------------------------------------------------------------------------------------------
// Vocabulary

const FIRST_NAMES = [
  "Ada", "Alan", "Amara", "Aiko", "Björn", "Bea", "Carlos", "Chen", "Chloé", "Dara", "Dmitri", "Elena", "Emeka",
  "Esther", "Farah", "Felix", "Grace", "Gustavo", "Hana", "Hugo", "Ines", "Ivan", "Jamal", "Jana", "Jonas",
  "José", "Kai", "Keiko", "Lars", "Leila", "Liam", "Lucía", "Maya", "Mateo", "Mei", "Nadia", "Niamh", "Noah",
  "Oskar", "Olu", "Priya", "Paolo", "Quinn", "Rafael", "Rania", "Rosa", "Sami", "Sofia", "Søren", "Tariq",
  "Tomás", "Uma", "Valentina", "Victor", "Wei", "Xavier", "Yara", "Yusuf", "Zanele", "Zoë",
] as const;

const LAST_NAMES = [
  "Abadi", "Andersen", "Baker", "Banerjee", "Castillo", "Costa", "Dubois", "Dlamini", "Eriksson", "Fischer",
  "Fernández", "García", "Gonzaga", "Hansen", "Hoang", "Ibrahim", "Ivanova", "Jansen", "Jiménez", "Kowalski",
  "Kim", "Larsen", "López", "Martin", "Mensah", "Müller", "Nakamura", "Novak", "Nguyen", "O'Brien", "Okafor",
  "Pereira", "Petrov", "Quispe", "Rossi", "Rahman", "Schmidt", "Silva", "Sato", "Tanaka", "Taylor", "Usman",
  "Varga", "Vasquez", "Wagner", "Wong", "Xu", "Yamamoto", "Yilmaz", "Zhang",
] as const;

const TITLES = [
  "Software Engineer", "Senior Software Engineer", "Staff Engineer", "Engineering Manager", "Product Manager",
  "Product Designer", "Data Scientist", "Support Specialist", "Account Executive", "Marketing Lead",
  "Site Reliability Engineer", "Technical Writer", "Recruiter", "Finance Analyst", "QA Engineer", "CTO",
] as const;

/** Time zones with the standard-time label and offset the platform reports (DST is not modelled). */
const TIME_ZONES = [
  ["America/Los_Angeles", "Pacific Standard Time", -28800],
  ["America/Denver", "Mountain Standard Time", -25200],
  ["America/Chicago", "Central Standard Time", -21600],
  ["America/New_York", "Eastern Standard Time", -18000],
  ["America/Sao_Paulo", "Brasilia Standard Time", -10800],
  ["Europe/London", "Greenwich Mean Time", 0],
  ["Europe/Berlin", "Central European Time", 3600],
  ["Europe/Helsinki", "Eastern European Time", 7200],
  ["Africa/Lagos", "West Africa Standard Time", 3600],
  ["Asia/Kolkata", "India Standard Time", 19800],
  ["Asia/Singapore", "Singapore Standard Time", 28800],
  ["Asia/Tokyo", "Japan Standard Time", 32400],
  ["Australia/Sydney", "Australian Eastern Standard Time", 36000],
] as const;

const COLORS = [
  "9f69e7", "4bbe2e", "e7392d", "3c989f", "674b1b", "e96699", "e0a729", "684b6c", "5b89d5", "53b759",
  "2b6836", "99d04a", "dd8527", "bb86b7", "df3dc0", "4ec0d6", "e23f99", "d55aef", "9b3b45", "235e5b",
] as const;

const CHANNELS: ReadonlyArray<readonly [name: string, purpose: string, archived?: true]> = [
  ["general", "This is the one channel that will always include everyone."],
  ["random", "A place for non-work banter, links, articles of interest, humor or anything else."],
  ["announcements", "Company-wide news."],
  ["engineering", "Everything engineering."],
  ["design", "Critiques, inspiration and the design system."],
  ["product", "Roadmaps, specs and launches."],
  ["support", "Customer questions and escalations."],
  ["sales", "Deals, demos and wins."],
  ["marketing", "Campaigns and content."],
  ["incidents", "Live incidents: one thread per incident."],
  ["deploys", "Deploy notifications."],
  ["releases", "Release notes as they ship."],
  ["help-desk", "Laptops, accounts and access requests."],
  ["watercooler", "Say hi."],
  ["music", "What are you listening to?"],
  ["books", "Reading recommendations."],
  ["pets", "Photos required."],
  ["travel", "Trips, tips and itineraries."],
  ["fitness", "Steps, runs and rides."],
  ["food", "Lunch plans and recipes."],
  ["gaming", "Game nights."],
  ["hiring", "Open roles and referrals."],
  ["onboarding", "Welcome, new folks!"],
  ["security", "Security questions and advisories."],
  ["infra", "Clusters, networks and costs."],
  ["data", "Pipelines and warehouses."],
  ["analytics", "Dashboards and metrics."],
  ["frontend", "Web clients."],
  ["backend", "Services and APIs."],
  ["mobile", "iOS and Android."],
  ["qa", "Test plans and bug bashes."],
  ["docs", "Documentation."],
  ["finance", "Budgets and expenses."],
  ["legal", "Contracts and policies."],
  ["people", "HR questions."],
  ["events", "Meetups and conferences."],
  ["kudos", "Thank someone."],
  ["feedback", "Product feedback from everyone."],
  ["old-website", "The website before the redesign.", true],
  ["project-phoenix", "Phoenix (shipped 2022).", true],
  ["offsite-2019", "Planning the 2019 offsite.", true],
  ["legacy-support", "Replaced by #support.", true],
];

const EPOCH_2019 = 1546300800;
const SPAN_2019_2025 = 6 * 365 * 86400;

// ---------------------------------------------------------------------------------------------------------
// Creation

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
  const channels = CHANNELS.map(([name, purpose, archived], index): Channel => {
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

  return {
    team,
    seed: options.seed,
    userCount,
    cursorSecret: randomBytes(32),
    channels,
    channelsById: new Map(channels.map((c) => [c.id, c])),
    messages: new Map(),
    bots: [],
    botsByAppId: new Map(),
    deliveries: [],
    deliveriesInFlight: new Set(),
    keys,
    lastTs: { seconds: 0, seq: 0 },
    eventSeq: 0,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Members

/** Every member: the generated ones, then the bot users of installed apps. */
export function memberCount(ws: Workspace): number {
  return ws.userCount + ws.bots.length;
}

export function memberIdAt(ws: Workspace, index: number): string {
  return scrambleId(ws.keys, "U", index);
}

/** The position of a member id in users.list, or -1 for an unknown id. O(1). */
export function memberIndexOf(ws: Workspace, userId: string): number {
  const index = unscrambleId(ws.keys, "U", userId);
  return index >= 0 && index < memberCount(ws) ? index : -1;
}

/** The member who installs apps from the consent page: the workspace's primary owner. */
export function installingUserId(ws: Workspace): string {
  return memberIdAt(ws, 0);
}

export function botByUserId(ws: Workspace, userId: string): BotUser | undefined {
  const index = memberIndexOf(ws, userId);
  return index >= ws.userCount ? ws.bots[index - ws.userCount] : undefined;
}

/** What an avatar image shows: initials on the member's color. */
export interface AvatarFace {
  initials: string;
  color: string;
  avatarHash: string;
}

export const AVATAR_SIZES = [24, 32, 48, 72, 192, 512, 1024] as const;
export type AvatarSize = (typeof AVATAR_SIZES)[number] | "original";

/** `{base}/avatars/{userId}/{avatarHash}-{size}.svg`: the hash in the path makes the URL immutable. */
export function avatarUrl(baseUrl: string, userId: string, avatarHash: string, size: AvatarSize): string {
  return `${baseUrl}/avatars/${userId}/${avatarHash}-${size}.svg`;
}

function normalize(text: string): string {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/ø/g, "o").replace(/Ø/g, "O");
}

function slug(text: string): string {
  return normalize(text).toLowerCase().replace(/[^a-z0-9]+/g, "");
}

// Normalizing is the costliest step of generating a member: do it once per name, not once per member.
const FIRST = FIRST_NAMES.map((name) => ({ name, normalized: normalize(name), slug: slug(name) }));
const LAST = LAST_NAMES.map((name) => ({ name, normalized: normalize(name), slug: slug(name) }));

/** The avatar face of a member, or undefined for an unknown id. */
export function avatarFace(ws: Workspace, userId: string): AvatarFace | undefined {
  const index = memberIndexOf(ws, userId);
  if (index < 0) return undefined;
  const m = memberAt(ws, index, "");
  const profile = m.profile as { real_name: string; avatar_hash: string };
  const initials = profile.real_name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? "")
    .join("");
  return { initials, color: m.color as string, avatarHash: profile.avatar_hash };
}

function images(baseUrl: string, userId: string, avatarHash: string, custom: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  // Members still on a default avatar have no 1024 or original image, as on the platform.
  for (const size of AVATAR_SIZES) {
    if (size === 1024 && !custom) continue;
    out[`image_${size}`] = avatarUrl(baseUrl, userId, avatarHash, size);
  }
  if (custom) out.image_original = avatarUrl(baseUrl, userId, avatarHash, "original");
  return out;
}

/**
 * The user record (spec 2.4) at a position of users.list. A pure function of (seed, index) for generated
 * members; image URLs point at `baseUrl`, the emulator's base as this request reached it.
 */
export function memberAt(ws: Workspace, index: number, baseUrl: string): Record<string, unknown> {
  if (index >= ws.userCount) return botMember(ws, ws.bots[index - ws.userCount] as BotUser, baseUrl);
  const r = rng(ws.keys.seedHash, 10, index);
  const id = memberIdAt(ws, index);
  const first = FIRST[(index + (ws.keys.seedHash % FIRST.length)) % FIRST.length] as (typeof FIRST)[number];
  const round = Math.floor(index / FIRST.length);
  const last = LAST[(round + (ws.keys.add % LAST.length)) % LAST.length] as (typeof LAST)[number];
  const generation = Math.floor(round / LAST.length);
  const realName = `${first.name} ${last.name}`;
  const name = `${first.slug}.${last.slug}${generation > 0 ? generation + 1 : ""}`;

  const primaryOwner = index === 0;
  const roll = r();
  const isOwner = primaryOwner || roll < 0.004;
  const isAdmin = isOwner || roll < 0.03;
  const guestRoll = r();
  const isRestricted = !isAdmin && guestRoll < 0.04;
  const isUltraRestricted = isRestricted && guestRoll < 0.012;
  const deleted = !isOwner && r() < 0.03;
  const zone = pick(TIME_ZONES, r());
  const tzUnknown = r() < 0.02;
  const custom = r() < 0.55;
  const avatarHash = custom ? hex(r, 12) : `g${hex(r, 11)}`;
  const color = pick(COLORS, r());
  const updated = EPOCH_2019 + Math.floor(r() * SPAN_2019_2025);

  const profile: Record<string, unknown> = {
    avatar_hash: avatarHash,
    real_name: realName,
    real_name_normalized: `${first.normalized} ${last.normalized}`,
    first_name: first.name,
    last_name: last.name,
  };
  const titleRoll = r();
  if (titleRoll < 0.6) profile.title = pick(TITLES, r());
  else if (titleRoll < 0.8) profile.title = "";
  const phoneRoll = r();
  if (phoneRoll < 0.3) profile.phone = `+1 555 01${String(index % 100).padStart(2, "0")}`;
  else if (phoneRoll < 0.6) profile.phone = "";
  const skypeRoll = r();
  if (skypeRoll < 0.08) profile.skype = `${name.replace(".", "_")}`;
  else if (skypeRoll < 0.4) profile.skype = "";
  if (!isUltraRestricted || r() < 0.5) profile.email = `${name}@${ws.team.domain}.example.com`;
  Object.assign(profile, images(baseUrl, id, avatarHash, custom));
  profile.always_active = false;
  profile.fields = r() < 0.7 ? null : {};
  profile.team = ws.team.id;

  const member: Record<string, unknown> = {
    id,
    team_id: ws.team.id,
    name,
    deleted,
    color,
    real_name: realName,
    tz: tzUnknown ? null : zone[0],
    tz_label: tzUnknown ? "Pacific Standard Time" : zone[1],
    tz_offset: tzUnknown ? -28800 : zone[2],
    profile,
    is_admin: isAdmin,
    is_owner: isOwner,
    is_primary_owner: primaryOwner,
    is_restricted: isRestricted,
    is_ultra_restricted: isUltraRestricted,
    is_bot: false,
    is_app_user: false,
    updated,
  };
  // has_2fa is not on every record (spec 2.4): the platform omits it where it does not apply.
  const twoFactor = r();
  if (twoFactor < 0.75) member.has_2fa = twoFactor < 0.45;
  return member;
}

function botMember(ws: Workspace, bot: BotUser, baseUrl: string): Record<string, unknown> {
  const color = pick(COLORS, rng(ws.keys.seedHash, 11, bot.index)());
  return {
    id: bot.userId,
    team_id: ws.team.id,
    name: slug(bot.appName) || "app",
    deleted: bot.deleted,
    color,
    real_name: bot.appName,
    tz: null,
    tz_label: "Pacific Standard Time",
    tz_offset: -28800,
    profile: {
      avatar_hash: bot.avatarHash,
      real_name: bot.appName,
      real_name_normalized: normalize(bot.appName),
      first_name: bot.appName,
      last_name: "",
      title: "",
      phone: "",
      skype: "",
      ...images(baseUrl, bot.userId, bot.avatarHash, true),
      always_active: true,
      fields: null,
      bot_id: bot.botId,
      api_app_id: bot.appId,
      team: ws.team.id,
    },
    is_admin: false,
    is_owner: false,
    is_primary_owner: false,
    is_restricted: false,
    is_ultra_restricted: false,
    is_bot: true,
    is_app_user: false,
    updated: bot.created,
  };
}

/**
 * The bot user of an app, created on its first install and kept across reinstalls (as the platform does).
 * `now` is epoch ms.
 */
export function addBotUser(ws: Workspace, app: { appId: string; appName: string }, now: number): { userId: string; botId: string } {
  const existing = ws.botsByAppId.get(app.appId);
  if (existing) {
    existing.deleted = false;
    return { userId: existing.userId, botId: existing.botId };
  }
  const index = memberCount(ws);
  const bot: BotUser = {
    userId: memberIdAt(ws, index),
    botId: scrambleId(ws.keys, "B", ws.bots.length),
    appId: app.appId,
    appName: app.appName,
    index,
    avatarHash: hex(rng(ws.keys.seedHash, 12, index), 12),
    created: Math.floor(now / 1000),
    deleted: false,
  };
  ws.bots.push(bot);
  ws.botsByAppId.set(app.appId, bot);
  return { userId: bot.userId, botId: bot.botId };
}

/** An uninstalled app's bot user stays listed, marked deleted, as on the platform. */
export function markBotUserDeleted(ws: Workspace, appId: string): void {
  const bot = ws.botsByAppId.get(appId);
  if (bot) bot.deleted = true;
}

// ---------------------------------------------------------------------------------------------------------
// Channels and messages

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

/** A message ts (`seconds.micro-sequence`), strictly increasing across the workspace. `now` is epoch ms. */
function nextMessageTs(ws: Workspace, now: number): string {
  const seconds = Math.floor(now / 1000);
  if (seconds > ws.lastTs.seconds) ws.lastTs = { seconds, seq: 1 };
  else ws.lastTs = { seconds: ws.lastTs.seconds, seq: ws.lastTs.seq + 1 };
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
  }
  return true;
}

/** Every message in the workspace, per channel id (what the admin state shows). */
export function channelMessages(ws: Workspace, channelId: string): readonly Message[] {
  return ws.messages.get(channelId) ?? [];
}
