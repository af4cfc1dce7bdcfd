/**
 * chat.postEphemeral, chat.getPermalink, chat.scheduleMessage (with chat.scheduledMessages.list and
 * chat.deleteScheduledMessage) and the platform's truncation of texts past 40,000 characters, in process
 * with a fake clock.
 */
import { describe, expect, it } from "vitest";
import { defaultAppManifests } from "@/lib/emulator/apps/default-apps";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import { createHarness, type Harness, type Json } from "./support/emulator-harness";

const SCOPES = ["channels:history", "channels:join", "channels:read", "chat:write", "users:read"];
const DAY_S = 24 * 60 * 60;

async function setUp(scope = SCOPES): Promise<{ h: Harness; token: string; userToken: string; channel: string }> {
  const h = createHarness();
  const { rotation } = await h.apps();
  const grant = await h.install(rotation, { scope, userScope: ["channels:history", "chat:write"] });
  const channel = h.emulator.state.workspace.channels.find((c) => c.name === "random")!.id;
  if (scope.includes("channels:join")) expect((await h.call("conversations.join", { channel }, { token: grant.access_token })).body.ok).toBe(true);
  return { h, token: grant.access_token, userToken: grant.authed_user.access_token, channel };
}

const nowS = (h: Harness) => Math.floor(h.clock.now() / 1000);

async function history(h: Harness, token: string, channel: string): Promise<Json[]> {
  const { body } = await h.call("conversations.history", { channel }, { token });
  expect(body.ok).toBe(true);
  return body.messages as Json[];
}

