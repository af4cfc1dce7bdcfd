import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { settleEventDeliveries, type DeliverEvent } from "@/lib/emulator";
import { generalChannel } from "@/lib/emulator/workspace/channels";
import { channelMessages } from "@/lib/emulator/workspace/messages";
import { ADMIN_HEADERS, appNamed, BASE, callApi, EVENTS_URL, install, startEmulator, type Json } from "./support";

interface Received {
  url: string;
  headers: Headers;
  body: string;
  payload: { type?: string; challenge?: string; token?: string; event?: { type?: string } };
}

/**
 * An app's request URL whose answer to url_verification is scripted (`answer` gets the challenge and
 * returns the response), answering every event with 200. It records everything it receives.
 */
function requestUrl(answer: (challenge: string) => Response | Promise<Response> | "throw") {
  const received: Received[] = [];
  const deliverEvent: DeliverEvent = async (url, init) => {
    const body = String(init.body);
    const payload = JSON.parse(body) as Received["payload"];
    received.push({ url, headers: new Headers(init.headers), body, payload });
    if (payload.type !== "url_verification") return new Response("", { status: 200 });
    const response = await answer(payload.challenge ?? "");
    if (response === "throw") throw new TypeError("fetch failed");
    return response;
  };
  const challenges = () => received.filter((r) => r.payload.type === "url_verification");
  const events = () => received.filter((r) => r.payload.type === "event_callback");
  return { received, deliverEvent, challenges, events };
}

const echoJson = (challenge: string) => Response.json({ challenge });

async function admin(emulator: ReturnType<typeof startEmulator>["emulator"], path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const init: RequestInit = body === undefined ? {} : { method: "POST", headers: ADMIN_HEADERS, body: JSON.stringify(body) };
  const response = await emulator.fetch(new Request(`${BASE}/admin/${path}`, init));
  return { status: response.status, body: (await response.json()) as Json };
}

async function verificationOf(emulator: ReturnType<typeof startEmulator>["emulator"], name: string) {
  const app = appNamed(emulator, name);
  await app.requestUrlVerification?.done;
  const { body } = await admin(emulator, "apps");
  const apps = body.apps as Array<{ name: string; event_subscriptions: { request_url_verification: Json | null } }>;
  return apps.find((a) => a.name === name)!.event_subscriptions.request_url_verification;
}

