/**
 * The events of a workspace's own changes and of an installation's transitions, over HTTP: channel_created,
 * channel_rename, channel_archive and channel_unarchive from a member's user token and the admin surface,
 * user_change from a member changing their profile (the admin surface acting as them), file_shared from an
 * upload completed into a conversation, tokens_revoked and app_uninstalled from auth.revoke and apps.uninstall;
 * and user events (the manifest's user_events), delivered for what the installing member may see, with
 * `authorizations` naming the member.
 */
import { describe, expect, it } from "vitest";
import { settleEventDeliveries } from "@/lib/emulator";
import { answeringChallenges } from "./support/request-url";
import { createHarness, type AdminApp, type Json } from "./support/emulator-harness";

const WATCHED = [
  "channel_created",
  "channel_rename",
  "channel_archive",
  "channel_unarchive",
  "team_join",
  "user_change",
  "file_shared",
  "tokens_revoked",
  "app_uninstalled",
];
const WATCHER_SCOPES = ["channels:read", "channels:join", "users:read", "files:read", "chat:write"];
const MEMBER_SCOPES = ["channels:write", "channels:history", "files:write", "reactions:read", "reactions:write", "chat:write"];

function manifest(name: string, events: { bot?: string[]; user?: string[] }, scopes: { bot: string[]; user?: string[] }, rotation = true): Json {
  return {
    display_information: { name },
    features: { bot_user: { display_name: name.toLowerCase() } },
    oauth_config: { redirect_urls: ["http://localhost:3000/oauth/callback"], scopes: { bot: scopes.bot, user: scopes.user ?? [] } },
    settings: {
      token_rotation_enabled: rotation,
      event_subscriptions: { request_url: `http://127.0.0.1:3209/${name}/events`, bot_events: events.bot ?? [], user_events: events.user ?? [] },
    },
  };
}

async function setUp(options: { rotation?: boolean } = {}) {
  const delivered: Json[] = [];
  const h = createHarness({
    deliverEvent: answeringChallenges(async (_url, init) => {
      delivered.push(JSON.parse(String(init.body)) as Json);
      return new Response("", { status: 200 });
    }),
  });
  await h.admin("apps", manifest("Watcher", { bot: WATCHED }, { bot: WATCHER_SCOPES, user: MEMBER_SCOPES }, options.rotation ?? true));
  // Subscribed to the same events, granted none of the scopes they need.
  await h.admin("apps", manifest("Blind", { bot: WATCHED }, { bot: ["chat:write"] }));
  const all = (await h.apps()).all as AdminApp[];
  const watcher = await h.install(
    all.find((a) => a.name === "Watcher")!,
    { scope: WATCHER_SCOPES, userScope: MEMBER_SCOPES },
  );
  const blind = await h.install(
    all.find((a) => a.name === "Blind")!,
    { scope: ["chat:write"], userScope: [] },
  );
  const settle = async () => {
    await settleEventDeliveries(h.emulator.state);
    return delivered.splice(0);
  };
  await settle();
  return { h, watcher, blind, userToken: watcher.authed_user.access_token as string, settle };
}

const kinds = (deliveries: Json[]) => deliveries.map((d) => [d.api_app_id, d.event.type]);

