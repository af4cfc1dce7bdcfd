/**
 * reactions.*, pins.* and bookmarks.*: what one call creates, the next reads, and conversations.history and
 * .replies show reactions and pins on the messages, as the platform does.
 */
import { describe, expect, it } from "vitest";
import type { AppManifest } from "@/lib/emulator";
import { defaultAppManifests } from "@/lib/emulator/apps/default-apps";
import { createHarness, type Harness, type Json } from "./support/emulator-harness";

const EXTRA = ["reactions:read", "reactions:write", "pins:read", "pins:write", "bookmarks:read", "bookmarks:write"];
const SCOPES = ["channels:history", "channels:join", "channels:read", "chat:write", "users:read", ...EXTRA];

/** The default apps, with the scopes these methods need declared in their manifests. */
function manifests(): AppManifest[] {
  return defaultAppManifests().map((m) => ({
    ...m,
    oauth_config: {
      ...m.oauth_config,
      scopes: { bot: [...(m.oauth_config?.scopes?.bot ?? []), ...EXTRA], user: [...(m.oauth_config?.scopes?.user ?? []), ...EXTRA] },
    },
  }));
}

interface Setup {
  h: Harness;
  token: string;
  botUser: string;
  userToken: string;
  member: string;
  channel: string;
}

async function setUp(scope = SCOPES): Promise<Setup> {
  const h = createHarness({ apps: manifests() });
  const { rotation } = await h.apps();
  const grant = await h.install(rotation, { scope, userScope: ["channels:history", "chat:write", ...EXTRA] });
  const channel = h.emulator.state.workspace.channels.find((c) => c.name === "random")!.id;
  if (scope.includes("channels:join")) expect((await h.call("conversations.join", { channel }, { token: grant.access_token })).body.ok).toBe(true);
  return { h, token: grant.access_token, botUser: grant.bot_user_id, userToken: grant.authed_user.access_token, member: grant.authed_user.id, channel };
}

async function post(s: Setup, text: string, extra: Record<string, string> = {}): Promise<string> {
  const { body } = await s.h.call("chat.postMessage", { channel: s.channel, text, ...extra }, { token: s.token });
  expect(body.ok).toBe(true);
  return body.ts as string;
}

async function history(s: Setup): Promise<Json[]> {
  return (await s.h.call("conversations.history", { channel: s.channel }, { token: s.token })).body.messages as Json[];
}

