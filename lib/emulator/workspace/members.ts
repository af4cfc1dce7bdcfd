/**
 * The workspace's members (spec 2.4, docs/spec/web-api.md): member i is a pure function of (seed, i),
 * generated when a page or a lookup asks for it and never stored; the bot users of installed apps come
 * after the generated members. An id leads back to its position in O(1), so a page costs the same wherever
 * it is.
 */
import { hex, pick, rng, scrambleId, unscrambleId } from "./ids";
import { COLORS, EPOCH_2019, FIRST_NAMES, LAST_NAMES, SPAN_2019_2025, STATUSES, TIME_ZONES, TITLES } from "./vocabulary";
import { applyProfileEdit } from "./profile-edits";
import type { BotUser, JoinedMember, Workspace } from "./workspace";
import { touch } from "../core/change-tracking";

/** Every member: the generated ones, then the bot users of installed apps and the people who joined, in the order they came. */
export function memberCount(ws: Workspace): number {
  return ws.userCount + ws.bots.length + (ws.joined?.length ?? 0);
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
  return index >= ws.userCount ? botAt(ws, index) : undefined;
}

/** The bot user at a position past the generated members (bots and people who joined share those positions). */
function botAt(ws: Workspace, index: number): BotUser | undefined {
  // Before anyone joined, the bots are those positions in order.
  const direct = ws.bots[index - ws.userCount];
  return direct?.index === index ? direct : ws.bots.find((b) => b.index === index);
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
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ø/g, "o")
    .replace(/Ø/g, "O");
}

function slug(text: string): string {
  return normalize(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");
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

interface Name {
  name: string;
  normalized: string;
}

/**
 * A member's display name and custom status, required fields of a profile (the OpenAPI's objs_user_profile,
 * and the reference's users.list example). From their own stream, so the rest of the record does not move.
 * Most have no display name (""; clients then show real_name), others their first name, first name and
 * initial, or handle; about one in four has a status. `*_normalized` strips diacritics as real_name's does.
 */
function displayAndStatus(ws: Workspace, index: number, first: Name, last: Name, handle: string): Record<string, unknown> {
  const r = rng(ws.keys.seedHash, 13, index);
  const roll = r();
  const initial = Array.from(last.name)[0] ?? "";
  const [displayName, displayNameNormalized] =
    roll < 0.45
      ? ["", ""]
      : roll < 0.75
        ? [first.name, first.normalized]
        : roll < 0.9
          ? [`${first.name} ${initial}.`, `${first.normalized} ${normalize(initial)}.`]
          : [handle, handle];
  const [statusText, statusEmoji] = r() < 0.25 ? pick(STATUSES, r()) : ["", ""];
  return {
    display_name: displayName,
    display_name_normalized: displayNameNormalized,
    status_text: statusText,
    status_emoji: statusEmoji,
    status_expiration: 0,
  };
}

/**
 * The user record (spec 2.4) at a position of users.list. A pure function of (seed, index) for generated
 * members; image URLs point at `baseUrl`, the emulator's base as this request reached it.
 */
export function memberAt(ws: Workspace, index: number, baseUrl: string): Record<string, unknown> {
  if (index >= ws.userCount) {
    const bot = botAt(ws, index);
    return bot ? botMember(ws, bot, baseUrl) : joinedMember(ws, ws.joined?.find((j) => j.index === index) as JoinedMember, baseUrl);
  }
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
    ...displayAndStatus(ws, index, first, last, name),
    first_name: first.name,
    last_name: last.name,
  };
  // title, phone and skype are required fields of a profile (the OpenAPI's objs_user_profile): "" when unset.
  const titleRoll = r();
  profile.title = titleRoll < 0.6 ? pick(TITLES, r()) : "";
  const phoneRoll = r();
  profile.phone = phoneRoll < 0.3 ? `+1 555 01${String(index % 100).padStart(2, "0")}` : "";
  const skypeRoll = r();
  profile.skype = skypeRoll < 0.08 ? `${name.replace(".", "_")}` : "";
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
  applyProfileEdit(ws, member, normalize);
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
      display_name: "",
      display_name_normalized: "",
      status_text: "",
      status_emoji: "",
      status_expiration: 0,
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

/** A person who joined, as users.list shows them: a full member, neither admin nor guest. */
function joinedMember(ws: Workspace, person: JoinedMember, baseUrl: string): Record<string, unknown> {
  const [first = person.realName, ...rest] = person.realName.split(/\s+/);
  const member: Record<string, unknown> = {
    id: person.userId,
    team_id: ws.team.id,
    name: person.name,
    deleted: false,
    color: pick(COLORS, rng(ws.keys.seedHash, 14, person.index)()),
    real_name: person.realName,
    tz: "America/Los_Angeles",
    tz_label: "Pacific Standard Time",
    tz_offset: -28800,
    profile: {
      avatar_hash: person.avatarHash,
      real_name: person.realName,
      real_name_normalized: normalize(person.realName),
      display_name: "",
      display_name_normalized: "",
      status_text: "",
      status_emoji: "",
      status_expiration: 0,
      first_name: first,
      last_name: rest.join(" "),
      title: "",
      phone: "",
      skype: "",
      ...(person.email ? { email: person.email } : {}),
      ...images(baseUrl, person.userId, person.avatarHash, false),
      always_active: false,
      fields: null,
      team: ws.team.id,
    },
    is_admin: false,
    is_owner: false,
    is_primary_owner: false,
    is_restricted: false,
    is_ultra_restricted: false,
    is_bot: false,
    is_app_user: false,
    updated: person.created,
  };
  applyProfileEdit(ws, member, normalize);
  return member;
}

/** A person joins the workspace (`now` epoch ms): the next position of users.list, a handle made from their name. */
export function addJoinedMember(ws: Workspace, person: { realName: string; email?: string }, now: number): JoinedMember {
  const index = memberCount(ws);
  const joined: JoinedMember = {
    userId: memberIdAt(ws, index),
    index,
    realName: person.realName,
    name: `${slug(person.realName) || "member"}${index}`,
    ...(person.email ? { email: person.email } : {}),
    avatarHash: `g${hex(rng(ws.keys.seedHash, 15, index), 11)}`,
    created: Math.floor(now / 1000),
  };
  ws.joined = [...(ws.joined ?? []), joined];
  touch(ws);
  return joined;
}

/**
 * The bot user of an app, created on its first install and kept across reinstalls (as the platform does).
 * `now` is epoch ms.
 */
export function addBotUser(ws: Workspace, app: { appId: string; appName: string }, now: number): { userId: string; botId: string } {
  const existing = ws.botsByAppId.get(app.appId);
  if (existing) {
    existing.deleted = false;
    touch(existing);
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
  if (bot) {
    bot.deleted = true;
    touch(bot);
  }
}
