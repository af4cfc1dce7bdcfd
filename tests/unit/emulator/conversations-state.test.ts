/**
 * The conversations an app creates, opens, joins, renames and archives, and the people it invites and
 * removes, are what the next call reads: conversations.list, .members, .info, users.conversations and
 * conversations.history see the same state.
 */
import { describe, expect, it } from "vitest";
import { defaultAppManifests } from "@/lib/emulator/apps/default-apps";
import { createHarness, type Harness, type Json } from "./support/emulator-harness";
import { CONVERSATIONS_BOT_SCOPES } from "./support/conversations-app";

const BOT_SCOPES = CONVERSATIONS_BOT_SCOPES;
const USER_SCOPES = ["channels:read", "channels:write", "users:read"];

/** The default apps, declaring the scopes these methods need besides their own. */
const APPS = defaultAppManifests().map((manifest) => ({
  ...manifest,
  oauth_config: {
    ...manifest.oauth_config,
    scopes: {
      bot: [...new Set([...(manifest.oauth_config?.scopes?.bot ?? []), ...BOT_SCOPES])],
      user: [...new Set([...(manifest.oauth_config?.scopes?.user ?? []), ...USER_SCOPES])],
    },
  },
}));

interface Setup {
  h: Harness;
  token: string;
  userToken: string;
  botUserId: string;
  botId: string;
  call: (method: string, params?: Record<string, string>, token?: string) => Promise<Json>;
}

async function setUp(scope = BOT_SCOPES, users?: number): Promise<Setup> {
  const h = createHarness({ apps: APPS, ...(users ? { users } : {}) });
  const { rotation } = await h.apps();
  const grant = await h.install(rotation, { scope, userScope: USER_SCOPES });
  const call = async (method: string, params: Record<string, string> = {}, token: string = grant.access_token) =>
    (await h.call(method, params, { token })).body;
  return { h, token: grant.access_token, userToken: grant.authed_user.access_token, botUserId: grant.bot_user_id, botId: "", call };
}

const people = (h: Harness) => h.emulator.state.workspace;
/** A generated member who is not the installer, by position. */
const memberId = async (s: Setup, position: number) => ((await s.call("users.list", { limit: "40" })).members as Json[])[position]!.id as string;

async function allMembers(s: Setup, channel: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor = "";
  do {
    const page = await s.call("conversations.members", { channel, limit: "5", ...(cursor ? { cursor } : {}) });
    expect(page.ok).toBe(true);
    ids.push(...page.members);
    cursor = page.response_metadata.next_cursor;
  } while (cursor);
  return ids;
}

async function listNames(s: Setup, params: Record<string, string> = {}, method = "conversations.list"): Promise<string[]> {
  const names: string[] = [];
  let cursor = "";
  do {
    const page = await s.call(method, { limit: "3", ...params, ...(cursor ? { cursor } : {}) });
    expect(page.ok).toBe(true);
    names.push(...(page.channels as Json[]).map((c) => c.name ?? c.id));
    cursor = page.response_metadata.next_cursor;
  } while (cursor);
  return names;
}

