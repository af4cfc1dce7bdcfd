/**
 * An unmodified @slack/bolt app in Socket Mode (`socketMode: true`, an xapp- token, `clientOptions.slackApiUrl`
 * at the emulator, which Bolt hands its Socket Mode client) against the standalone emulator: it starts (its
 * client opens a URL with apps.connections.open and waits for hello), an app_mention reaches its listener, it
 * replies in the thread, and after a `disconnect` (refresh_requested) sent from the admin surface it reconnects
 * and the next mention arrives once: none lost, none twice.
 */
import { App, LogLevel } from "@slack/bolt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmulatorServer } from "@/lib/emulator";
import type { Json } from "./support/emulator-harness";
import { adminCall, createSocketModeApp, startStandalone, until, webApi, type InstalledApp } from "./support/socket-mode-app";

let server: EmulatorServer;
let installed: InstalledApp;
let bolt: App;
const mentions: Json[] = [];

beforeAll(async () => {
  server = await startStandalone();
  installed = await createSocketModeApp(server, {
    name: "Bolt Socket Greeter",
    botEvents: ["app_mention"],
    botScopes: ["app_mentions:read", "chat:write", "channels:history"],
  });
  bolt = new App({
    token: installed.botToken,
    appToken: installed.appToken,
    socketMode: true,
    clientOptions: { slackApiUrl: `${server.url}/api/` },
    logLevel: LogLevel.ERROR,
  });
  bolt.event("app_mention", async ({ event, say }) => {
    mentions.push(event as unknown as Json);
    await say({ text: `Hello <@${event.user}>, you said: ${event.text.replace(/<@[^>]+>\s*/, "")}`, thread_ts: event.ts });
  });
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
    const replies = await until(async () => {
      const found = await threadReplies(mention.channel, mention.ts);
      return found.length > 0 ? found : undefined;
    }, "Bolt's reply in the thread");
    expect(replies).toEqual([
      expect.objectContaining({ text: expect.stringContaining("you said: what's new?"), thread_ts: mention.ts, bot_id: expect.any(String) }),
    ]);
  });

  it("survives a disconnect (refresh_requested) without losing or duplicating an envelope", async () => {
    const before = mentions.length;
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
    expect(mentions.slice(before).map((m) => m.ts)).toEqual([mention.ts]);

    const state = await adminCall(server, "state");
    const delivery = (state.event_deliveries as Json[]).find((d) => d.event_id === mention.event_ids[0]);
    expect(delivery).toMatchObject({ via: "socket", state: "delivered", attempts: [{ retry_num: 0, failure: null }] });
    const connections = await adminCall(server, `apps/${installed.appId}/connections`);
    expect(connections.connections).toEqual([expect.objectContaining({ disconnect_sent: false })]);
  }, 30_000);
});
