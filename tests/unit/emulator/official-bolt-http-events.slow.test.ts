/**
 * The HTTP twin of official-bolt-socket-mode.slow.test.ts: the same unmodified @slack/bolt app (support/bolt-greeter.ts),
 * on Bolt's HTTP receiver (the app's signing secret, `clientOptions.slackApiUrl` at the emulator), against the
 * standalone emulator. Its event request URL is set through the admin surface once it listens, and the emulator
 * verifies it (url_verification, which Bolt answers). Then the admin surface acts as a member, and the app
 * receives the same events, signed, and answers the same way: a mention and a member's message answered in the
 * thread, its own reply dropped (ignoreSelf), a directMention, app_home_opened then views.publish; and, over
 * HTTP too, a member's DM to it and a reaction.
 *
 * Not here: the token API's documented `authorize` example (docs/token-api.md) needs the console's token API,
 * which the standalone emulator does not serve; tests/unit/token-api/bolt-authorize.slow.test.ts runs it.
 */
import { createServer, type AddressInfo } from "node:net";
import { App, LogLevel } from "@slack/bolt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmulatorServer } from "@/lib/emulator";
import { GREETER_EVENTS, GREETER_SCOPES, greet, type Received } from "./support/bolt-greeter";
import type { Json } from "./support/emulator-harness";
import { adminCall, appManifest, createSocketModeApp, startStandalone, until, webApi, type AppOptions, type InstalledApp } from "./support/socket-mode-app";

const APP: AppOptions = {
  name: "Bolt HTTP Greeter",
  socketMode: false,
  botEvents: [...GREETER_EVENTS, "reaction_added"],
  botScopes: [...GREETER_SCOPES, "reactions:read"],
};

let server: EmulatorServer;
let installed: InstalledApp;
let bolt: App;
let boltUrl: string;
let received: Received;
const reactions: Json[] = [];
let general = "";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  server = await startStandalone();
  installed = await createSocketModeApp(server, APP);
  boltUrl = `http://127.0.0.1:${await freePort()}`;
  bolt = new App({
    token: installed.botToken,
    signingSecret: installed.signingSecret,
    clientOptions: { slackApiUrl: `${server.url}/api/` },
    logLevel: LogLevel.ERROR,
  });
  received = greet(bolt);
  bolt.event("reaction_added", async ({ event }) => {
    reactions.push(event as unknown as Json);
  });
  await bolt.start(Number(new URL(boltUrl).port));
}, 30_000);

afterAll(async () => {
  await bolt?.stop().catch(() => undefined);
  await server?.close();
});

async function threadReplies(channel: string, ts: string): Promise<Json[]> {
  const replies = await webApi(server, "conversations.replies", { channel, ts }, installed.botToken);
  return (replies.messages as Json[] | undefined)?.filter((m) => m.ts !== ts) ?? [];
}

async function replyIn(channel: string, ts: string, what: string): Promise<Json[]> {
  return until(async () => {
    const found = await threadReplies(channel, ts);
    return found.length > 0 ? found : undefined;
  }, what);
}

async function deliveryOf(eventId: string): Promise<Json | undefined> {
  const state = await adminCall(server, "state");
  return (state.event_deliveries as Json[]).find((d) => d.event_id === eventId);
}