describe("channel events", () => {
  it("channel_created, channel_rename, channel_archive and channel_unarchive reach an app with channels:read, in the channel or not", async () => {
    const { h, watcher, userToken, settle } = await setUp();
    const created = (await h.call("conversations.create", { name: "launch-plans" }, { token: userToken })).body;
    expect(created.ok).toBe(true);
    const [made, ...others] = await settle();
    expect(others).toEqual([]);
    expect(made).toMatchObject({
      type: "event_callback",
      api_app_id: watcher.app_id,
      event: {
        type: "channel_created",
        channel: { id: created.channel.id, name: "launch-plans", creator: watcher.authed_user.id, created: created.channel.created },
      },
    });
    expect(made?.event.event_ts).toMatch(/^\d+\.\d{6}$/);

    await h.call("conversations.rename", { channel: created.channel.id, name: "launch-plans-2027" }, { token: userToken });
    await h.call("conversations.archive", { channel: created.channel.id }, { token: userToken });
    await h.call("conversations.unarchive", { channel: created.channel.id }, { token: userToken });
    const changes = await settle();
    expect(changes.map((d) => d.event)).toEqual([
      expect.objectContaining({ type: "channel_rename", channel: expect.objectContaining({ id: created.channel.id, name: "launch-plans-2027" }) }),
      expect.objectContaining({ type: "channel_archive", channel: created.channel.id, user: watcher.authed_user.id }),
      expect.objectContaining({ type: "channel_unarchive", channel: created.channel.id, user: watcher.authed_user.id }),
    ]);
    expect(new Set(changes.map((d) => d.api_app_id))).toEqual(new Set([watcher.app_id]));

    // An admin archiving a channel from the admin surface: the same event, by the primary owner.
    const archived = await h.admin("channels", { id: created.channel.id, archived: true });
    expect(archived.status).toBe(200);
    expect(kinds(await settle())).toEqual([[watcher.app_id, "channel_archive"]]);
    // A private channel's changes are group_* events on the platform: no channel_* event.
    await h.call("conversations.create", { name: "secret-plans", is_private: "true" }, { token: userToken });
    expect(await settle()).toEqual([]);
  });
});

