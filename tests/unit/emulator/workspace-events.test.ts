/**
 * Events beyond app_mention, over HTTP (the app chose its request URL): what a member's user token does
 * (post, edit, delete), what the admin surface does acting as a member (react, DM the app), and joins and
 * leaves reach an app that subscribes to them, only once its bot is in the conversation and only with the
 * scopes they need.
 */
import { describe, expect, it } from "vitest";
import { settleEventDeliveries } from "@/lib/emulator";
import { answeringChallenges } from "./support/request-url";
import { createHarness, type AdminApp, type Json } from "./support/emulator-harness";

const EVENTS = ["message.channels", "message.im", "reaction_added", "reaction_removed", "member_joined_channel", "member_left_channel"];

async function setUp() {
  const delivered: Json[] = [];
  const h = createHarness({
    deliverEvent: answeringChallenges(async (_url, init) => {
      delivered.push(JSON.parse(String(init.body)) as Json);
      return new Response("", { status: 200 });
    }),
  });
  const manifest = (name: string, scopes: string[]) => ({
    display_information: { name },
    features: { bot_user: { display_name: name.toLowerCase() } },
    oauth_config: { redirect_urls: ["http://localhost:3000/oauth/callback"], scopes: { bot: scopes } },
    settings: { event_subscriptions: { request_url: `http://127.0.0.1:3209/${name}/events`, bot_events: EVENTS } },
  });
  await h.admin("apps", manifest("Listener", ["channels:history", "channels:join", "channels:read", "reactions:read", "chat:write", "im:history"]));
  // Subscribed to the same events, without the scopes that carry them.
  await h.admin("apps", manifest("Scopeless", ["channels:join", "channels:manage", "chat:write"]));
  const all = (await h.apps()).all as AdminApp[];
  const listener = await h.install(
    all.find((a) => a.name === "Listener")!,
    { scope: ["channels:history", "channels:join", "channels:read", "reactions:read", "chat:write", "im:history"], userScope: [] },
  );
  const scopeless = await h.install(
    all.find((a) => a.name === "Scopeless")!,
    { scope: ["channels:join", "channels:manage", "chat:write"], userScope: [] },
  );
  const { rotation } = await h.apps();
  const member = await h.install(rotation, { scope: ["chat:write"], userScope: ["chat:write", "users:read"] });
  // A public channel other than #channel (which no one may leave), the installing member in it.
  const channel = h.emulator.state.workspace.channels.find((c) => !c.isGeneral && !c.isArchived && (c.type ?? "public") === "public")!;
  const settle = async () => {
    await settleEventDeliveries(h.emulator.state);
    const out = delivered.splice(0);
    return out;
  };
  return { h, listener, scopeless, userToken: member.authed_user.access_token as string, channel, settle };
}

describe("events from what happens in the workspace, over HTTP", () => {
  it("message, message_changed and message_deleted from a member's user token, once the bot is in the channel", async () => {
    const { h, listener, scopeless, userToken, channel, settle } = await setUp();
    await h.call("chat.postMessage", { channel: channel.id, text: "before the bot came" }, { token: userToken });
    expect(await settle()).toEqual([]);

    await h.call("conversations.join", { channel: channel.id }, { token: listener.access_token });
    await h.call("conversations.join", { channel: channel.id }, { token: scopeless.access_token });
    const joins = await settle();
    // The listener sees its own join and the other bot's; the other app, without channels:read, sees neither.
    expect(joins.map((d) => [d.api_app_id, d.event.type, d.event.user])).toEqual([
      [listener.app_id, "member_joined_channel", listener.bot_user_id],
      [listener.app_id, "member_joined_channel", scopeless.bot_user_id],
    ]);
    expect(joins[0]).toMatchObject({ type: "event_callback", event: { channel: channel.id, channel_type: "C" }, event_context: expect.any(String) });

    const posted = (await h.call("chat.postMessage", { channel: channel.id, text: "hello apps" }, { token: userToken })).body;
    const [message, ...others] = await settle();
    expect(others).toEqual([]);
    expect(message).toMatchObject({
      api_app_id: listener.app_id,
      event: {
        type: "message",
        channel: channel.id,
        channel_type: "channel",
        text: "hello apps",
        ts: posted.ts,
        event_ts: posted.ts,
        client_msg_id: expect.any(String),
      },
    });
    expect(message?.event.bot_id).toBeUndefined();

    await h.call("chat.update", { channel: channel.id, ts: posted.ts, text: "hello, apps" }, { token: userToken });
    const [changed] = await settle();
    expect(changed?.event).toMatchObject({
      type: "message",
      subtype: "message_changed",
      message: { text: "hello, apps", ts: posted.ts },
      previous_message: { text: "hello apps" },
    });

    await h.call("chat.delete", { channel: channel.id, ts: posted.ts }, { token: userToken });
    const [deleted] = await settle();
    expect(deleted?.event).toMatchObject({ type: "message", subtype: "message_deleted", deleted_ts: posted.ts, previous_message: { text: "hello, apps" } });

    // The app's own post comes back to it, with its bot_id: the app filters it.
    await h.call("chat.postMessage", { channel: channel.id, text: "I am the bot" }, { token: listener.access_token });
    const [own] = await settle();
    expect(own?.event).toMatchObject({ type: "message", bot_id: expect.any(String), text: "I am the bot" });

    const leave = await h.call("conversations.leave", { channel: channel.id }, { token: scopeless.access_token });
    expect(leave.body).toMatchObject({ ok: true });
    const [left] = await settle();
    expect(left).toMatchObject({ api_app_id: listener.app_id, event: { type: "member_left_channel", user: scopeless.bot_user_id } });
  });

  it("reactions and a DM to the app from the admin surface acting as a member, replies in a thread with parent_user_id", async () => {
    const { h, listener, channel, settle } = await setUp();
    await h.call("conversations.join", { channel: channel.id }, { token: listener.access_token });
    await settle();
    const post = (await h.admin("act/post", { channel: channel.id, text: "a thread starts" })).body;
    const reply = (await h.admin("act/post", { channel: channel.id, text: "a reply", thread_ts: post.ts })).body;
    const [, replied] = await settle();
    expect(replied?.event).toMatchObject({ ts: reply.ts, thread_ts: post.ts, parent_user_id: expect.stringMatching(/^U/) });

    const react = (await h.admin("act/react", { channel: channel.id, ts: post.ts, name: "tada" })).body;
    expect(react).toMatchObject({ ok: true, added: true, event_ids: [expect.any(String)] });
    const unreact = (await h.admin("act/react", { channel: channel.id, ts: post.ts, name: "tada" })).body;
    expect(unreact).toMatchObject({ added: false });
    expect((await settle()).map((d) => [d.event.type, d.event.reaction, d.event.item])).toEqual([
      ["reaction_added", "tada", { type: "message", channel: channel.id, ts: post.ts }],
      ["reaction_removed", "tada", { type: "message", channel: channel.id, ts: post.ts }],
    ]);

    const dm = (await h.admin("act/dm", { app_id: listener.app_id, text: "hi app" })).body;
    expect(dm).toMatchObject({ ok: true, channel: expect.stringMatching(/^D/), event_ids: [expect.any(String)] });
    const [direct] = await settle();
    expect(direct?.event).toMatchObject({ type: "message", channel: dm.channel, channel_type: "im", text: "hi app" });

    // Acting as someone who is no member of the workspace is refused.
    expect((await h.admin("act/post", { channel: dm.channel, text: "intruding", user: "U0NOBODY" })).status).toBe(404);
  });
});
