/**
 * The platform's rules on an app's event traffic (its app_rate_limited page): an app that answers fewer than 5%
 * of its deliveries in 60 minutes has its event subscriptions disabled (the emulator judges from 100 finished
 * deliveries in the hour) and gets an app_rate_limited callback, until it is enabled again from the admin
 * surface; past 30,000 events from one workspace in an hour, events are not sent and the app gets one
 * app_rate_limited callback. Both count on the emulator's clock: the tests move it rather than wait.
 */
import { describe, expect, it } from "vitest";
import { settleEventDeliveries } from "@/lib/emulator";
import { answeringChallenges } from "./support/request-url";
import { createHarness, type AdminApp, type Json } from "./support/emulator-harness";

const SCOPES = ["channels:history", "channels:join", "chat:write"];

async function setUp() {
  const events: Json[] = [];
  const callbacks: Json[] = [];
  // How the app answers: the first `succeed` events with 200, the others with 500 (and no retry, asked).
  const answer = { succeed: Infinity, seen: 0 };
  const h = createHarness({
    deliverEvent: answeringChallenges(async (_url, init) => {
      const body = JSON.parse(String(init.body)) as Json;
      if (body.type === "app_rate_limited") {
        callbacks.push(body);
        return new Response("", { status: 200 });
      }
      events.push(body);
      answer.seen += 1;
      return answer.seen <= answer.succeed ? new Response("", { status: 200 }) : new Response("down", { status: 500, headers: { "x-slack-no-retry": "1" } });
    }),
  });
  await h.admin("apps", {
    display_information: { name: "Listener" },
    features: { bot_user: { display_name: "listener" } },
    oauth_config: { redirect_urls: ["http://localhost:3000/oauth/callback"], scopes: { bot: SCOPES } },
    settings: { event_subscriptions: { request_url: "http://127.0.0.1:3209/listener/events", bot_events: ["message.channels"] } },
  });
  const app = ((await h.apps()).all as AdminApp[]).find((a) => a.name === "Listener")!;
  const installed = await h.install(app, { scope: SCOPES, userScope: [] });
  const channel = h.emulator.state.workspace.channels.find((c) => !c.isGeneral && !c.isArchived && (c.type ?? "public") === "public")!;
  await h.call("conversations.join", { channel: channel.id }, { token: installed.access_token });
  const post = async (times = 1): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < times; i++) ids.push(...((await h.admin("act/post", { channel: channel.id, text: `event ${i}` })).body.event_ids as string[]));
    await settleEventDeliveries(h.emulator.state);
    return ids;
  };
  const disabled = async () => ((await h.apps()).all as Json[]).find((a) => a.app_id === installed.app_id)!.event_subscriptions.disabled;
  const delivery = (id: string) => (h.emulator.state.eventLogs.get(installed.team.id)?.deliveries ?? []).find((d) => d.eventId === id);
  return { h, appId: installed.app_id as string, teamId: installed.team.id as string, events, callbacks, answer, post, disabled, delivery };
}

describe("an app whose deliveries mostly fail", () => {
  it("is disabled below 5% successful in 60 minutes, gets app_rate_limited, receives nothing until enabled again", async () => {
    const s = await setUp();
    s.answer.succeed = 5;
    // 5 of 100 is 5%: not fewer than 5%.
    await s.post(100);
    expect(s.events).toHaveLength(100);
    expect(await s.disabled()).toBeNull();
    expect(s.callbacks).toEqual([]);

    // 5 of 101 is: disabled, and told so.
    await s.post(1);
    expect(await s.disabled()).toEqual({ at: new Date(s.h.clock.now()).toISOString(), reason: "delivery_failures", attempted: 101, delivered: 5 });
    expect(s.callbacks).toEqual([
      {
        token: expect.any(String),
        type: "app_rate_limited",
        team_id: s.teamId,
        minute_rate_limited: Math.floor(s.h.clock.now() / 60_000) * 60,
        api_app_id: s.appId,
      },
    ]);

    // Nothing is sent while disabled; each event is recorded as not sent.
    const [held] = await s.post(1);
    expect(s.events).toHaveLength(101);
    expect(s.delivery(held!)).toMatchObject({ state: "failed", notSent: "app_disabled", attempts: [] });
    const shown = ((await s.h.admin("state")).body.event_deliveries as Json[]).find((d) => d.event_id === held);
    expect(shown).toMatchObject({ not_sent: "app_disabled" });

    // Enabled again from the admin surface (the app's settings on the platform): events flow.
    expect((await s.h.admin(`apps/${s.appId}/events/enable`, {})).body).toEqual({ ok: true, app_id: s.appId, was_disabled: true });
    s.answer.succeed = Infinity;
    const [sent] = await s.post(1);
    expect(s.delivery(sent!)).toMatchObject({ state: "delivered" });
    expect(await s.disabled()).toBeNull();
    expect((await s.h.admin("apps/A0NOSUCHAPP/events/enable", {})).status).toBe(404);
  });

  it("judges only the last 60 minutes on the emulator's clock", async () => {
    const s = await setUp();
    s.answer.succeed = 0;
    await s.post(99);
    s.h.clock.advance(61 * 60_000);
    // The 99 failures are past the hour: one more failure is one of one, too few to judge.
    await s.post(1);
    expect(await s.disabled()).toBeNull();
    expect(s.callbacks).toEqual([]);
  });
});

describe("an app past 30,000 events an hour from one workspace", () => {
  it("gets no more events that hour and one app_rate_limited callback; the next hour they flow again", async () => {
    const s = await setUp();
    await s.post(30_000);
    expect(s.events).toHaveLength(30_000);
    expect(s.callbacks).toEqual([]);

    const [first, second] = await s.post(2);
    expect(s.events).toHaveLength(30_000);
    expect(s.delivery(first!)).toMatchObject({ state: "failed", notSent: "app_rate_limited" });
    expect(s.delivery(second!)).toMatchObject({ state: "failed", notSent: "app_rate_limited" });
    expect(s.callbacks).toEqual([
      {
        token: expect.any(String),
        type: "app_rate_limited",
        team_id: s.teamId,
        minute_rate_limited: Math.floor(s.h.clock.now() / 60_000) * 60,
        api_app_id: s.appId,
      },
    ]);

    s.h.clock.advance(60 * 60_000);
    const [later] = await s.post(1);
    expect(s.delivery(later!)).toMatchObject({ state: "delivered" });
    expect(s.events).toHaveLength(30_001);
  }, 120_000);
});