describe("conversations.create", () => {
  it("creates a channel the bot is in, which conversations.list and conversations.info then show", async () => {
    const s = await setUp();
    const created = await s.call("conversations.create", { name: "launch-plans" });
    expect(created).toMatchObject({
      ok: true,
      channel: { name: "launch-plans", is_channel: true, is_private: false, is_archived: false, is_member: true, creator: s.botUserId, num_members: 1 },
    });
    expect(created.channel.id).toMatch(/^C0[0-9A-Z]{7}$/);
    expect(created.channel.topic).toEqual({ value: "", creator: "", last_set: 0 });
    expect(created.channel.created).toBe(Math.floor(Date.UTC(2026, 0, 1, 9, 0, 0) / 1000));
    expect(await listNames(s)).toContain("launch-plans");
    expect((await s.call("conversations.info", { channel: created.channel.id })).channel).toMatchObject({ name: "launch-plans", is_member: true });
    expect(await allMembers(s, created.channel.id)).toEqual([s.botUserId]);
    // The bot is in it, so it may post and read without joining.
    expect((await s.call("chat.postMessage", { channel: created.channel.id, text: "hi" })).ok).toBe(true);
    expect((await s.call("conversations.history", { channel: created.channel.id })).messages).toHaveLength(1);
  });

  it("creates a private channel that only its members see", async () => {
    const s = await setUp();
    const { channel } = await s.call("conversations.create", { name: "secret-plans", is_private: "true" });
    expect(channel).toMatchObject({ is_private: true, is_channel: true, is_member: true });
    expect(await listNames(s)).not.toContain("secret-plans");
    expect(await listNames(s, { types: "private_channel" })).toEqual(["secret-plans"]);
    // The installing person is not in it: it does not exist for their token.
    expect((await s.call("conversations.info", { channel: channel.id }, s.userToken)).error).toBe("channel_not_found");
    expect(await listNames(s, { types: "private_channel" }, "users.conversations")).toEqual(["secret-plans"]);
    // A private channel takes an invitation, not a join.
    expect((await s.call("conversations.join", { channel: channel.id }, s.userToken)).error).toBe("channel_not_found");
  });

  it("checks the name as the platform does", async () => {
    const s = await setUp();
    const error = async (name: string) => (await s.call("conversations.create", { name })).error;
    expect(await error("")).toBe("invalid_name_required");
    expect(await error("a".repeat(81))).toBe("invalid_name_maxlength");
    expect((await s.call("conversations.create", { name: "a".repeat(80) })).ok).toBe(true);
    expect(await error("Launch")).toBe("invalid_name_specials");
    expect(await error("launch plans")).toBe("invalid_name_specials");
    expect(await error("launch.plans")).toBe("invalid_name_specials");
    expect(await error("---")).toBe("invalid_name_punctuation");
    expect(await error("general")).toBe("name_taken");
    // An archived channel keeps its name.
    const archived = people(s.h).channels.find((c) => c.isArchived)!;
    expect(await error(archived.name)).toBe("name_taken");
    expect((await s.call("conversations.create", {})).error).toBe("invalid_name_required");
  });

  it("needs one of the write scopes its page names for a bot", async () => {
    const s = await setUp(["channels:read", "chat:write"]);
    expect(await s.call("conversations.create", { name: "nope" })).toMatchObject({
      ok: false,
      error: "missing_scope",
      needed: "channels:manage,channels:write,groups:write,im:write,mpim:write",
    });
  });
});

describe("the life of a channel", () => {
  it("create → list → rename → archive → list excludes it → unarchive → list shows it again", async () => {
    const s = await setUp();
    const { channel } = await s.call("conversations.create", { name: "project-x" });
    const renamed = await s.call("conversations.rename", { channel: channel.id, name: "project-y" });
    expect(renamed).toMatchObject({ ok: true, channel: { id: channel.id, name: "project-y", previous_names: ["project-x"] } });
    expect(await listNames(s)).toContain("project-y");
    expect(await listNames(s)).not.toContain("project-x");
    // The old name is free again, the new one taken.
    expect((await s.call("conversations.create", { name: "project-y" })).error).toBe("name_taken");

    expect(await s.call("conversations.archive", { channel: channel.id })).toEqual({ ok: true });
    expect((await s.call("conversations.info", { channel: channel.id })).channel.is_archived).toBe(true);
    expect(await listNames(s, { exclude_archived: "true" })).not.toContain("project-y");
    expect(await listNames(s)).toContain("project-y");
    expect((await s.call("conversations.archive", { channel: channel.id })).error).toBe("already_archived");
    // An archived channel refuses posts, renames, topics and joins.
    expect((await s.call("chat.postMessage", { channel: channel.id, text: "hello?" })).error).toBe("is_archived");
    expect((await s.call("conversations.rename", { channel: channel.id, name: "project-z" })).error).toBe("is_archived");
    expect((await s.call("conversations.setTopic", { channel: channel.id, topic: "t" })).error).toBe("is_archived");
    expect((await s.call("conversations.join", { channel: channel.id })).error).toBe("is_archived");

    expect(await s.call("conversations.unarchive", { channel: channel.id })).toEqual({ ok: true });
    expect(await listNames(s, { exclude_archived: "true" })).toContain("project-y");
    expect((await s.call("conversations.unarchive", { channel: channel.id })).error).toBe("not_archived");
    expect((await s.call("chat.postMessage", { channel: channel.id, text: "back" })).ok).toBe(true);
  });

  it("refuses to archive, rename, leave or kick from #general, and unknown channels", async () => {
    const s = await setUp();
    const general = people(s.h).channels.find((c) => c.isGeneral)!.id;
    expect((await s.call("conversations.archive", { channel: general })).error).toBe("cant_archive_general");
    expect((await s.call("conversations.join", { channel: general })).ok).toBe(true);
    expect((await s.call("conversations.rename", { channel: general, name: "everyone" })).error).toBe("not_authorized");
    expect((await s.call("conversations.leave", { channel: general })).error).toBe("cant_leave_general");
    expect((await s.call("conversations.kick", { channel: general, user: await memberId(s, 3) })).error).toBe("cant_kick_from_general");
    for (const method of ["conversations.archive", "conversations.unarchive", "conversations.rename", "conversations.setTopic", "conversations.leave"]) {
      expect({ method, error: (await s.call(method, { channel: "C0NOPE123", name: "x" })).error }).toEqual({ method, error: "channel_not_found" });
    }
  });

  it("renames only where the caller is a member, and checks the new name", async () => {
    const s = await setUp();
    const random = people(s.h).channels.find((c) => c.name === "random")!.id;
    expect((await s.call("conversations.rename", { channel: random, name: "chatter" })).error).toBe("not_in_channel");
    const { channel } = await s.call("conversations.create", { name: "alpha" });
    expect((await s.call("conversations.rename", { channel: channel.id, name: "Alpha!" })).error).toBe("invalid_name_specials");
    expect((await s.call("conversations.rename", { channel: channel.id, name: "random" })).error).toBe("name_taken");
  });
});