describe("a member's profile and files", () => {
  it("user_change carries the member's record as users.info answers it after they change their profile", async () => {
    const { h, watcher, settle } = await setUp();
    const owner = watcher.authed_user.id as string;
    const changed = await h.admin("act/profile", { title: "Head of Launches", status_text: "On a rocket", status_emoji: ":rocket:" });
    expect(changed.body).toMatchObject({ ok: true, user: { id: owner, profile: { title: "Head of Launches" } }, event_ids: [expect.any(String)] });
    const [change, ...others] = await settle();
    expect(others).toEqual([]);
    expect(change).toMatchObject({
      api_app_id: watcher.app_id,
      event: { type: "user_change", user: { id: owner, profile: { title: "Head of Launches", status_text: "On a rocket", status_emoji: ":rocket:" } } },
    });
    const info = (await h.call("users.info", { user: owner }, { token: watcher.access_token })).body;
    expect(info.user.profile).toMatchObject({ title: "Head of Launches", status_text: "On a rocket" });
    expect(info.user.updated).toBe(change?.event.user.updated);

    // Nothing to change, or a bad value: refused, nothing sent.
    expect((await h.admin("act/profile", {})).status).toBe(400);
    expect((await h.admin("act/profile", { status_emoji: "rocket" })).status).toBe(400);
    expect((await h.admin("act/profile", { title: "x", user: watcher.bot_user_id })).status).toBe(409);
    expect(await settle()).toEqual([]);
  });

  it("team_join carries a new member's record; they are in #general, listed, can post and change their profile; apps installed after them still work", async () => {
    const { h, watcher, settle } = await setUp();
    const joined = (await h.admin("act/join-team", { real_name: "Ada Newcomer", email: "ada@example.com" })).body;
    expect(joined).toMatchObject({
      ok: true,
      user: { id: expect.stringMatching(/^U/), real_name: "Ada Newcomer", is_bot: false, deleted: false },
      event_ids: [expect.any(String)],
    });
    const ada = joined.user.id as string;
    const [join, ...others] = await settle();
    expect(others).toEqual([]);
    expect(join).toMatchObject({
      api_app_id: watcher.app_id,
      event: { type: "team_join", user: { id: ada, real_name: "Ada Newcomer", profile: { email: "ada@example.com" } } },
    });

    const info = (await h.call("users.info", { user: ada }, { token: watcher.access_token })).body;
    expect(info.user).toEqual(join?.event.user);
    await h.admin("apps", manifest("Finder", {}, { bot: ["users:read.email"] }));
    const finder = await h.install(
      ((await h.apps()).all as AdminApp[]).find((a) => a.name === "Finder")!,
      { scope: ["users:read.email"], userScope: [] },
    );
    expect((await h.call("users.lookupByEmail", { email: "ada@example.com" }, { token: finder.access_token })).body.user?.id).toBe(ada);
    const general = h.emulator.state.workspace.channels.find((c) => c.isGeneral)!;
    const members = (await h.call("conversations.members", { channel: general.id, limit: "1000" }, { token: watcher.access_token })).body;
    expect(members.members).toContain(ada);
    expect((await h.admin("act/post", { channel: general.id, text: "hello, I am new", user: ada })).body.ok).toBe(true);
    await h.admin("act/profile", { user: ada, title: "New here" });
    expect((await settle()).map((d) => [d.event.type, d.event.user?.id, d.event.user?.profile?.title])).toEqual([["user_change", ada, "New here"]]);

    // An app installed after the newcomer: its bot user comes after them, and is still itself.
    await h.admin("apps", manifest("Later", {}, { bot: ["chat:write", "users:read"] }));
    const later = await h.install(
      ((await h.apps()).all as AdminApp[]).find((a) => a.name === "Later")!,
      { scope: ["chat:write", "users:read"], userScope: [] },
    );
    expect((await h.authTest(later.access_token)).user_id).toBe(later.bot_user_id);
    expect((await h.call("users.info", { user: later.bot_user_id }, { token: later.access_token })).body.user).toMatchObject({
      is_bot: true,
      real_name: "Later",
    });
    expect((await h.call("users.info", { user: ada }, { token: later.access_token })).body.user).toMatchObject({
      real_name: "Ada Newcomer",
      profile: { title: "New here" },
    });

    expect((await h.admin("act/join-team", { real_name: "" })).status).toBe(400);
    expect((await h.admin("act/join-team", { real_name: "Bad Email", email: "not-an-email" })).status).toBe(400);
    // A NUL, a bidirectional override or a line break would break the avatar and reverse text in every client.
    const joinedBefore = h.emulator.state.workspace.joined?.length ?? 0;
    for (const real_name of ["\u0000Ada \u202Eecila", "Ada\nLovelace", "Ada\u2029Lovelace"]) {
      const refused = await h.admin("act/join-team", { real_name });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ ok: false, error: "invalid_arguments", detail: expect.stringContaining("without control characters") });
    }
    expect(h.emulator.state.workspace.joined?.length ?? 0).toBe(joinedBefore);
  });

  it("file_shared reaches an app in the conversation the file is shared into, and not one outside it", async () => {
    const { h, watcher, userToken, settle } = await setUp();
    const channel = h.emulator.state.workspace.channels.find((c) => !c.isGeneral && !c.isArchived && (c.type ?? "public") === "public")!;
    const share = async () => {
      const bytes = new TextEncoder().encode("launch checklist");
      const url = (await h.call("files.getUploadURLExternal", { filename: "checklist.txt", length: String(bytes.byteLength) }, { token: userToken })).body;
      await h.emulator.fetch(new Request(url.upload_url, { method: "POST", body: bytes }));
      const done = (
        await h.call("files.completeUploadExternal", { files: JSON.stringify([{ id: url.file_id }]), channel_id: channel.id }, { token: userToken })
      ).body;
      expect(done.ok).toBe(true);
      return url.file_id as string;
    };
    await share();
    expect(await settle()).toEqual([]);

    await h.call("conversations.join", { channel: channel.id }, { token: watcher.access_token });
    await settle();
    const fileId = await share();
    const [shared, ...others] = await settle();
    expect(others).toEqual([]);
    expect(shared).toMatchObject({
      api_app_id: watcher.app_id,
      event: { type: "file_shared", channel_id: channel.id, file_id: fileId, user_id: watcher.authed_user.id, file: { id: fileId } },
    });
  });
});

