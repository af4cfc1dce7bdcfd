import { describe, expect, it } from "vitest";
import { createHarness, type Harness, type Json } from "./support/emulator-harness";

const SCOPES = ["channels:history", "channels:join", "channels:read", "chat:write", "users:read", "users:read.email"];

async function setUp(scope = SCOPES): Promise<{ h: Harness; token: string; channel: string }> {
  const h = createHarness();
  const { rotation } = await h.apps();
  const grant = await h.install(rotation, { scope });
  const channel = h.emulator.state.workspace.channels.find((c) => c.name === "random")!.id;
  if (scope.includes("channels:join")) expect((await h.call("conversations.join", { channel }, { token: grant.access_token })).body.ok).toBe(true);
  return { h, token: grant.access_token, channel };
}

const post = async (h: Harness, token: string, params: Record<string, string>) => {
  const { body } = await h.call("chat.postMessage", params, { token });
  expect(body.ok).toBe(true);
  return body as Json;
};

describe("conversations.history", () => {
  it("reads back what was posted, newest first, blocks as given, page by page with has_more and next_cursor", async () => {
    const { h, token, channel } = await setUp();
    const blocks = [{ type: "section", text: { type: "mrkdwn", text: "*hello*" }, block_id: "b1" }];
    for (let i = 1; i <= 5; i++) await post(h, token, { channel, text: `message ${i}`, ...(i === 5 ? { blocks: JSON.stringify(blocks) } : {}) });

    const seen: Json[] = [];
    let cursor = "";
    let pages = 0;
    do {
      const { body } = await h.call("conversations.history", { channel, limit: "2", ...(cursor ? { cursor } : {}) }, { token, method: "GET" });
      expect(body.ok).toBe(true);
      expect(body.has_more).toBe(body.response_metadata.next_cursor !== "");
      seen.push(...body.messages);
      cursor = body.response_metadata.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen.map((m) => m.text)).toEqual(["message 5", "message 4", "message 3", "message 2", "message 1"]);
    expect(seen[0]!.blocks).toEqual(blocks);
    expect(seen[0]!.via).toBeUndefined();
  });

  it("bounds the window with oldest, latest and inclusive, and refuses malformed bounds", async () => {
    const { h, token, channel } = await setUp();
    const ts: string[] = [];
    for (let i = 1; i <= 4; i++) ts.push((await post(h, token, { channel, text: `m${i}` })).ts);
    const texts = async (params: Record<string, string>) =>
      ((await h.call("conversations.history", { channel, ...params }, { token })).body.messages as Json[]).map((m) => m.text);
    expect(await texts({ oldest: ts[0]!, latest: ts[3]! })).toEqual(["m3", "m2"]);
    expect(await texts({ oldest: ts[0]!, latest: ts[3]!, inclusive: "true" })).toEqual(["m4", "m3", "m2", "m1"]);
    expect((await h.call("conversations.history", { channel, oldest: "yesterday" }, { token })).body.error).toBe("invalid_ts_oldest");
    expect((await h.call("conversations.history", { channel, latest: "1.2.3" }, { token })).body.error).toBe("invalid_ts_latest");
  });

  it("answers the platform's errors: a bot outside the channel, an unknown channel, a missing scope, a garbled cursor", async () => {
    const { h, token } = await setUp();
    const general = h.emulator.state.workspace.channels.find((c) => c.name === "engineering")!.id;
    expect((await h.call("conversations.history", { channel: general }, { token })).body.error).toBe("not_in_channel");
    expect((await h.call("conversations.history", { channel: "C0NOPE" }, { token })).body.error).toBe("channel_not_found");
    const { channel } = await setUp();
    expect((await h.call("conversations.history", { channel, cursor: "garbage" }, { token })).body.error).toBe("invalid_cursor");
    const narrow = await setUp(["channels:join", "chat:write"]);
    const refused = (await narrow.h.call("conversations.history", { channel: narrow.channel }, { token: narrow.token })).body;
    // The platform names every scope the method accepts, in this order (as it does for conversations.list:
    // "needed": "channels:read,groups:read,mpim:read,im:read"), not only the one for the channel's type.
    expect(refused).toMatchObject({ ok: false, error: "missing_scope", needed: "channels:history,groups:history,mpim:history,im:history" });
  });
});

describe("threads", () => {
  it("keep replies out of the history, count them on the parent, and list them with conversations.replies", async () => {
    const { h, token, channel } = await setUp();
    const parent = await post(h, token, { channel, text: "parent" });
    await post(h, token, { channel, text: "reply 1", thread_ts: parent.ts });
    await post(h, token, { channel, text: "reply 2", thread_ts: parent.ts });
    const history = (await h.call("conversations.history", { channel }, { token })).body;
    expect(history.messages.map((m: Json) => m.text)).toEqual(["parent"]);
    expect(history.messages[0]).toMatchObject({ thread_ts: parent.ts, reply_count: 2 });
    const replies = (await h.call("conversations.replies", { channel, ts: parent.ts }, { token })).body;
    expect(replies.messages.map((m: Json) => m.text)).toEqual(["parent", "reply 1", "reply 2"]);
    expect(replies.messages[2].thread_ts).toBe(parent.ts);
    expect((await h.call("conversations.replies", { channel, ts: "1.000001" }, { token })).body.error).toBe("thread_not_found");
  });
});