describe("conversations.setTopic and conversations.setPurpose", () => {
  it("set what conversations.info reads back, with who set it and when", async () => {
    const s = await setUp();
    const { channel } = await s.call("conversations.create", { name: "topics" });
    s.h.clock.advance(60_000);
    const set = await s.call("conversations.setTopic", { channel: channel.id, topic: "Ship it" });
    const at = Math.floor(s.h.clock.now() / 1000);
    expect(set).toMatchObject({ ok: true, channel: { topic: { value: "Ship it", creator: s.botUserId, last_set: at } } });
    expect((await s.call("conversations.setPurpose", { channel: channel.id, purpose: "Where we ship" })).ok).toBe(true);
    const info = (await s.call("conversations.info", { channel: channel.id })).channel;
    expect(info.topic).toEqual({ value: "Ship it", creator: s.botUserId, last_set: at });
    expect(info.purpose).toMatchObject({ value: "Where we ship", creator: s.botUserId });
    expect((await s.call("conversations.setTopic", { channel: channel.id, topic: "x".repeat(251) })).error).toBe("too_long");
    const random = people(s.h).channels.find((c) => c.name === "random")!.id;
    expect((await s.call("conversations.setPurpose", { channel: random, purpose: "p" })).error).toBe("not_in_channel");
  });
});