describe("chat.postEphemeral", () => {
  it("answers a message_ts for a member of the channel and stores nothing in the history", async () => {
    const { h, token, channel } = await setUp();
    const member = memberIdAt(h.emulator.state.workspace, 0);
    const { body } = await h.call("chat.postEphemeral", { channel, user: member, text: "only you can see this" }, { token, json: true });
    expect(body).toMatchObject({ ok: true });
    expect(body.message_ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(await history(h, token, channel)).toEqual([]);
    // Its ts is the workspace's: a message posted afterwards comes later.
    const posted = (await h.call("chat.postMessage", { channel, text: "for all" }, { token })).body;
    expect(Number(posted.ts)).toBeGreaterThan(Number(body.message_ts));
  });

  it("refuses a user outside the channel, an unknown channel, an archived one, no content and a token without chat:write", async () => {
    const { h, token, channel } = await setUp();
    const ws = h.emulator.state.workspace;
    const outsider = memberIdAt(ws, ws.userCount - 1);
    const member = memberIdAt(ws, 0);
    expect((await h.call("chat.postEphemeral", { channel, user: outsider, text: "hi" }, { token })).body.error).toBe("user_not_in_channel");
    expect((await h.call("chat.postEphemeral", { channel, user: "U0NOPE", text: "hi" }, { token })).body.error).toBe("user_not_in_channel");
    expect((await h.call("chat.postEphemeral", { channel: "C0NOPE", user: member, text: "hi" }, { token })).body.error).toBe("channel_not_found");
    const archived = ws.channels.find((c) => c.isArchived)!.id;
    expect((await h.call("chat.postEphemeral", { channel: archived, user: member, text: "hi" }, { token })).body.error).toBe("is_archived");
    expect((await h.call("chat.postEphemeral", { channel, user: member }, { token })).body.error).toBe("no_text");
    // Everyone is in #general.
    const general = ws.channels.find((c) => c.isGeneral)!.id;
    await h.call("conversations.join", { channel: general }, { token });
    expect((await h.call("chat.postEphemeral", { channel: general, user: outsider, text: "hi" }, { token })).body.ok).toBe(true);

    const narrow = await setUp(["users:read"]);
    const refused = (await narrow.h.call("chat.postEphemeral", { channel: narrow.channel, user: member, text: "hi" }, { token: narrow.token })).body;
    expect(refused).toMatchObject({ ok: false, error: "missing_scope", needed: "chat:write" });
  });
});

describe("chat.getPermalink", () => {
  it("answers https://<domain>.slack.com/archives/<channel>/p<ts without the dot>, and thread_ts and cid for a reply", async () => {
    const { h, token, channel } = await setUp();
    const domain = h.emulator.state.workspace.team.domain;
    const parent = (await h.call("chat.postMessage", { channel, text: "parent" }, { token })).body;
    const reply = (await h.call("chat.postMessage", { channel, text: "reply", thread_ts: parent.ts }, { token })).body;

    const { body } = await h.call("chat.getPermalink", { channel, message_ts: parent.ts }, { token, method: "GET" });
    expect(body).toEqual({ ok: true, channel, permalink: `https://${domain}.slack.com/archives/${channel}/p${parent.ts.replace(".", "")}` });
    const threaded = (await h.call("chat.getPermalink", { channel, message_ts: reply.ts }, { token })).body;
    expect(threaded.permalink).toBe(`https://${domain}.slack.com/archives/${channel}/p${reply.ts.replace(".", "")}?thread_ts=${parent.ts}&cid=${channel}`);
  });

  it("needs no scope, and answers channel_not_found and message_not_found", async () => {
    const { h, token, channel } = await setUp();
    const ts = (await h.call("chat.postMessage", { channel, text: "hello" }, { token })).body.ts;
    const bare = await setUp(["users:read"]);
    const other = bare.h;
    expect((await other.call("chat.getPermalink", { channel: bare.channel, message_ts: "1767258000.000001" }, { token: bare.token })).body.error).toBe(
      "message_not_found",
    );
    expect((await h.call("chat.getPermalink", { channel: "C0NOPE", message_ts: ts }, { token })).body.error).toBe("channel_not_found");
    expect((await h.call("chat.getPermalink", { channel }, { token })).body.error).toBe("message_not_found");
  });
});

describe("texts past 40,000 characters", () => {
  it("are posted cut to 40,000 characters with the platform's message_truncated warning", async () => {
    const { h, token, channel } = await setUp();
    const { body } = await h.call("chat.postMessage", { channel, text: "a".repeat(40_001) }, { token });
    expect(body.ok).toBe(true);
    expect(body.message.text).toHaveLength(40_000);
    expect(body.warning).toBe("message_truncated");
    expect(body.response_metadata).toEqual({
      messages: ["[WARN] Your message was truncated but still posted. The `text` field accepts up to 40,000 characters."],
      warnings: ["message_truncated"],
    });
    expect((await history(h, token, channel))[0]!.text).toHaveLength(40_000);

    // 40,000 exactly is no truncation; characters are counted, not UTF-16 units.
    const exact = (await h.call("chat.postMessage", { channel, text: "b".repeat(40_000) }, { token })).body;
    expect(exact.warning).toBeUndefined();
    const wide = (await h.call("chat.postMessage", { channel, text: "😀".repeat(40_000) }, { token, json: true })).body;
    expect(wide.warning).toBeUndefined();
    const wider = (await h.call("chat.postMessage", { channel, text: "😀".repeat(40_002) }, { token, json: true })).body;
    expect(wider.warning).toBe("message_truncated");
    expect(Array.from(wider.message.text as string)).toHaveLength(40_000);
  });

  it("are cut the same way by chat.update, chat.postEphemeral and chat.scheduleMessage", async () => {
    const { h, token, channel } = await setUp();
    const long = "c".repeat(45_000);
    const ts = (await h.call("chat.postMessage", { channel, text: "short" }, { token })).body.ts;
    const updated = (await h.call("chat.update", { channel, ts, text: long }, { token })).body;
    expect(updated).toMatchObject({ ok: true, warning: "message_truncated" });
    expect(updated.text).toHaveLength(40_000);
    const member = memberIdAt(h.emulator.state.workspace, 0);
    expect((await h.call("chat.postEphemeral", { channel, user: member, text: long }, { token })).body).toMatchObject({
      ok: true,
      warning: "message_truncated",
    });
    const scheduled = (await h.call("chat.scheduleMessage", { channel, text: long, post_at: String(nowS(h) + 60) }, { token })).body;
    expect(scheduled).toMatchObject({ ok: true, warning: "message_truncated" });
    expect(scheduled.message.text).toHaveLength(40_000);
  });
});

describe("chat.scheduleMessage", () => {
  it("queues a message that conversations.history shows once the emulator's clock passes post_at", async () => {
    const { h, token, channel } = await setUp();
    const postAt = nowS(h) + 300;
    const { body } = await h.call("chat.scheduleMessage", { channel, text: "later", post_at: String(postAt) }, { token, json: true });
    expect(body).toMatchObject({ ok: true, channel, post_at: postAt, message: { type: "delayed_message", text: "later" } });
    expect(body.scheduled_message_id).toMatch(/^Q[0-9A-Z]{10}$/);
    expect(body.message.bot_id).toBe(h.emulator.state.installations.values().next().value!.botId);

    const listed = (await h.call("chat.scheduledMessages.list", {}, { token })).body;
    expect(listed).toMatchObject({ ok: true, response_metadata: { next_cursor: "" } });
    expect(listed.scheduled_messages).toEqual([{ id: body.scheduled_message_id, channel_id: channel, post_at: postAt, date_created: nowS(h), text: "later" }]);
    expect(await history(h, token, channel)).toEqual([]);

    h.clock.advance(299_000);
    expect(await history(h, token, channel)).toEqual([]);
    h.clock.advance(2_000);
    const messages = await history(h, token, channel);
    expect(messages.map((m) => m.text)).toEqual(["later"]);
    expect(Math.floor(Number(messages[0]!.ts))).toBe(postAt);
    expect(messages[0]!.bot_id).toBe(body.message.bot_id);
    expect((await h.call("chat.scheduledMessages.list", {}, { token })).body.scheduled_messages).toEqual([]);
  });

  it("posts a scheduled reply into its thread", async () => {
    const { h, token, channel } = await setUp();
    const parent = (await h.call("chat.postMessage", { channel, text: "parent" }, { token })).body;
    await h.call("chat.scheduleMessage", { channel, text: "scheduled reply", thread_ts: parent.ts, post_at: String(nowS(h) + 10) }, { token });
    h.clock.advance(11_000);
    const replies = (await h.call("conversations.replies", { channel, ts: parent.ts }, { token })).body.messages as Json[];
    expect(replies.map((m) => m.text)).toEqual(["parent", "scheduled reply"]);
    expect((await history(h, token, channel))[0]).toMatchObject({ reply_count: 1 });
  });

  it("refuses post_at in the past, more than 120 days ahead or not a time, and the posting errors", async () => {
    const { h, token, channel } = await setUp();
    const at = (post_at: string, extra: Record<string, string> = {}) => h.call("chat.scheduleMessage", { channel, text: "x", post_at, ...extra }, { token });
    expect((await at(String(nowS(h)))).body.error).toBe("time_in_past");
    expect((await at(String(nowS(h) - 60))).body.error).toBe("time_in_past");
    expect((await at(String(nowS(h) + 120 * DAY_S + 1))).body.error).toBe("time_too_far");
    expect((await at(String(nowS(h) + 120 * DAY_S))).body.ok).toBe(true);
    expect((await at("tomorrow")).body.error).toBe("invalid_time");
    expect((await h.call("chat.scheduleMessage", { channel, text: "x" }, { token })).body.error).toBe("invalid_time");
    expect((await at(String(nowS(h) + 60), { channel: "C0NOPE" })).body.error).toBe("channel_not_found");
    expect((await at(String(nowS(h) + 60), { text: "" })).body.error).toBe("no_text");
    const archived = h.emulator.state.workspace.channels.find((c) => c.isArchived)!.id;
    expect((await at(String(nowS(h) + 60), { channel: archived })).body.error).toBe("is_archived");
  });
});

describe("chat.scheduledMessages.list and chat.deleteScheduledMessage", () => {
  it("list the caller's queue by post_at, page by page, filtered by channel", async () => {
    const { h, token, userToken, channel } = await setUp();
    const general = h.emulator.state.workspace.channels.find((c) => c.isGeneral)!.id;
    await h.call("conversations.join", { channel: general }, { token });
    const ids: string[] = [];
    for (let i = 5; i >= 1; i--) {
      const target = i === 3 ? general : channel;
      ids.unshift(
        (await h.call("chat.scheduleMessage", { channel: target, text: `m${i}`, post_at: String(nowS(h) + i * 60) }, { token })).body.scheduled_message_id,
      );
    }
    // The user token's own queue is apart from the bot's.
    await h.call("chat.scheduleMessage", { channel, text: "the member's", post_at: String(nowS(h) + 30) }, { token: userToken });

    const seen: Json[] = [];
    let cursor = "";
    let pages = 0;
    do {
      const { body } = await h.call("chat.scheduledMessages.list", { limit: "2", ...(cursor ? { cursor } : {}) }, { token });
      expect(body.ok).toBe(true);
      seen.push(...body.scheduled_messages);
      cursor = body.response_metadata.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen.map((m) => m.id)).toEqual(ids);
    expect(seen.map((m) => m.text)).toEqual(["m1", "m2", "m3", "m4", "m5"]);
    const inGeneral = (await h.call("chat.scheduledMessages.list", { channel: general }, { token })).body.scheduled_messages as Json[];
    expect(inGeneral.map((m) => m.text)).toEqual(["m3"]);
    const ranged = (await h.call("chat.scheduledMessages.list", { oldest: String(nowS(h) + 120), latest: String(nowS(h) + 240) }, { token })).body;
    expect(ranged.scheduled_messages.map((m: Json) => m.text)).toEqual(["m2", "m3", "m4"]);
    expect((await h.call("chat.scheduledMessages.list", { channel: "C0NOPE" }, { token })).body.error).toBe("invalid_channel");
    expect((await h.call("chat.scheduledMessages.list", { cursor: "garbage" }, { token })).body.error).toBe("invalid_cursor");
    expect(((await h.call("chat.scheduledMessages.list", {}, { token: userToken })).body.scheduled_messages as Json[]).map((m) => m.text)).toEqual([
      "the member's",
    ]);
  });

  it("takes a queued message back: it is never posted, and a second delete is invalid_scheduled_message_id", async () => {
    const { h, token, userToken, channel } = await setUp();
    const id = (await h.call("chat.scheduleMessage", { channel, text: "never", post_at: String(nowS(h) + 60) }, { token })).body.scheduled_message_id;
    expect((await h.call("chat.deleteScheduledMessage", { channel, scheduled_message_id: id }, { token: userToken })).body.error).toBe(
      "invalid_scheduled_message_id",
    );
    const general = h.emulator.state.workspace.channels.find((c) => c.isGeneral)!.id;
    expect((await h.call("chat.deleteScheduledMessage", { channel: general, scheduled_message_id: id }, { token })).body.error).toBe(
      "invalid_scheduled_message_id",
    );
    expect((await h.call("chat.deleteScheduledMessage", { channel: "C0NOPE", scheduled_message_id: id }, { token })).body.error).toBe("channel_not_found");
    expect((await h.call("chat.deleteScheduledMessage", { channel, scheduled_message_id: id }, { token, json: true })).body).toEqual({ ok: true });
    expect((await h.call("chat.deleteScheduledMessage", { channel, scheduled_message_id: id }, { token })).body.error).toBe("invalid_scheduled_message_id");
    h.clock.advance(120_000);
    expect(await history(h, token, channel)).toEqual([]);
  });

  it("a message already posted can no longer be deleted, and an uninstalled app's queue is dropped", async () => {
    const { h, token, channel } = await setUp();
    const id = (await h.call("chat.scheduleMessage", { channel, text: "soon", post_at: String(nowS(h) + 5) }, { token })).body.scheduled_message_id;
    h.clock.advance(6_000);
    expect((await h.call("chat.deleteScheduledMessage", { channel, scheduled_message_id: id }, { token })).body.error).toBe("invalid_scheduled_message_id");
    expect((await history(h, token, channel)).map((m) => m.text)).toEqual(["soon"]);

    await h.call("chat.scheduleMessage", { channel, text: "orphan", post_at: String(nowS(h) + 5) }, { token });
    const { rotation } = await h.apps();
    expect((await h.call("apps.uninstall", { client_id: rotation.client_id, client_secret: rotation.client_secret }, { token })).body.ok).toBe(true);
    h.clock.advance(6_000);
    const again = await h.install(rotation, { scope: SCOPES });
    await h.call("conversations.join", { channel }, { token: again.access_token });
    expect((await history(h, again.access_token, channel)).map((m) => m.text)).toEqual(["soon"]);
  });
});

describe("scopes of the app's manifest", () => {
  it("a user token of the default apps may schedule and list", async () => {
    const h = createHarness({ apps: defaultAppManifests() });
    const { rotation } = await h.apps();
    const grant = await h.install(rotation, { scope: ["chat:write"], userScope: ["chat:write"] });
    const channel = h.emulator.state.workspace.channels.find((c) => c.isGeneral)!.id;
    const body = (
      await h.call("chat.scheduleMessage", { channel, text: "as a member", post_at: String(nowS(h) + 60) }, { token: grant.authed_user.access_token })
    ).body;
    expect(body.ok).toBe(true);
    expect(body.message.bot_id).toBeUndefined();
    expect(body.message.user).toBe(grant.authed_user.id);
  });
});