describe("chat.update and chat.delete", () => {
  it("change and remove the caller's own messages, and refuse anyone else's", async () => {
    const { h, token, channel } = await setUp();
    const posted = await post(h, token, { channel, text: "first draft" });
    const blocks = [{ type: "divider", block_id: "d" }];
    const updated = (await h.call("chat.update", { channel, ts: posted.ts, text: "final", blocks: JSON.stringify(blocks) }, { token })).body;
    expect(updated).toMatchObject({ ok: true, channel, ts: posted.ts, text: "final", message: { text: "final", blocks } });
    expect(updated.message.edited.user).toBe(posted.message.user);
    expect((await h.call("conversations.history", { channel }, { token })).body.messages[0]).toMatchObject({ text: "final", blocks });

    const other = h.emulator.state.installations.size;
    expect(other).toBe(1);
    const { legacy } = await h.apps();
    const stranger = (await h.install(legacy, { scope: ["chat:write", "channels:join"] })).access_token;
    expect((await h.call("chat.update", { channel, ts: posted.ts, text: "mine now" }, { token: stranger })).body.error).toBe("cant_update_message");
    expect((await h.call("chat.delete", { channel, ts: posted.ts }, { token: stranger })).body.error).toBe("cant_delete_message");
    expect((await h.call("chat.update", { channel, ts: "1.000001", text: "x" }, { token })).body.error).toBe("message_not_found");
    expect((await h.call("chat.update", { channel, ts: posted.ts, text: "" }, { token })).body.error).toBe("no_text");

    expect((await h.call("chat.delete", { channel, ts: posted.ts }, { token })).body).toEqual({ ok: true, channel, ts: posted.ts });
    expect((await h.call("conversations.history", { channel }, { token })).body.messages).toEqual([]);
    expect((await h.call("chat.delete", { channel, ts: posted.ts }, { token })).body.error).toBe("message_not_found");
  });
});

describe("conversations.info and conversations.members", () => {
  it("describe a channel and page through every member once", async () => {
    const { h, token, channel } = await setUp();
    const info = (await h.call("conversations.info", { channel, include_num_members: "true" }, { token })).body;
    expect(info).toMatchObject({ ok: true, channel: { id: channel, name: "random", is_member: true } });
    const ids: string[] = [];
    let cursor = "";
    do {
      const page = (await h.call("conversations.members", { channel, limit: "7", ...(cursor ? { cursor } : {}) }, { token })).body;
      expect(page.ok).toBe(true);
      ids.push(...page.members);
      cursor = page.response_metadata.next_cursor;
    } while (cursor);
    expect(ids).toHaveLength(info.channel.num_members);
    expect(new Set(ids).size).toBe(ids.length);
    // The bot that joined is a member.
    expect(ids).toContain(h.emulator.state.installations.values().next().value!.botUserId);
    expect((await h.call("conversations.info", { channel: "C0NOPE" }, { token })).body.error).toBe("channel_not_found");
  });
});

describe("users.info and users.lookupByEmail", () => {
  it("find a member by id and by email, and say when there is none", async () => {
    const { h, token } = await setUp();
    const [member] = (await h.call("users.list", { limit: "5" }, { token })).body.members.filter((m: Json) => m.profile.email);
    expect((await h.call("users.info", { user: member.id }, { token })).body).toEqual({ ok: true, user: member });
    expect((await h.call("users.lookupByEmail", { email: member.profile.email.toUpperCase() }, { token })).body).toEqual({ ok: true, user: member });
    expect((await h.call("users.info", { user: "U0NOBODY1" }, { token })).body.error).toBe("user_not_found");
    expect((await h.call("users.lookupByEmail", { email: "nobody@example.com" }, { token })).body.error).toBe("users_not_found");
    const narrow = await setUp(["users:read"]);
    expect((await narrow.h.call("users.lookupByEmail", { email: member.profile.email }, { token: narrow.token })).body).toMatchObject({
      error: "missing_scope",
      needed: "users:read.email",
    });
  });
});

describe("GET /admin/methods", () => {
  it("lists every method the emulator answers, with its scopes, tier and whether it pages which list", async () => {
    const h = createHarness();
    const { body } = await h.admin("methods");
    const byName = new Map((body.methods as Json[]).map((m) => [m.name, m]));
    expect(byName.get("conversations.history")).toEqual({
      name: "conversations.history",
      tier: 3,
      auth: "token",
      scopes: {
        bot: ["channels:history", "groups:history", "mpim:history", "im:history"],
        user: ["channels:history", "groups:history", "mpim:history", "im:history"],
      },
      paginated: true,
      pages: "messages",
      json: true,
    });
    expect(byName.get("users.list")).toMatchObject({ paginated: true, pages: "members" });
    expect(byName.get("auth.test")).toMatchObject({ paginated: false, json: true });
    expect(byName.get("oauth.v2.access")).toMatchObject({ auth: "client", paginated: false });
    // What it lists is what it answers: every listed method is known to the Web API router.
    for (const name of byName.keys()) {
      const answer = (await h.call(name, {})).body;
      expect(answer.error).not.toBe("unknown_method");
    }
  });
});