describe("conversations.invite and conversations.kick", () => {
  it("invite → members lists them; kick → not a member any more", async () => {
    const s = await setUp();
    const { channel } = await s.call("conversations.create", { name: "team-room" });
    const [a, b] = [await memberId(s, 5), await memberId(s, 6)];
    const invited = await s.call("conversations.invite", { channel: channel.id, users: `${a},${b}` });
    expect(invited).toMatchObject({ ok: true, channel: { id: channel.id, num_members: 3 } });
    expect(await allMembers(s, channel.id)).toEqual([a, b, s.botUserId]);
    expect(await listNames(s, { user: a }, "users.conversations")).toContain("team-room");

    expect(await s.call("conversations.kick", { channel: channel.id, user: a })).toEqual({ ok: true });
    expect(await allMembers(s, channel.id)).toEqual([b, s.botUserId]);
    expect(await listNames(s, { user: a }, "users.conversations")).not.toContain("team-room");
    expect((await s.call("conversations.kick", { channel: channel.id, user: a })).error).toBe("not_in_channel");
  });

  it("removes a generated member from a generated channel, and lets them back in", async () => {
    const s = await setUp();
    const random = people(s.h).channels.find((c) => c.name === "random")!;
    expect((await s.call("conversations.join", { channel: random.id })).ok).toBe(true);
    const before = await allMembers(s, random.id);
    const second = before[1]!;
    expect((await s.call("conversations.kick", { channel: random.id, user: second })).ok).toBe(true);
    const after = await allMembers(s, random.id);
    expect(after).toEqual(before.filter((id) => id !== second));
    expect((await s.call("conversations.info", { channel: random.id, include_num_members: "true" })).channel.num_members).toBe(after.length);
    expect((await s.call("conversations.invite", { channel: random.id, users: second })).ok).toBe(true);
    expect(await allMembers(s, random.id)).toEqual(before);
  });

  it("answers the platform's errors, naming the user refused", async () => {
    const s = await setUp();
    const { channel } = await s.call("conversations.create", { name: "errors" });
    const a = await memberId(s, 5);
    expect((await s.call("conversations.invite", { channel: channel.id })).error).toBe("no_user");
    expect(await s.call("conversations.invite", { channel: channel.id, users: `${a},U0NOBODY1` })).toMatchObject({
      ok: false,
      error: "user_not_found",
      errors: [{ user: "U0NOBODY1", ok: false, error: "user_not_found" }],
    });
    // Nobody was added when one was refused.
    expect(await allMembers(s, channel.id)).toEqual([s.botUserId]);
    expect((await s.call("conversations.invite", { channel: channel.id, users: s.botUserId })).error).toBe("cant_invite_self");
    expect((await s.call("conversations.invite", { channel: channel.id, users: a })).ok).toBe(true);
    expect((await s.call("conversations.invite", { channel: channel.id, users: a })).error).toBe("already_in_channel");
    const random = people(s.h).channels.find((c) => c.name === "random")!.id;
    expect((await s.call("conversations.invite", { channel: random, users: a })).error).toBe("not_in_channel");
    expect((await s.call("conversations.kick", { channel: channel.id, user: s.botUserId })).error).toBe("cant_kick_self");
    expect((await s.call("conversations.kick", { channel: channel.id, user: "U0NOBODY1" })).error).toBe("user_not_found");
  });

  it("a person's invitation puts the bot in a channel: it may then read it, and a kick takes it out again", async () => {
    const s = await setUp();
    const random = people(s.h).channels.find((c) => c.name === "random")!.id;
    expect((await s.call("conversations.history", { channel: random })).error).toBe("not_in_channel");
    // The installing person is in #random (one of its generated members) and invites the app's bot user.
    expect((await s.call("conversations.invite", { channel: random, users: s.botUserId }, s.userToken)).ok).toBe(true);
    expect((await s.call("conversations.info", { channel: random })).channel.is_member).toBe(true);
    expect((await s.call("conversations.history", { channel: random })).ok).toBe(true);
    expect((await s.call("conversations.kick", { channel: random, user: s.botUserId }, s.userToken)).ok).toBe(true);
    expect((await s.call("conversations.history", { channel: random })).error).toBe("not_in_channel");
  });
});

describe("conversations.join and conversations.leave", () => {
  it("leave takes the bot out: not a member, not in members, history refused; leaving again is no error", async () => {
    const s = await setUp();
    const random = people(s.h).channels.find((c) => c.name === "random")!.id;
    expect((await s.call("conversations.join", { channel: random })).ok).toBe(true);
    expect(await allMembers(s, random)).toContain(s.botUserId);
    expect(await s.call("conversations.leave", { channel: random })).toEqual({ ok: true });
    expect(await allMembers(s, random)).not.toContain(s.botUserId);
    expect((await s.call("conversations.history", { channel: random })).error).toBe("not_in_channel");
    expect(await s.call("conversations.leave", { channel: random })).toEqual({ ok: true, not_in_channel: true });
    expect((await s.call("conversations.join", { channel: random })).ok).toBe(true);
    expect((await s.call("conversations.join", { channel: random })).warning).toBe("already_in_channel");
  });

  it("refuses to let the last member leave a private channel", async () => {
    const s = await setUp();
    const { channel } = await s.call("conversations.create", { name: "alone", is_private: "true" });
    expect((await s.call("conversations.leave", { channel: channel.id })).error).toBe("last_member");
  });
});