describe("reactions", () => {
  it("add, get and remove round trip, and conversations.history and .replies show them", async () => {
    const s = await setUp();
    const { h, token, userToken, channel } = s;
    const ts = await post(s, "react to me");
    expect((await h.call("reactions.add", { channel, timestamp: ts, name: "thumbsup" }, { token, json: true })).body).toEqual({ ok: true });
    // Colons around the name are allowed and dropped; another member's reaction counts on the same emoji.
    expect((await h.call("reactions.add", { channel, timestamp: ts, name: ":thumbsup:" }, { token: userToken })).body.ok).toBe(true);
    expect((await h.call("reactions.add", { channel, timestamp: ts, name: "tada" }, { token })).body.ok).toBe(true);

    const got = (await h.call("reactions.get", { channel, timestamp: ts }, { token, method: "GET" })).body;
    expect(got).toMatchObject({ ok: true, type: "message", channel, message: { ts, text: "react to me" } });
    expect(got.message.reactions).toEqual([
      { name: "thumbsup", users: [s.botUser, s.member], count: 2 },
      { name: "tada", users: [s.botUser], count: 1 },
    ]);
    expect((await history(s))[0]!.reactions).toEqual(got.message.reactions);

    expect((await h.call("reactions.remove", { channel, timestamp: ts, name: "thumbsup" }, { token })).body).toEqual({ ok: true });
    expect((await h.call("reactions.remove", { channel, timestamp: ts, name: "tada" }, { token })).body.ok).toBe(true);
    expect((await history(s))[0]!.reactions).toEqual([{ name: "thumbsup", users: [s.member], count: 1 }]);
    expect((await h.call("reactions.remove", { channel, timestamp: ts, name: "thumbsup" }, { token: userToken })).body.ok).toBe(true);
    expect((await history(s))[0]!.reactions).toBeUndefined();

    const reply = await post(s, "a reply", { thread_ts: ts });
    await h.call("reactions.add", { channel, timestamp: reply, name: "eyes" }, { token });
    const replies = (await h.call("conversations.replies", { channel, ts }, { token })).body.messages as Json[];
    expect(replies[1]!.reactions).toEqual([{ name: "eyes", users: [s.botUser], count: 1 }]);
  });

  it("answers already_reacted, no_reaction, invalid_name, no_item_specified, bad_timestamp, message_not_found, channel_not_found", async () => {
    const s = await setUp();
    const { h, token, channel } = s;
    const ts = await post(s, "hello");
    const add = (params: Record<string, string>) => h.call("reactions.add", params, { token }).then((r) => r.body.error);
    await add({ channel, timestamp: ts, name: "wave" });
    expect(await add({ channel, timestamp: ts, name: "wave" })).toBe("already_reacted");
    expect(await add({ channel, timestamp: ts, name: "not an emoji" })).toBe("invalid_name");
    expect(await add({ channel, timestamp: ts, name: "" })).toBe("invalid_name");
    expect(await add({ channel, name: "wave" })).toBe("no_item_specified");
    expect(await add({ channel, timestamp: "yesterday", name: "wave" })).toBe("bad_timestamp");
    expect(await add({ channel, timestamp: "1767225600.000009", name: "wave" })).toBe("message_not_found");
    expect(await add({ channel: "C0NOPE", timestamp: ts, name: "wave" })).toBe("channel_not_found");
    expect((await h.call("reactions.remove", { channel, timestamp: ts, name: "tada" }, { token })).body.error).toBe("no_reaction");
    expect((await h.call("reactions.get", { channel }, { token })).body.error).toBe("no_item_specified");

    const narrow = await setUp(["channels:join", "chat:write"]);
    const narrowTs = await post(narrow, "hi");
    const refused = (await narrow.h.call("reactions.add", { channel: narrow.channel, timestamp: narrowTs, name: "wave" }, { token: narrow.token })).body;
    expect(refused).toMatchObject({ ok: false, error: "missing_scope", needed: "reactions:write" });
    expect((await narrow.h.call("reactions.get", { channel: narrow.channel, timestamp: narrowTs }, { token: narrow.token })).body.needed).toBe(
      "reactions:read",
    );
  });

  it("reactions.list pages through what a member reacted to, newest first", async () => {
    const s = await setUp();
    const { h, token, userToken, channel } = s;
    const stamps: string[] = [];
    for (let i = 1; i <= 5; i++) stamps.push(await post(s, `m${i}`));
    for (const ts of stamps) await h.call("reactions.add", { channel, timestamp: ts, name: "star" }, { token });
    await h.call("reactions.add", { channel, timestamp: stamps[0]!, name: "star" }, { token: userToken });

    const seen: Json[] = [];
    let cursor = "";
    let pages = 0;
    do {
      const { body } = await h.call("reactions.list", { limit: "2", ...(cursor ? { cursor } : {}) }, { token });
      expect(body.ok).toBe(true);
      seen.push(...body.items);
      cursor = body.response_metadata.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen.map((item) => item.message.text)).toEqual(["m5", "m4", "m3", "m2", "m1"]);
    expect(seen[0]).toMatchObject({ type: "message", channel });

    const theirs = (await h.call("reactions.list", { user: s.member }, { token })).body.items as Json[];
    expect(theirs.map((item) => item.message.text)).toEqual(["m1"]);
    expect((await h.call("reactions.list", {}, { token: userToken })).body.items).toHaveLength(1);
    expect((await h.call("reactions.list", { user: "U0NOPE" }, { token })).body.error).toBe("user_not_found");
  });
});

