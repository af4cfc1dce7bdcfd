import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { settleEventDeliveries, type DeliverEvent, type Emulator } from "@/lib/emulator";
import { EVENT_RETRY_DELAYS_MS, eventLogOf } from "@/lib/emulator/events/deliveries";
import { installingUserId } from "@/lib/emulator/workspace/members";
import { answeringChallenges } from "../support/request-url";
import { ADMIN_HEADERS, appNamed, BASE, callApi, EVENTS_URL, install, startEmulator, type Json } from "./support";

/** The first workspace's deliveries, as the events module keeps them. */
const deliveriesOf = (emulator: Emulator) => eventLogOf(emulator.state, emulator.state.workspace.team.id).deliveries;

type Answer = number | "throw" | "hang" | Promise<number>;

/** Stands in for the app's request URL: records each request and answers as scripted (200 after the script). */
function appEndpoint(script: Answer[] = []) {
  const requests: Array<{ url: string; headers: Record<string, string>; body: string }> = [];
  const deliverEvent: DeliverEvent = answeringChallenges(async (url, init) => {
    requests.push({ url, headers: Object.fromEntries(new Headers(init.headers).entries()), body: String(init.body) });
    const answer = script.shift() ?? 200;
    if (answer === "throw") throw new TypeError("fetch failed");
    if (answer === "hang") {
      return new Promise<Response>((_, reject) => init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
    }
    return new Response("", { status: await answer });
  });
  return { requests, deliverEvent };
}

async function setup(script: Answer[] = [], installOptions: Parameters<typeof install>[1] = {}) {
  const endpoint = appEndpoint(script);
  const started = startEmulator({ deliverEvent: endpoint.deliverEvent });
  const installed = await install(started.emulator, installOptions);
  const general = started.emulator.state.workspace.channels.find((c) => c.isGeneral)!;
  return { ...started, ...installed, ...endpoint, general };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("app_mention delivery", () => {
  it("with eventRequestUrls, refuses a manifest that aims events elsewhere and never delivers there", async () => {
    const endpoint = appEndpoint();
    const elsewhere = "http://127.0.0.1:6379/internal";
    const started = startEmulator({ deliverEvent: endpoint.deliverEvent, eventRequestUrls: [EVENTS_URL] });
    const app = appNamed(started.emulator, "Switchboard Rotation");
    const aimAt = (requestUrl: string) =>
      started.emulator.fetch(
        new Request(`${BASE}/admin/apps`, {
          method: "POST",
          headers: ADMIN_HEADERS,
          body: JSON.stringify({
            ...app.manifest,
            settings: { ...app.manifest.settings, event_subscriptions: { request_url: requestUrl, bot_events: ["app_mention"] } },
          }),
        }),
      );

    const refused = await aimAt(elsewhere);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      ok: false,
      error: "invalid_manifest",
      errors: [{ pointer: "/settings/event_subscriptions/request_url", message: expect.stringContaining(EVENTS_URL) }],
    });
    expect(appNamed(started.emulator, "Switchboard Rotation").eventsRequestUrl).toBe(EVENTS_URL);
    expect((await aimAt(EVENTS_URL)).status).toBe(200);

    // An app built from options (not the admin surface) with another URL is not delivered to either.
    const { botToken, botUserId } = await install(started.emulator);
    started.emulator.state.apps.set(app.id, { ...appNamed(started.emulator, "Switchboard Rotation"), eventsRequestUrl: elsewhere });
    await callApi(started.emulator, "chat.postMessage", { channel: "general", text: `<@${botUserId}> hi` }, botToken);
    await settleEventDeliveries(started.emulator.state);
    expect(endpoint.requests).toEqual([]);
  });

  it("delivers a signed event_callback when chat.postMessage mentions the bot", async () => {
    const { emulator, requests, botToken, botUserId, app, general } = await setup();
    const posted = await callApi(emulator, "chat.postMessage", { channel: general.id, text: `hey <@${botUserId}> status?` }, botToken);
    expect(posted.ok).toBe(true);
    await settleEventDeliveries(emulator.state);

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.url).toBe(EVENTS_URL);
    expect(request!.headers["content-type"]).toBe("application/json");
    const timestamp = request!.headers["x-slack-request-timestamp"]!;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    const expected = `v0=${createHmac("sha256", app.signingSecret).update(`v0:${timestamp}:${request!.body}`).digest("hex")}`;
    expect(request!.headers["x-slack-signature"]).toBe(expected);
    expect(request!.headers).not.toHaveProperty("x-slack-retry-num");

    const payload = JSON.parse(request!.body) as Json;
    expect(payload).toMatchObject({
      type: "event_callback",
      team_id: emulator.state.workspace.team.id,
      api_app_id: app.id,
      event: { type: "app_mention", user: botUserId, text: `hey <@${botUserId}> status?`, ts: posted.ts, event_ts: posted.ts, channel: general.id },
      authorizations: [{ user_id: botUserId, is_bot: true }],
    });
    expect(payload.event_id).toMatch(/^Ev/);
    expect(typeof payload.event_time).toBe("number");
    expect(typeof payload.token).toBe("string");
    expect(deliveriesOf(emulator)).toMatchObject([{ eventId: payload.event_id, state: "delivered", attempts: [{ retryNum: 0, status: 200 }] }]);

    const state = (await (await emulator.fetch(new Request(`${BASE}/admin/state`))).json()) as { event_deliveries: Json[] };
    expect(state.event_deliveries).toMatchObject([
      {
        event_id: payload.event_id,
        event_type: "app_mention",
        app_id: app.id,
        url: EVENTS_URL,
        state: "delivered",
        attempts: [{ retry_num: 0, status: 200, failure: null }],
      },
    ]);
    expect(JSON.stringify(state.event_deliveries)).not.toContain(payload.token as string);
  });

  it("does not hold up chat.postMessage while the app is slow to answer", async () => {
    let release!: (status: number) => void;
    const { emulator, requests, botToken, botUserId, general } = await setup([new Promise<number>((resolve) => (release = resolve))]);
    const posted = await callApi(emulator, "chat.postMessage", { channel: general.id, text: `<@${botUserId}>` }, botToken);
    expect(posted.ok).toBe(true);
    expect(requests).toHaveLength(1);
    expect(deliveriesOf(emulator)[0]!.state).toBe("pending");
    release(200);
    await settleEventDeliveries(emulator.state);
    expect(deliveriesOf(emulator)[0]!.state).toBe("delivered");
  });

  it("retries failures with backoff and X-Slack-Retry-Num / X-Slack-Retry-Reason, re-signing each attempt", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { emulator, requests, botToken, botUserId, general, app } = await setup([500, "throw", "hang", 200]);
    await callApi(emulator, "chat.postMessage", { channel: general.id, text: `<@${botUserId}> ping` }, botToken);
    await vi.advanceTimersByTimeAsync(0);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(EVENT_RETRY_DELAYS_MS[0]);
    expect(requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(EVENT_RETRY_DELAYS_MS[1] - 1);
    expect(requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(3);
    // The third attempt hangs: it is abandoned after 3 seconds.
    await vi.advanceTimersByTimeAsync(3000 + EVENT_RETRY_DELAYS_MS[2]);
    expect(requests).toHaveLength(4);
    await settleEventDeliveries(emulator.state);

    expect(requests.map((r) => [r.headers["x-slack-retry-num"], r.headers["x-slack-retry-reason"]])).toEqual([
      [undefined, undefined],
      ["1", "http_error"],
      ["2", "connection_failed"],
      ["3", "http_timeout"],
    ]);
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    for (const r of requests) {
      const ts = r.headers["x-slack-request-timestamp"];
      expect(r.headers["x-slack-signature"]).toBe(`v0=${createHmac("sha256", app.signingSecret).update(`v0:${ts}:${r.body}`).digest("hex")}`);
    }
    const [delivery] = deliveriesOf(emulator);
    expect(delivery!.state).toBe("delivered");
    expect(delivery!.attempts.map((a) => [a.status, a.failure])).toEqual([
      [500, "http_error"],
      [undefined, "connection_failed"],
      [undefined, "http_timeout"],
      [200, undefined],
    ]);
  });

  it("gives up after 3 retries, or at once when the app answers X-Slack-No-Retry", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { emulator, requests, botToken, botUserId, general } = await setup([503, 503, 503, 503, 503]);
    await callApi(emulator, "chat.postMessage", { channel: general.id, text: `<@${botUserId}>` }, botToken);
    await vi.advanceTimersByTimeAsync(EVENT_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) + 10_000);
    await settleEventDeliveries(emulator.state);
    expect(requests).toHaveLength(4);
    expect(deliveriesOf(emulator)[0]!.state).toBe("failed");

    vi.useRealTimers();
    const noRetry = answeringChallenges(async () => new Response("", { status: 500, headers: { "x-slack-no-retry": "1" } }));
    const other = startEmulator({ deliverEvent: noRetry });
    const installed = await install(other.emulator);
    await callApi(other.emulator, "chat.postMessage", { channel: "general", text: `<@${installed.botUserId}>` }, installed.botToken);
    await settleEventDeliveries(other.emulator.state);
    expect(deliveriesOf(other.emulator)[0]).toMatchObject({ state: "failed", attempts: [{ status: 500 }] });
  });

  it("is not delivered when the installation was not granted app_mentions:read", async () => {
    const { emulator, requests, botToken, botUserId, general } = await setup([], { botScopes: ["chat:write", "chat:write.public"] });
    await callApi(emulator, "chat.postMessage", { channel: general.id, text: `<@${botUserId}>` }, botToken);
    await settleEventDeliveries(emulator.state);
    expect(requests).toHaveLength(0);
    expect(deliveriesOf(emulator)).toHaveLength(0);
  });

  it("is not delivered to an app that does not subscribe to app_mention", async () => {
    const endpoint = appEndpoint();
    const { emulator } = startEmulator({
      deliverEvent: endpoint.deliverEvent,
      apps: [
        {
          display_information: { name: "Quiet App" },
          oauth_config: { redirect_urls: ["http://localhost:3000/oauth/callback"], scopes: { bot: ["app_mentions:read", "chat:write", "chat:write.public"] } },
          settings: { event_subscriptions: { request_url: EVENTS_URL, bot_events: [] } },
        },
      ],
    });
    const { botToken, botUserId } = await install(emulator, { app: "Quiet App" });
    await callApi(emulator, "chat.postMessage", { channel: "general", text: `<@${botUserId}>` }, botToken);
    await settleEventDeliveries(emulator.state);
    expect(endpoint.requests).toHaveLength(0);
  });

  it("is still delivered after auth.revoke of a single token of a rotation app", async () => {
    const { emulator, requests, botToken, app } = await setup();
    expect(app.tokenRotationEnabled).toBe(true);
    expect(await callApi(emulator, "auth.revoke", {}, botToken)).toMatchObject({ ok: true, revoked: true });
    expect(await callApi(emulator, "auth.test", {}, botToken)).toMatchObject({ ok: false, error: "token_revoked" });
    const mention = await emulator.fetch(
      new Request(`${BASE}/admin/mention`, { method: "POST", headers: ADMIN_HEADERS, body: JSON.stringify({ app_id: app.id }) }),
    );
    expect(mention.status).toBe(200);
    await settleEventDeliveries(emulator.state);
    expect(requests).toHaveLength(1);
  });

  it("is not delivered after the app is uninstalled", async () => {
    const endpoint = appEndpoint();
    const { emulator } = startEmulator({ deliverEvent: endpoint.deliverEvent });
    const poster = await install(emulator, { app: "Switchboard Rotation" });
    const mentioned = await install(emulator, { app: "Switchboard Legacy" });
    await callApi(emulator, "chat.postMessage", { channel: "general", text: `<@${mentioned.botUserId}> one` }, poster.botToken);
    await settleEventDeliveries(emulator.state);
    expect(endpoint.requests.map((r) => (JSON.parse(r.body) as { api_app_id: string }).api_app_id)).toEqual([mentioned.app.id]);

    const app = mentioned.app;
    expect(await callApi(emulator, "apps.uninstall", { client_id: app.clientId, client_secret: app.clientSecret }, mentioned.botToken)).toMatchObject({
      ok: true,
    });
    await callApi(emulator, "chat.postMessage", { channel: "general", text: `<@${mentioned.botUserId}> two` }, poster.botToken);
    await settleEventDeliveries(emulator.state);
    expect(endpoint.requests).toHaveLength(1);
  });

  it("is delivered for a webhook message that mentions the bot", async () => {
    const { emulator, requests, botUserId, webhookUrl, general } = await setup();
    const response = await emulator.fetch(
      new Request(webhookUrl!, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: `<@${botUserId}> from a hook` }),
      }),
    );
    expect(await response.text()).toBe("ok");
    await settleEventDeliveries(emulator.state);
    expect(requests).toHaveLength(1);
    expect(JSON.parse(requests[0]!.body)).toMatchObject({ event: { type: "app_mention", text: `<@${botUserId}> from a hook`, channel: general.id } });
  });

  it("is delivered by the admin surface's mention action, posted by a member in the chosen channel", async () => {
    const { emulator, requests, botUserId, installationId } = await setup();
    const response = await emulator.fetch(
      new Request(`${BASE}/admin/mention`, {
        method: "POST",
        headers: ADMIN_HEADERS,
        body: JSON.stringify({ installation_id: installationId, channel: "random", text: "can you help?" }),
      }),
    );
    const result = (await response.json()) as Json;
    const random = emulator.state.workspace.channels.find((c) => c.name === "random")!;
    expect(result).toMatchObject({ ok: true, channel: random.id, text: `<@${botUserId}> can you help?` });
    await settleEventDeliveries(emulator.state);
    const payload = JSON.parse(requests[0]!.body) as { event: Record<string, unknown>; event_id: string };
    expect(payload.event).toMatchObject({ channel: random.id, ts: result.ts, user: installingUserId(emulator.state.workspace) });
    expect(result.event_ids).toEqual([payload.event_id]);
    expect(emulator.state.workspace.messages.get(random.id)?.at(-1)).toMatchObject({ text: `<@${botUserId}> can you help?`, via: "admin" });

    const missing = await emulator.fetch(
      new Request(`${BASE}/admin/mention`, { method: "POST", headers: ADMIN_HEADERS, body: JSON.stringify({ installation_id: "I0NOPE" }) }),
    );
    expect(missing.status).toBe(404);
    const invalid = await emulator.fetch(
      new Request(`${BASE}/admin/mention`, { method: "POST", headers: ADMIN_HEADERS, body: JSON.stringify({ channel: 5 }) }),
    );
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ ok: false, error: "invalid_arguments" });
  });
});