describe("conversations.open", () => {
  it("opens an im with a person, the same one again, and the bot may post in it", async () => {
    const s = await setUp();
    const a = await memberId(s, 7);
    const first = await s.call("conversations.open", { users: a });
    expect(first).toEqual({ ok: true, channel: { id: expect.stringMatching(/^D0[0-9A-Z]{7}$/) } });
    const again = await s.call("conversations.open", { users: a, return_im: "true" });
    expect(again).toMatchObject({ ok: true, no_op: true, already_open: true, channel: { id: first.channel.id, is_im: true, user: a, is_open: true } });
    expect((await s.call("conversations.open", { channel: first.channel.id })).channel.id).toBe(first.channel.id);
    expect((await s.call("chat.postMessage", { channel: first.channel.id, text: "psst" })).ok).toBe(true);
    expect((await s.call("conversations.history", { channel: first.channel.id })).messages[0].text).toBe("psst");
    expect(await allMembers(s, first.channel.id)).toEqual([a, s.botUserId]);
    expect(await listNames(s, { types: "im" })).toEqual([first.channel.id]);
    // An im is listed only to its people, and is no channel the channel methods manage.
    expect(await listNames(s, { types: "im" }, "conversations.list")).toHaveLength(1);
    expect((await s.call("conversations.archive", { channel: first.channel.id })).error).toBe("method_not_supported_for_channel_type");
    expect((await s.call("conversations.open", { channel: people(s.h).channels[0]!.id })).error).toBe("method_not_supported_for_channel_type");
  });

  it("opens an mpim with several people, named after them, the same for the same people in any order", async () => {
    const s = await setUp();
    const [a, b] = [await memberId(s, 8), await memberId(s, 9)];
    const first = await s.call("conversations.open", { users: `${a},${b}`, return_im: "true" });
    expect(first).toMatchObject({ ok: true, channel: { is_mpim: true, is_private: true, name: expect.stringMatching(/^mpdm-.+--.+--.+-1$/) } });
    expect(first.channel.id).toMatch(/^G0[0-9A-Z]{7}$/);
    const again = await s.call("conversations.open", { users: `${b},${a}` });
    expect(again).toMatchObject({ no_op: true, already_open: true, channel: { id: first.channel.id } });
    expect(new Set(await allMembers(s, first.channel.id))).toEqual(new Set([a, b, s.botUserId]));
  });

  it("answers the platform's errors", async () => {
    const s = await setUp();
    expect((await s.call("conversations.open", {})).error).toBe("users_list_not_supplied");
    expect((await s.call("conversations.open", { users: "U0NOBODY1" })).error).toBe("user_not_found");
    const nine = ((await s.call("users.list", { limit: "12" })).members as Json[]).slice(1, 10).map((m) => m.id);
    expect((await s.call("conversations.open", { users: nine.join(",") })).error).toBe("too_many_users");
    expect((await s.call("conversations.open", { channel: "D0NOPE123" })).error).toBe("channel_not_found");
    // About one generated member in thirty is deactivated: the harness's 40 hold none, a workspace of 200 several.
    const crowd = await setUp(BOT_SCOPES, 200);
    const deleted = ((await crowd.call("users.list", { limit: "200" })).members as Json[]).find((m) => m.deleted);
    expect(deleted, "a deactivated member among 200").toBeDefined();
    expect((await crowd.call("conversations.open", { users: deleted!.id })).error).toBe("user_disabled");
  });
});