describe("url_verification of an app's event request URL", () => {
  it("is sent to each configured app's request URL at start, signed with that app's signing secret", async () => {
    const url = requestUrl(echoJson);
    const { emulator } = startEmulator({ deliverEvent: url.deliverEvent });
    const rotation = appNamed(emulator, "Switchboard Rotation");
    await rotation.requestUrlVerification?.done;
    await appNamed(emulator, "Switchboard Legacy").requestUrlVerification?.done;

    expect(url.challenges()).toHaveLength(2);
    const toRotation = url.challenges().find((c) => {
      const timestamp = c.headers.get("x-slack-request-timestamp");
      const expected = `v0=${createHmac("sha256", rotation.signingSecret).update(`v0:${timestamp}:${c.body}`).digest("hex")}`;
      return c.headers.get("x-slack-signature") === expected;
    });
    expect(toRotation?.url).toBe(EVENTS_URL);
    expect(toRotation?.headers.get("content-type")).toBe("application/json");
    expect(Math.abs(Number(toRotation?.headers.get("x-slack-request-timestamp")) - Date.now() / 1000)).toBeLessThan(5);
    expect(Object.keys(toRotation!.payload).sort()).toEqual(["challenge", "token", "type"]);
    expect(toRotation!.payload.challenge).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(await verificationOf(emulator, "Switchboard Rotation")).toMatchObject({ url: EVENTS_URL, state: "verified", status: 200, failure: null });
  });

  it.each([
    ["plain text", (c: string) => new Response(c, { headers: { "content-type": "text/plain" } })],
    ["a form-encoded body", (c: string) => new Response(`challenge=${c}`, { headers: { "content-type": "application/x-www-form-urlencoded" } })],
    ["JSON", echoJson],
  ])("accepts the challenge answered as %s", async (_form, answer) => {
    const url = requestUrl(answer);
    const { emulator } = startEmulator({ deliverEvent: url.deliverEvent });
    expect(await verificationOf(emulator, "Switchboard Rotation")).toMatchObject({ state: "verified" });
  });

  it.each([
    ["another value", () => Response.json({ challenge: "not-the-challenge" }), { failure: "challenge_mismatch", status: 200 }],
    ["an empty 200", () => new Response(""), { failure: "challenge_mismatch", status: 200 }],
    ["the challenge with HTTP 500", (c: string) => new Response(c, { status: 500 }), { failure: "http_error", status: 500 }],
    ["no connection", () => "throw" as const, { failure: "connection_failed", status: null }],
  ])("records a failed verification for %s, and delivers no event there", async (_case, answer, outcome) => {
    const url = requestUrl(answer);
    const { emulator } = startEmulator({ deliverEvent: url.deliverEvent });
    expect(await verificationOf(emulator, "Switchboard Rotation")).toMatchObject({ state: "failed", ...outcome });

    const installed = await install(emulator);
    await callApi(emulator, "chat.postMessage", { channel: "general", text: `<@${installed.botUserId}> hello` }, installed.botToken);
    await settleEventDeliveries(emulator.state);
    expect(url.events()).toHaveLength(0);
    const state = (await admin(emulator, "state")).body as { apps: Array<{ name: string; request_url_verification: Json }> };
    expect(state.apps.find((a) => a.name === "Switchboard Rotation")?.request_url_verification).toMatchObject({ state: "failed", ...outcome });
  });

  it("counts an app that does not answer within 3 seconds as failed (http_timeout)", async () => {
    const url = requestUrl(() => new Promise<Response>(() => undefined));
    const hanging: DeliverEvent = (target, init) =>
      new Promise((resolve, reject) => {
        init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        void url.deliverEvent(target, init).then(resolve, reject);
      });
    const started = Date.now();
    const { emulator } = startEmulator({ deliverEvent: hanging, apps: [appNamedManifest()] });
    expect(await verificationOf(emulator, "Verified App")).toMatchObject({ state: "failed", failure: "http_timeout" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
  });

  it("can be retried from the admin surface, after which events are delivered", async () => {
    let answer: (challenge: string) => Response = () => new Response("nope");
    const url = requestUrl((c) => answer(c));
    const { emulator } = startEmulator({ deliverEvent: url.deliverEvent });
    const rotation = appNamed(emulator, "Switchboard Rotation");
    expect(await verificationOf(emulator, "Switchboard Rotation")).toMatchObject({ state: "failed" });
    const installed = await install(emulator);

    // The admin surface's mention posts nothing while the app could not receive its event.
    const refused = await admin(emulator, "mention", { app_id: rotation.id, text: "are you there?" });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ ok: false, error: "request_url_not_verified", request_url_verification: { state: "failed" } });
    const ws = emulator.state.workspace;
    expect(channelMessages(ws, generalChannel(ws).id).map((m) => m.text)).not.toContainEqual(expect.stringContaining("are you there?"));

    answer = echoJson;
    const retried = await admin(emulator, `apps/${rotation.id}/verify`, {});
    expect(retried).toMatchObject({ status: 200, body: { ok: true, app_id: rotation.id, request_url_verification: { state: "verified", url: EVENTS_URL } } });

    const mentioned = await admin(emulator, "mention", { app_id: rotation.id, text: "are you there?" });
    expect(mentioned.status).toBe(200);
    await callApi(emulator, "chat.postMessage", { channel: "general", text: `<@${installed.botUserId}> and now?` }, installed.botToken);
    await settleEventDeliveries(emulator.state);
    expect(url.events().map((e) => e.payload.event?.type)).toEqual(["app_mention", "app_mention"]);
  });

  it("a retry of an unknown app or of an app without a request URL says so", async () => {
    const { emulator } = startEmulator({ eventsRequestUrl: undefined, apps: [{ display_information: { name: "Quiet App" } }] });
    expect((await admin(emulator, "apps/A0NOPE/verify", {})).status).toBe(404);
    const quiet = appNamed(emulator, "Quiet App");
    expect(await admin(emulator, `apps/${quiet.id}/verify`, {})).toMatchObject({ status: 409, body: { error: "no_request_url" } });
  });

  it("is sent when a manifest sets or changes the request URL, and not again when it stays the same", async () => {
    const url = requestUrl(echoJson);
    const { emulator } = startEmulator({ deliverEvent: url.deliverEvent, eventsRequestUrl: undefined, apps: [{ display_information: { name: "Later App" } }] });
    expect(url.challenges()).toHaveLength(0);
    const manifest = (requestUrlValue: string) => ({
      display_information: { name: "Later App" },
      oauth_config: { scopes: { bot: ["app_mentions:read", "chat:write"] } },
      settings: { event_subscriptions: { request_url: requestUrlValue, bot_events: ["app_mention"] } },
    });

    expect((await admin(emulator, "apps", manifest("http://localhost:3300/slack/events"))).status).toBe(200);
    expect(await verificationOf(emulator, "Later App")).toMatchObject({ state: "verified", url: "http://localhost:3300/slack/events" });
    await admin(emulator, "apps", manifest("http://localhost:3300/slack/events"));
    expect(url.challenges().map((c) => c.url)).toEqual(["http://localhost:3300/slack/events"]);
    await admin(emulator, "apps", manifest("http://localhost:3301/slack/events"));
    expect(await verificationOf(emulator, "Later App")).toMatchObject({ state: "verified", url: "http://localhost:3301/slack/events" });
    expect(url.challenges().map((c) => c.url)).toEqual(["http://localhost:3300/slack/events", "http://localhost:3301/slack/events"]);
  });

  it("an event that happens while the verification is under way waits for it, then goes out", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const url = requestUrl(async (c) => {
      await gate;
      return echoJson(c);
    });
    const { emulator } = startEmulator({ deliverEvent: url.deliverEvent });
    const installed = await install(emulator);
    expect(appNamed(emulator, "Switchboard Rotation").requestUrlVerification?.state).toBe("pending");
    await callApi(emulator, "chat.postMessage", { channel: "general", text: `<@${installed.botUserId}> early` }, installed.botToken);
    expect(url.events()).toHaveLength(0);
    release();
    await settleEventDeliveries(emulator.state);
    expect(url.events().map((e) => e.payload.event?.type)).toEqual(["app_mention"]);
  });
});

function appNamedManifest() {
  return {
    display_information: { name: "Verified App" },
    oauth_config: { scopes: { bot: ["app_mentions:read"] } },
    settings: { event_subscriptions: { request_url: EVENTS_URL, bot_events: ["app_mention"] } },
  };
}
