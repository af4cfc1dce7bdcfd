/**
 * An unmodified @slack/bolt app in Socket Mode (`socketMode: true`, an xapp- token, `clientOptions.slackApiUrl`
 * at the emulator, which Bolt hands its Socket Mode client) against the standalone emulator: it starts (its
 * client opens a URL with apps.connections.open and waits for hello), an app_mention reaches its listener, it
 * replies in the thread, and after a `disconnect` (refresh_requested) sent from the admin surface it reconnects
 * and the next mention arrives once: none lost, none twice. A member's own message (posted from the admin
 * surface acting as a member) reaches its `message` listener and it replies in the thread; its own replies come
 * back as messages with its bot_id, which Bolt drops (ignoreSelf); it answers a `directMention`; a member
 * opening its App Home sends `app_home_opened`, and it publishes a view.
 */
import { App, LogLevel } from "@slack/bolt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmulatorServer } from "@/lib/emulator";
import { GREETER_EVENTS, GREETER_SCOPES, greet, type Received } from "./support/bolt-greeter";
import type { Json } from "./support/emulator-harness";
import { adminCall, createSocketModeApp, startStandalone, until, webApi, type InstalledApp } from "./support/socket-mode-app";

let server: EmulatorServer;
let installed: InstalledApp;
let bolt: App;
let received: Received;
let firstMentionChannel = "";

beforeAll(async () => {
  server = await startStandalone();
  installed = await createSocketModeApp(server, { name: "Bolt Socket Greeter", botEvents: GREETER_EVENTS, botScopes: GREETER_SCOPES });
  bolt = new App({
    token: installed.botToken,
    appToken: installed.appToken,
    socketMode: true,
    clientOptions: { slackApiUrl: `${server.url}/api/` },
    logLevel: LogLevel.ERROR,
  });
  received = greet(bolt);
  await bolt.start();
}, 30_000);

afterAll(async () => {
  await bolt?.stop().catch(() => undefined);
  await server?.close();
});

async function threadReplies(channel: string, ts: string): Promise<Json[]> {
  const replies = await webApi(server, "conversations.replies", { channel, ts }, installed.botToken);
  return (replies.messages as Json[] | undefined)?.filter((m) => m.ts !== ts) ?? [];
}