describe("pins", () => {
  it("add, list and remove round trip; a pinned message carries pinned_to in conversations.history", async () => {
    const s = await setUp();
    const { h, token, channel } = s;
    const first = await post(s, "first");
    const second = await post(s, "second");
    expect((await h.call("pins.add", { channel, timestamp: first }, { token, json: true })).body).toEqual({ ok: true });
    s.h.clock.advance(5_000);
    expect((await h.call("pins.add", { channel, timestamp: second }, { token: s.userToken })).body.ok).toBe(true);

    const listed = (await h.call("pins.list", { channel }, { token, method: "GET" })).body;
    expect(listed.ok).toBe(true);
    expect(listed.items.map((item: Json) => item.message.text)).toEqual(["second", "first"]);
    expect(listed.items[1]).toMatchObject({ type: "message", channel, created_by: s.botUser, message: { ts: first, pinned_to: [channel] } });
    expect(listed.items[0].created_by).toBe(s.member);
    expect(listed.items[0].created).toBe(listed.items[1].created + 5);
    expect(listed.items[0].message.pin).toBeUndefined();
    expect((await history(s)).map((m) => m.pinned_to)).toEqual([[channel], [channel]]);

    expect((await h.call("pins.remove", { channel, timestamp: first }, { token })).body).toEqual({ ok: true });
    expect(((await h.call("pins.list", { channel }, { token })).body.items as Json[]).map((item) => item.message.text)).toEqual(["second"]);
    expect((await history(s)).find((m) => m.ts === first)!.pinned_to).toBeUndefined();
  });

  it("answers already_pinned, no_pin, no_item_specified, bad_timestamp, message_not_found, channel_not_found and missing_scope", async () => {
    const s = await setUp();
    const { h, token, channel } = s;
    const ts = await post(s, "pin me");
    await h.call("pins.add", { channel, timestamp: ts }, { token });
    expect((await h.call("pins.add", { channel, timestamp: ts }, { token })).body.error).toBe("already_pinned");
    await h.call("pins.remove", { channel, timestamp: ts }, { token });
    expect((await h.call("pins.remove", { channel, timestamp: ts }, { token })).body.error).toBe("no_pin");
    expect((await h.call("pins.add", { channel }, { token })).body.error).toBe("no_item_specified");
    expect((await h.call("pins.add", { channel, timestamp: "x" }, { token })).body.error).toBe("bad_timestamp");
    expect((await h.call("pins.add", { channel, timestamp: "1767225600.000009" }, { token })).body.error).toBe("message_not_found");
    expect((await h.call("pins.list", { channel: "C0NOPE" }, { token })).body.error).toBe("channel_not_found");
    const narrow = await setUp(["channels:join", "chat:write"]);
    expect((await narrow.h.call("pins.list", { channel: narrow.channel }, { token: narrow.token })).body).toMatchObject({
      error: "missing_scope",
      needed: "pins:read",
    });
  });
});

