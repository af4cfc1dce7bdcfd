/**
 * app_mention reaches an app only in a channel it is a member of: the platform sends no event to an
 * app mentioned in a conversation it is not part of.
 */
import { describe, expect, it } from "vitest";
import { settleEventDeliveries } from "@/lib/emulator";
import { answeringChallenges } from "./support/request-url";
import { createHarness, type Json } from "./support/emulator-harness";

function eventsHarness() {
  const delivered: Json[] = [];
  const h = createHarness({
    eventsRequestUrl: "http://127.0.0.1:3209/api/events",
    deliverEvent: answeringChallenges(async (_url, init) => {
      delivered.push(JSON.parse(String(init.body)) as Json);
      return new Response("", { status: 200 });
    }),
  });
  return { h, delivered };
}

describe("app_mention and channel membership", () => {
  it("a mention in a channel the bot has not joined sends no event; after conversations.join it does", async () => {
    const { h, delivered } = eventsHarness();
    const { rotation, legacy } = await h.apps();
    const mentioned = await h.install(rotation, { scope: ["app_mentions:read", "chat:write", "channels:join"] });
    const poster = await h.install(legacy, { scope: ["chat:write", "chat:write.public"] });
    const channel = h.emulator.state.workspace.channels.find((c) => !c.isGeneral && !c.isArchived)!;
    const text = `<@${mentioned.bot_user_id}> are you there?`;

    // chat:write.public lets the other app post there; the mentioned app is not a member: no event.
    const first = await h.call("chat.postMessage", { channel: channel.id, text }, { token: poster.access_token });
    expect(first.body.ok).toBe(true);
    await settleEventDeliveries(h.emulator.state);
    expect(delivered).toHaveLength(0);

    expect((await h.call("conversations.join", { channel: channel.id }, { token: mentioned.access_token })).body.ok).toBe(true);
    await h.call("chat.postMessage", { channel: channel.id, text }, { token: poster.access_token });
    await settleEventDeliveries(h.emulator.state);
    expect(delivered.map((d) => [d.event.type, d.event.channel])).toEqual([["app_mention", channel.id]]);
  });

  it("the incoming-webhook channel counts as joined at install: a mention there is delivered", async () => {
    const { h, delivered } = eventsHarness();
    const { rotation } = await h.apps();
    const channel = h.emulator.state.workspace.channels.find((c) => !c.isGeneral && !c.isArchived)!;
    const installed = await h.install(rotation, { scope: ["app_mentions:read", "chat:write", "incoming-webhook"], channelId: channel.id });
    const installation = [...h.emulator.state.installations.values()][0]!;
    expect([...installation.joinedChannels]).toEqual([channel.id]);
    const hook = await h.emulator.fetch(
      new Request(installed.incoming_webhook.url, { method: "POST", body: JSON.stringify({ text: `<@${installed.bot_user_id}> from the hook` }) }),
    );
    expect(await hook.text()).toBe("ok");
    await settleEventDeliveries(h.emulator.state);
    expect(delivered.map((d) => d.event.channel)).toEqual([channel.id]);
  });

  it("POST /admin/mention invites the bot to the channel first, so its mention is delivered", async () => {
    const { h, delivered } = eventsHarness();
    const { rotation } = await h.apps();
    await h.install(rotation, { scope: ["app_mentions:read", "chat:write"] });
    const channel = h.emulator.state.workspace.channels.find((c) => !c.isGeneral && !c.isArchived)!;
    const { status, body } = await h.admin("mention", { app_id: rotation.app_id, channel: channel.id });
    expect(status).toBe(200);
    expect(body.event_ids).toHaveLength(1);
    const installation = [...h.emulator.state.installations.values()][0]!;
    expect(installation.joinedChannels.has(channel.id)).toBe(true);
    await settleEventDeliveries(h.emulator.state);
    expect(delivered).toHaveLength(1);
  });
});
