/**
 * The Bolt app the official-framework event tests run, the same over Socket Mode and over HTTP: it answers a
 * mention and a member's "hello bolt" in the thread, a directMention "ping" with "pong", and publishes its
 * Home when a member opens it. What it received is kept for the tests to read.
 */
import { directMention, type App } from "@slack/bolt";
import type { Json } from "./emulator-harness";

export interface Received {
  mentions: Json[];
  messages: Json[];
  homesOpened: Json[];
  published: number;
}

export const GREETER_EVENTS = ["app_mention", "message.channels", "message.im", "app_home_opened"];
export const GREETER_SCOPES = ["app_mentions:read", "chat:write", "channels:history", "channels:join", "im:history"];

export function greet(bolt: App): Received {
  const received: Received = { mentions: [], messages: [], homesOpened: [], published: 0 };
  bolt.event("app_mention", async ({ event, say }) => {
    received.mentions.push(event as unknown as Json);
    await say({ text: `Hello <@${event.user}>, you said: ${event.text.replace(/<@[^>]+>\s*/, "")}`, thread_ts: event.ts });
  });
  bolt.message("hello bolt", async ({ message, say }) => {
    const m = message as unknown as Json;
    await say({ text: `Hi <@${m.user}>, welcome to the thread`, thread_ts: m.ts });
  });
  bolt.message(directMention, "ping", async ({ message, say }) => {
    await say({ text: "pong", thread_ts: (message as unknown as Json).ts });
  });
  bolt.message(async ({ message }) => {
    received.messages.push(message as unknown as Json);
  });
  bolt.event("app_home_opened", async ({ event, client }) => {
    received.homesOpened.push(event as unknown as Json);
    await client.views.publish({ user_id: event.user, view: { type: "home", blocks: [{ type: "section", text: { type: "mrkdwn", text: "Welcome home" } }] } });
    received.published += 1;
  });
  return received;
}