describe("the same unmodified @slack/bolt app over HTTP against the standalone emulator", () => {
  it("has its request URL verified when it is set: Bolt answers the url_verification challenge", async () => {
    const requestUrl = `${boltUrl}/slack/events`;
    const updated = await adminCall(server, "apps", { app_id: installed.appId, manifest: appManifest({ ...APP, requestUrl }) });
    expect(updated).toMatchObject({ ok: true, created: false });
    const verification = await until(async () => {
      const apps = (await adminCall(server, "apps")).apps as Json[];
      const current = apps.find((a) => a.app_id === installed.appId)?.event_subscriptions.request_url_verification as Json | null;
      return current && current.state !== "pending" ? current : undefined;
    }, "the verification");
    expect(verification).toMatchObject({ url: requestUrl, state: "verified", status: 200, failure: null });
    // The developer's "Retry" answers the same.
    const again = await adminCall(server, `apps/${installed.appId}/verify`, {});
    expect(again.request_url_verification).toMatchObject({ url: requestUrl, state: "verified" });
  });

  it("receives an app_mention over HTTP, signed, and replies in the thread", async () => {
    const mention = await adminCall(server, "mention", { app_id: installed.appId, text: "what's new?" });
    general = mention.channel as string;
    const replies = await replyIn(mention.channel, mention.ts, "Bolt's reply in the thread");
    expect(replies).toEqual([
      expect.objectContaining({ text: expect.stringContaining("you said: what's new?"), thread_ts: mention.ts, bot_id: expect.any(String) }),
    ]);
    expect(received.mentions.map((m) => m.ts)).toEqual([mention.ts]);
    // Bolt's receiver checked the signature and answered 200: the delivery went over HTTP, once.
    expect(await deliveryOf(mention.event_ids[0])).toMatchObject({ via: "http", state: "delivered", attempts: [{ retry_num: 0, status: 200, failure: null }] });
  });

  it("receives a member's message, replies in the thread, and drops its own bot_message (ignoreSelf)", async () => {
    expect((await webApi(server, "conversations.join", { channel: general }, installed.botToken)).ok).toBe(true);
    const posted = await adminCall(server, "act/post", { channel: general, text: "hello bolt, anyone here?" });
    expect(posted).toMatchObject({ ok: true, event_ids: [expect.any(String)] });
    const replies = await replyIn(general, posted.ts, "the reply in the thread");
    expect(replies).toEqual([expect.objectContaining({ text: expect.stringContaining("welcome to the thread"), thread_ts: posted.ts })]);
    const message = await until(() => received.messages.find((m) => m.ts === posted.ts), "the member's message");
    expect(message).toMatchObject({ channel: general, channel_type: "channel", client_msg_id: expect.any(String) });

    // Its own reply came back to its request URL as a message with its bot_id, and Bolt dropped it.
    const own = await until(async () => {
      const state = await adminCall(server, "state");
      return (state.event_deliveries as Json[]).find((d) => d.app_id === installed.appId && d.event.ts === replies[0]?.ts && d.state === "delivered");
    }, "the delivery of its own reply");
    expect(own).toMatchObject({ via: "http", event: { type: "message", bot_id: expect.any(String), thread_ts: posted.ts } });
    expect(received.messages.filter((m) => m.bot_id)).toEqual([]);
  });

  it("answers a directMention, and not a message that only mentions it further on", async () => {
    const direct = await adminCall(server, "act/post", { channel: general, text: `<@${installed.botUserId}> ping` });
    const indirect = await adminCall(server, "act/post", { channel: general, text: `ping <@${installed.botUserId}>` });
    const pong = await until(async () => (await threadReplies(general, direct.ts)).find((m) => m.text === "pong"), "pong");
    expect(pong.thread_ts).toBe(direct.ts);
    await until(() => received.messages.find((m) => m.ts === indirect.ts), "the other message");
    expect((await threadReplies(general, indirect.ts)).filter((m) => m.text === "pong")).toEqual([]);
  });

  it("receives app_home_opened when a member opens its Home, and publishes a view", async () => {
    const opened = await adminCall(server, "act/open-home", { app_id: installed.appId });
    expect(opened).toMatchObject({ ok: true, tab: "home", event_ids: [expect.any(String)] });
    const event = await until(() => received.homesOpened[0], "app_home_opened");
    expect(event).toMatchObject({ type: "app_home_opened", tab: "home", channel: opened.channel, user: expect.any(String) });
    await until(() => (received.published > 0 ? true : undefined), "views.publish");
    const again = await adminCall(server, "act/open-home", { app_id: installed.appId, user: event.user });
    expect(again.event_ids).toHaveLength(1);
    await until(() => received.homesOpened[1], "the second app_home_opened");
    expect(received.homesOpened.at(-1)?.view).toMatchObject({ type: "home", blocks: [expect.objectContaining({ type: "section" })] });
  });

  it("receives a member's DM (message.im) and answers it in the thread there", async () => {
    const dm = await adminCall(server, "act/dm", { app_id: installed.appId, text: "hello bolt, in private" });
    expect(dm).toMatchObject({ ok: true, event_ids: [expect.any(String)] });
    const message = await until(() => received.messages.find((m) => m.ts === dm.ts), "the DM");
    expect(message).toMatchObject({ channel: dm.channel, channel_type: "im" });
    const replies = await replyIn(dm.channel, dm.ts, "the reply in the DM");
    expect(replies).toEqual([expect.objectContaining({ text: expect.stringContaining("welcome to the thread"), thread_ts: dm.ts })]);
  });

  it("receives reaction_added when a member reacts to a message in its channel", async () => {
    const posted = await adminCall(server, "act/post", { channel: general, text: "react to me" });
    const reacted = await adminCall(server, "act/react", { channel: general, ts: posted.ts, name: "tada" });
    expect(reacted).toMatchObject({ ok: true, event_ids: [expect.any(String)] });
    const event = await until(() => reactions.find((r) => r.item?.ts === posted.ts), "reaction_added");
    expect(event).toMatchObject({ type: "reaction_added", reaction: "tada", item: { type: "message", channel: general, ts: posted.ts } });
  });
});