describe("users.conversations", () => {
  it("lists the caller's conversations by type, page by page, archived ones left out on request", async () => {
    const s = await setUp();
    expect(await listNames(s, {}, "users.conversations")).toEqual([]);
    const general = people(s.h).channels.find((c) => c.isGeneral)!.id;
    await s.call("conversations.join", { channel: general });
    for (const name of ["u-one", "u-two", "u-three", "u-four"]) await s.call("conversations.create", { name });
    await s.call("conversations.create", { name: "u-private", is_private: "true" });
    const { channel } = await s.call("conversations.create", { name: "u-archived" });
    await s.call("conversations.archive", { channel: channel.id });
    expect(await listNames(s, {}, "users.conversations")).toEqual(["general", "u-one", "u-two", "u-three", "u-four", "u-archived"]);
    expect(await listNames(s, { exclude_archived: "true" }, "users.conversations")).not.toContain("u-archived");
    expect(await listNames(s, { types: "public_channel,private_channel" }, "users.conversations")).toContain("u-private");
    // Another person's: the generated channels they are in.
    const installer = people(s.h).channels.filter((c) => c.baseMembers >= 1 && !c.type).length;
    expect((await listNames(s, { user: (await s.call("auth.test", {}, s.userToken)).user_id }, "users.conversations")).length).toBe(installer);
    expect((await s.call("users.conversations", { user: "U0NOBODY1" })).error).toBe("user_not_found");
    expect((await s.call("users.conversations", { types: "channels" })).error).toBe("invalid_types");
    expect((await s.call("users.conversations", { cursor: "garbage" })).error).toBe("invalid_cursor");
  });
});

describe("users.profile.get", () => {
  it("answers the profile users.info has, for a person or the caller", async () => {
    const s = await setUp();
    const a = await memberId(s, 4);
    const info = (await s.call("users.info", { user: a })).user;
    expect(await s.call("users.profile.get", { user: a })).toEqual({ ok: true, profile: info.profile });
    const own = await s.call("users.profile.get");
    expect(own.profile).toEqual((await s.call("users.info", { user: s.botUserId })).user.profile);
    expect((await s.call("users.profile.get", { user: "U0NOBODY1" })).error).toBe("user_not_found");
    const narrow = await setUp(["users:read"]);
    expect(await narrow.call("users.profile.get", { user: a })).toMatchObject({ error: "missing_scope", needed: "users.profile:read" });
  });
});

describe("team.info", () => {
  it("describes the workspace with the domain its record holds", async () => {
    const s = await setUp();
    const ws = people(s.h);
    const { team } = await s.call("team.info");
    expect(team).toMatchObject({ id: ws.team.id, name: ws.team.name, domain: ws.team.domain, email_domain: `${ws.team.domain}.example.com` });
    expect(ws.team.domain).toMatch(/^emulated-[0-9a-f]{6}$/);
    expect(team.icon).toMatchObject({ image_default: true, image_34: expect.stringContaining(`/avatars/${ws.team.id}/default-34.svg`) });
    const icon = await s.h.emulator.fetch(new Request(team.icon.image_132));
    expect(icon.status).toBe(200);
    // Members' addresses are at the email domain.
    const withEmail = ((await s.call("users.list", { limit: "10" })).members as Json[]).find((m) => m.profile.email);
    expect(withEmail!.profile.email.endsWith(`@${team.email_domain}`)).toBe(true);
    expect((await s.call("team.info", { team: "T0OTHER12" })).error).toBe("team_not_found");
    const narrow = await setUp(["users:read"]);
    expect(await narrow.call("team.info")).toMatchObject({ error: "missing_scope", needed: "team:read" });
  });
});

describe("bots.info", () => {
  it("describes the installation's bot, and an uninstalled app's as deleted", async () => {
    const s = await setUp();
    const installation = [...s.h.emulator.state.installations.values()][0]!;
    const { bot } = await s.call("bots.info", { bot: installation.botId });
    expect(bot).toMatchObject({ id: installation.botId, app_id: installation.appId, user_id: s.botUserId, deleted: false, name: "Switchboard Rotation" });
    expect(typeof bot.updated).toBe("number");
    expect(Object.keys(bot.icons)).toEqual(["image_36", "image_48", "image_72"]);
    expect((await s.call("bots.info", { bot: "B0NOPE123" })).error).toBe("bot_not_found");
    expect((await s.call("bots.info")).error).toBe("bot_not_found");
    // Uninstalled, the app's bot stays, marked deleted, as another app's token reads it.
    const { rotation, legacy } = await s.h.apps();
    const other = await s.h.install(legacy, { scope: BOT_SCOPES, userScope: USER_SCOPES });
    expect((await s.call("apps.uninstall", { client_id: rotation.client_id, client_secret: rotation.client_secret })).ok).toBe(true);
    const after = await s.call("bots.info", { bot: installation.botId }, other.access_token);
    expect(after).toMatchObject({ ok: true, bot: { id: installation.botId, user_id: s.botUserId, deleted: true } });
  });
});