describe("an unmodified @slack/bolt app in Socket Mode against the standalone emulator", () => {
  it("starts on an app-level token, receives an app_mention and replies in the thread", async () => {
    const connections = await adminCall(server, `apps/${installed.appId}/connections`);
    expect(connections.connections).toHaveLength(1);

    const mention = await adminCall(server, "mention", { app_id: installed.appId, text: "what's new?" });
    firstMentionChannel = mention.channel as string;
    const replies = await until(async () => {
      const found = await threadReplies(mention.channel, mention.ts);
      return found.length > 0 ? found : undefined;
    }, "Bolt's reply in the thread");
    expect(replies).toEqual([
      expect.objectContaining({ text: expect.stringContaining("you said: what's new?"), thread_ts: mention.ts, bot_id: expect.any(String) }),
    ]);
  });

  it("survives a disconnect (refresh_requested) without losing or duplicating an envelope", async () => {
    const before = received.mentions.length;
    const told = await adminCall(server, `apps/${installed.appId}/connections/disconnect`, { reason: "refresh_requested" });
    expect(told).toMatchObject({ ok: true, connections: 1 });
    // Sent while the client reconnects: the envelope waits for its new connection.
    const mention = await adminCall(server, "mention", { app_id: installed.appId, text: "are you still there?" });
    const replies = await until(
      async () => {
        const found = await threadReplies(mention.channel, mention.ts);
        return found.length > 0 ? found : undefined;
      },
      "the reply after the refresh",
      20_000,
    );
    // A moment for a duplicate to show, were there one.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await threadReplies(mention.channel, mention.ts)).toHaveLength(1);
    expect(replies[0]?.text).toContain("are you still there?");
    expect(received.mentions.slice(before).map((m) => m.ts)).toEqual([mention.ts]);

    const state = await adminCall(server, "state");
    const delivery = (state.event_deliveries as Json[]).find((d) => d.event_id === mention.event_ids[0]);
    expect(delivery).toMatchObject({ via: "socket", state: "delivered", attempts: [{ retry_num: 0, failure: null }] });
    const connections = await adminCall(server, `apps/${installed.appId}/connections`);
    expect(connections.connections).toEqual([expect.objectContaining({ disconnect_sent: false })]);
  }, 30_000);

  it("receives a member's message, replies in the thread, and drops its own bot_message (ignoreSelf)", async () => {
    // #general, where the first mention was; the bot joins it as an app does.
    const general = { id: firstMentionChannel };
    expect((await webApi(server, "conversations.join", { channel: general.id }, installed.botToken)).ok).toBe(true);
    const posted = await adminCall(server, "act/post", { channel: general.id, text: "hello bolt, anyone here?" });
    expect(posted).toMatchObject({ ok: true, event_ids: [expect.any(String)] });
    const replies = await until(async () => {
      const found = await threadReplies(general.id, posted.ts);
      return found.length > 0 ? found : undefined;
    }, "the reply in the thread");
    expect(replies).toEqual([expect.objectContaining({ text: expect.stringContaining("welcome to the thread"), thread_ts: posted.ts })]);
    const message = await until(() => received.messages.find((m) => m.ts === posted.ts), "the member's message");
    expect(message).toMatchObject({ channel: general.id, channel_type: "channel", client_msg_id: expect.any(String) });

    // Its own reply came back to it as a message with its bot_id, in the thread, and Bolt dropped it.
    const own = await until(async () => {
      const state = await adminCall(server, "state");
      return (state.event_deliveries as Json[]).find((d) => d.app_id === installed.appId && d.event.ts === replies[0]?.ts && d.state === "delivered");
    }, "the delivery of its own reply");
    expect(own.event).toMatchObject({ type: "message", bot_id: expect.any(String), thread_ts: posted.ts, parent_user_id: posted.user ?? expect.any(String) });
    expect(received.messages.filter((m) => m.bot_id)).toEqual([]);
  });

  it("answers a directMention, and not a message that only mentions it further on", async () => {
    const general = { id: firstMentionChannel };
    const direct = await adminCall(server, "act/post", { channel: general.id, text: `<@${installed.botUserId}> ping` });
    const indirect = await adminCall(server, "act/post", { channel: general.id, text: `ping <@${installed.botUserId}>` });
    const pong = await until(async () => {
      const found = await threadReplies(general.id, direct.ts);
      return found.find((m) => m.text === "pong");
    }, "pong");
    expect(pong.thread_ts).toBe(direct.ts);
    await until(() => received.messages.find((m) => m.ts === indirect.ts), "the other message");
    expect((await threadReplies(general.id, indirect.ts)).filter((m) => m.text === "pong")).toEqual([]);
  });

  it("receives app_home_opened when a member opens its Home, and publishes a view", async () => {
    const opened = await adminCall(server, "act/open-home", { app_id: installed.appId });
    expect(opened).toMatchObject({ ok: true, tab: "home", event_ids: [expect.any(String)] });
    const event = await until(() => received.homesOpened[0], "app_home_opened");
    expect(event).toMatchObject({ type: "app_home_opened", tab: "home", channel: opened.channel, user: expect.any(String) });
    await until(() => (received.published > 0 ? true : undefined), "views.publish");
    // Opened again: the event now carries the view it published.
    const again = await adminCall(server, "act/open-home", { app_id: installed.appId, user: event.user });
    expect(again.event_ids).toHaveLength(1);
    await until(() => received.homesOpened[1], "the second app_home_opened");
    expect(received.homesOpened.at(-1)?.view).toMatchObject({ type: "home", blocks: [expect.objectContaining({ type: "section" })] });
  });
});