describe("an installation's transitions", () => {
  it("with rotation, auth.revoke of the user token sends tokens_revoked naming the member; apps.uninstall sends tokens_revoked and app_uninstalled", async () => {
    const { h, watcher, userToken, settle } = await setUp();
    expect((await h.call("auth.revoke", {}, { token: userToken })).body).toMatchObject({ ok: true, revoked: true });
    const [revoked, ...others] = await settle();
    expect(others).toEqual([]);
    expect(revoked).toMatchObject({ api_app_id: watcher.app_id, event: { type: "tokens_revoked", tokens: { oauth: [watcher.authed_user.id] } } });
    expect(revoked?.event.tokens.bot).toBeUndefined();

    const apps = (await h.apps()).all as AdminApp[];
    const app = apps.find((a) => a.name === "Watcher")!;
    const uninstalled = await h.call("apps.uninstall", { client_id: app.client_id, client_secret: app.client_secret }, { token: watcher.access_token });
    expect(uninstalled.body.ok).toBe(true);
    const [tokens, gone, ...rest] = await settle();
    expect(rest).toEqual([]);
    // The member's refresh token was still live: theirs too.
    expect(tokens?.event).toEqual({ type: "tokens_revoked", tokens: { oauth: [watcher.authed_user.id], bot: [watcher.bot_user_id] } });
    expect(gone).toMatchObject({ api_app_id: watcher.app_id, event: { type: "app_uninstalled" } });
  });

  it("without rotation, auth.revoke revokes the installation: tokens_revoked for the bot and the member, then app_uninstalled", async () => {
    const { h, watcher, settle } = await setUp({ rotation: false });
    expect((await h.call("auth.revoke", {}, { token: watcher.access_token })).body).toMatchObject({ ok: true, revoked: true });
    const [tokens, gone, ...rest] = await settle();
    expect(rest).toEqual([]);
    expect(tokens?.event).toEqual({ type: "tokens_revoked", tokens: { oauth: [watcher.authed_user.id], bot: [watcher.bot_user_id] } });
    expect(gone?.event).toEqual({ type: "app_uninstalled" });
  });
});

describe("user events", () => {
  it("reach an app for what the installing member sees, with authorizations naming the member, until the member's token is revoked", async () => {
    const { h, settle } = await setUp();
    await h.admin("apps", manifest("Personal", { user: ["message.channels", "reaction_added"] }, { bot: ["chat:write"], user: MEMBER_SCOPES }));
    const personalApp = ((await h.apps()).all as AdminApp[]).find((a) => a.name === "Personal")!;
    const personal = await h.install(personalApp, { scope: ["chat:write"], userScope: MEMBER_SCOPES });
    const member = personal.authed_user.id as string;
    const memberToken = personal.authed_user.access_token as string;
    await settle();

    const channel = h.emulator.state.workspace.channels.find((c) => !c.isGeneral && !c.isArchived && (c.type ?? "public") === "public")!;
    const posted = (await h.admin("act/post", { channel: channel.id, text: "the member sees this" })).body;
    const [message, ...others] = await settle();
    expect(others).toEqual([]);
    expect(message).toMatchObject({
      api_app_id: personal.app_id,
      event: { type: "message", channel: channel.id, ts: posted.ts, text: "the member sees this" },
      authorizations: [{ team_id: personal.team.id, user_id: member, is_bot: false, is_enterprise_install: false }],
    });
    await h.call("reactions.add", { channel: channel.id, timestamp: posted.ts, name: "eyes" }, { token: memberToken });
    expect((await settle()).map((d) => [d.event.type, d.authorizations[0].user_id])).toEqual([["reaction_added", member]]);

    // A channel the member is not in (another app's bot made it and posts there): nothing.
    await h.admin("apps", manifest("Maker", {}, { bot: ["channels:manage", "chat:write"] }));
    const maker = await h.install(
      ((await h.apps()).all as AdminApp[]).find((a) => a.name === "Maker")!,
      { scope: ["channels:manage", "chat:write"], userScope: [] },
    );
    const botsOnly = (await h.call("conversations.create", { name: "bots-only" }, { token: maker.access_token })).body;
    expect((await h.call("chat.postMessage", { channel: botsOnly.channel.id, text: "no member here" }, { token: maker.access_token })).body.ok).toBe(true);
    expect((await settle()).filter((d) => d.api_app_id === personal.app_id)).toEqual([]);

    // The member's token revoked: the user events stop.
    await h.call("auth.revoke", {}, { token: memberToken });
    await settle();
    await h.admin("act/post", { channel: channel.id, text: "after the revoke" });
    expect((await settle()).filter((d) => d.api_app_id === personal.app_id)).toEqual([]);
  });
});