describe("bookmarks", () => {
  it("add, list, edit and remove round trip, in the platform's bookmark shape", async () => {
    const s = await setUp();
    const { h, token, channel } = s;
    const added = (
      await h.call(
        "bookmarks.add",
        { channel_id: channel, title: "Runbook", type: "link", link: "https://example.com/runbook", emoji: ":book:" },
        { token, json: true },
      )
    ).body;
    expect(added.ok).toBe(true);
    expect(added.bookmark).toMatchObject({
      channel_id: channel,
      title: "Runbook",
      link: "https://example.com/runbook",
      emoji: ":book:",
      type: "link",
      entity_id: null,
      date_created: Math.floor(h.clock.now() / 1000),
      date_updated: 0,
      last_updated_by_user_id: s.botUser,
      last_updated_by_team_id: h.emulator.state.workspace.team.id,
      shortcut_id: null,
    });
    expect(added.bookmark.id).toMatch(/^Bk[0-9A-Z]{10}$/);
    expect(added.bookmark.teamId).toBeUndefined();
    const second = (
      await h.call("bookmarks.add", { channel_id: channel, title: "Dashboard", type: "link", link: "http://example.com/d" }, { token: s.userToken })
    ).body.bookmark;
    expect(second.emoji).toBeNull();
    expect(second.rank > added.bookmark.rank).toBe(true);

    const list = async () => ((await h.call("bookmarks.list", { channel_id: channel }, { token })).body.bookmarks as Json[]).map((b) => b.title);
    expect(await list()).toEqual(["Runbook", "Dashboard"]);

    h.clock.advance(60_000);
    const edited = (await h.call("bookmarks.edit", { channel_id: channel, bookmark_id: added.bookmark.id, title: "Runbook v2" }, { token: s.userToken })).body;
    expect(edited.bookmark).toMatchObject({
      id: added.bookmark.id,
      title: "Runbook v2",
      link: "https://example.com/runbook",
      date_updated: Math.floor(h.clock.now() / 1000),
      last_updated_by_user_id: s.member,
    });
    expect(await list()).toEqual(["Runbook v2", "Dashboard"]);

    expect((await h.call("bookmarks.remove", { channel_id: channel, bookmark_id: added.bookmark.id }, { token })).body).toEqual({ ok: true });
    expect(await list()).toEqual(["Dashboard"]);
    const third = (await h.call("bookmarks.add", { channel_id: channel, title: "Third", type: "link", link: "https://example.com/3" }, { token })).body
      .bookmark;
    expect(await list()).toEqual(["Dashboard", "Third"]);
    expect(third.rank > second.rank).toBe(true);
  });

  it("answers channel_not_found, invalid_bookmark_type, invalid_link, invalid_emoji, not_found and missing_scope", async () => {
    const s = await setUp();
    const { h, token, channel } = s;
    const add = (params: Record<string, string>) =>
      h.call("bookmarks.add", { channel_id: channel, title: "t", type: "link", link: "https://example.com", ...params }, { token }).then((r) => r.body.error);
    expect(await add({ channel_id: "C0NOPE" })).toBe("channel_not_found");
    expect(await add({ type: "file" })).toBe("invalid_bookmark_type");
    expect(await add({ link: "ftp://example.com" })).toBe("invalid_link");
    expect(await add({ link: "" })).toBe("invalid_link");
    expect(await add({ emoji: "book" })).toBe("invalid_emoji");
    expect(await add({ title: "" })).toBe("invalid_arguments");
    const id = (await h.call("bookmarks.add", { channel_id: channel, title: "t", type: "link", link: "https://example.com" }, { token })).body.bookmark.id;
    const general = h.emulator.state.workspace.channels.find((c) => c.isGeneral)!.id;
    expect((await h.call("bookmarks.edit", { channel_id: general, bookmark_id: id, title: "x" }, { token })).body.error).toBe("not_found");
    expect((await h.call("bookmarks.edit", { channel_id: channel, bookmark_id: id, link: "nope" }, { token })).body.error).toBe("invalid_link");
    expect((await h.call("bookmarks.remove", { channel_id: channel, bookmark_id: "Bk0000000000" }, { token })).body.error).toBe("not_found");
    expect((await h.call("bookmarks.list", { channel_id: "C0NOPE" }, { token })).body.error).toBe("channel_not_found");
    const narrow = await setUp(["channels:join", "chat:write"]);
    expect((await narrow.h.call("bookmarks.list", { channel_id: narrow.channel }, { token: narrow.token })).body).toMatchObject({
      error: "missing_scope",
      needed: "bookmarks:read",
    });
    expect(
      (await narrow.h.call("bookmarks.add", { channel_id: narrow.channel, title: "t", type: "link", link: "https://example.com" }, { token: narrow.token }))
        .body.needed,
    ).toBe("bookmarks:write");
  });
});
