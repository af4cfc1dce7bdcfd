/**
 * Socket Mode on the standalone emulator, spoken to with bare `ws` clients: app-level tokens on the admin
 * surface, apps.connections.open and who it refuses, hello, envelopes and acks, redelivery of an envelope
 * not acked, disconnect from the admin surface, the 10-connection limit and deliveries spread among
 * connections, and an app that chose HTTP getting nothing on its socket.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { EmulatorServer } from "@/lib/emulator";
import type { Json } from "./support/emulator-harness";
import { adminCall, createSocketModeApp, startStandalone, until, webApi, type InstalledApp } from "./support/socket-mode-app";

let server: EmulatorServer;
let app: InstalledApp;

interface Client {
  ws: WebSocket;
  frames: Json[];
  hello: Json;
}

async function connect(appToken: string): Promise<Client> {
  const opened = await webApi(server, "apps.connections.open", {}, appToken);
  expect(opened).toMatchObject({ ok: true, url: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=/) });
  const ws = new WebSocket(opened.url as string);
  const frames: Json[] = [];
  ws.on("message", (data) => frames.push(JSON.parse(data.toString()) as Json));
  const hello = await until(() => frames.find((f) => f.type === "hello"), "hello");
  return { ws, frames, hello };
}

const envelopes = (client: Client) => client.frames.filter((f) => f.type === "events_api");

async function mention(text: string): Promise<string> {
  const answer = await adminCall(server, "mention", { app_id: app.appId, text });
  expect(answer).toMatchObject({ ok: true, event_ids: [expect.any(String)] });
  return answer.event_ids[0] as string;
}

async function deliveryOf(eventId: string): Promise<Json> {
  const state = await adminCall(server, "state");
  return (state.event_deliveries as Json[]).find((d) => d.event_id === eventId) as Json;
}

beforeAll(async () => {
  server = await startStandalone();
  app = await createSocketModeApp(server, { name: "Socket Tester", botEvents: ["app_mention"], botScopes: ["app_mentions:read", "chat:write"] });
});

afterAll(async () => {
  await server?.close();
});

describe("app-level tokens on the admin surface", () => {
  it("are made with connections:write, listed masked, refused a taken name, and revoked", async () => {
    const made = await adminCall(server, `apps/${app.appId}/app-tokens`, { name: "ci" });
    expect(made).toMatchObject({
      ok: true,
      name: "ci",
      scopes: ["connections:write"],
      token: expect.stringMatching(new RegExp(`^xapp-1-${app.appId}-\\d{13}-[0-9a-f]{64}$`)),
    });
    expect((await adminCall(server, `apps/${app.appId}/app-tokens`, { name: "ci" })).error).toBe("name_taken");
    const listed = await adminCall(server, `apps/${app.appId}/app-tokens`);
    const ci = (listed.tokens as Json[]).find((t) => t.name === "ci");
    expect(ci).toMatchObject({ masked: `xapp-1-…${String(made.token).slice(-4)}`, revoked_at: null });
    expect(JSON.stringify(listed)).not.toContain(made.token);

    expect((await webApi(server, "apps.connections.open", {}, made.token)).ok).toBe(true);
    const revoked = await adminCall(server, `apps/${app.appId}/app-tokens/revoke`, { name: "ci" });
    expect((revoked.tokens as Json[]).find((t) => t.name === "ci")?.revoked_at).toEqual(expect.any(String));
    expect(await webApi(server, "apps.connections.open", {}, made.token)).toEqual({ ok: false, error: "invalid_auth" });
  });

  it("refuses a scope an app-level token cannot have", async () => {
    const refused = await adminCall(server, `apps/${app.appId}/app-tokens`, { name: "bad", scopes: ["chat:write"] });
    expect(refused).toMatchObject({ ok: false, error: "invalid_arguments" });
  });
});

describe("apps.connections.open", () => {
  it("takes an app-level token only", async () => {
    expect(await webApi(server, "apps.connections.open", {})).toMatchObject({ ok: false, error: "not_authed" });
    expect(await webApi(server, "apps.connections.open", { token: app.appToken })).toMatchObject({ ok: false, error: "not_authed" });
    expect(await webApi(server, "apps.connections.open", {}, app.botToken)).toMatchObject({ ok: false, error: "not_allowed_token_type" });
    expect(await webApi(server, "apps.connections.open", {}, "xapp-1-A0NOPE-1-abc")).toMatchObject({ ok: false, error: "invalid_auth" });
    const other = await adminCall(server, `apps/${app.appId}/app-tokens`, { name: "authorizations only", scopes: ["authorizations:read"] });
    expect(await webApi(server, "apps.connections.open", {}, other.token)).toMatchObject({ ok: false, error: "missing_scope", needed: "connections:write" });
    // And an app-level token opens connections, not the rest of the Web API.
    expect(await webApi(server, "auth.test", {}, app.appToken)).toMatchObject({ ok: false, error: "not_allowed_token_type" });
  });

  it("answers a URL that serves one connection", async () => {
    const opened = await webApi(server, "apps.connections.open", {}, app.appToken);
    const first = new WebSocket(opened.url as string);
    await new Promise((resolve) => first.once("message", resolve));
    const second = new WebSocket(opened.url as string);
    const status = await new Promise<number>((resolve) => second.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(401);
    first.close();
  });
});

describe("the protocol", () => {
  it("says hello, delivers an app_mention in an events_api envelope, and takes the ack", async () => {
    const client = await connect(app.appToken);
    expect(client.hello).toMatchObject({
      type: "hello",
      num_connections: 1,
      connection_info: { app_id: app.appId },
      debug_info: { host: expect.any(String), build_number: expect.any(Number), approximate_connection_time: expect.any(Number) },
    });
    const eventId = await mention("over the socket");
    const envelope = await until(() => envelopes(client)[0], "the envelope");
    expect(envelope).toMatchObject({
      envelope_id: expect.any(String),
      type: "events_api",
      accepts_response_payload: false,
      retry_attempt: 0,
      retry_reason: "",
      payload: {
        type: "event_callback",
        api_app_id: app.appId,
        team_id: app.teamId,
        event_id: eventId,
        event_time: expect.any(Number),
        event_context: expect.any(String),
        is_ext_shared_channel: false,
        authorizations: [{ team_id: app.teamId, user_id: app.botUserId, is_bot: true }],
        event: { type: "app_mention", text: expect.stringContaining("over the socket") },
      },
    });
    client.ws.send(JSON.stringify({ envelope_id: envelope.envelope_id }));
    const delivered = await until(async () => {
      const d = await deliveryOf(eventId);
      return d.state === "delivered" ? d : undefined;
    }, "the ack");
    expect(delivered).toMatchObject({ via: "socket", url: "socket_mode", attempts: [{ retry_num: 0, failure: null, envelope_id: envelope.envelope_id }] });
    client.ws.close();
  });

  it("sends an envelope again, counting retry_attempt, when the first is not acked in time", async () => {
    const client = await connect(app.appToken);
    const eventId = await mention("ack me later");
    const first = await until(() => envelopes(client)[0], "the first envelope");
    const again = await until(() => envelopes(client)[1], "the redelivery", 10_000);
    expect(again).toMatchObject({ retry_attempt: 1, retry_reason: "timeout", payload: { event_id: eventId } });
    expect(again.envelope_id).not.toBe(first.envelope_id);
    client.ws.send(JSON.stringify({ envelope_id: again.envelope_id }));
    const delivered = await until(async () => ((await deliveryOf(eventId)).state === "delivered" ? deliveryOf(eventId) : undefined), "the ack");
    expect(delivered.attempts.map((a: Json) => a.failure)).toEqual(["timeout", null]);
    client.ws.close();
  }, 15_000);

  it("sends disconnect from the admin surface, and delivers nothing more on a connection told refresh_requested", async () => {
    const old = await connect(app.appToken);
    const told = await adminCall(server, `apps/${app.appId}/connections/disconnect`, { reason: "refresh_requested" });
    expect(told).toMatchObject({ ok: true, connections: 1 });
    expect(await until(() => old.frames.find((f) => f.type === "disconnect"), "disconnect")).toMatchObject({ type: "disconnect", reason: "refresh_requested" });
    const eventId = await mention("after the refresh");
    const fresh = await connect(app.appToken);
    const envelope = await until(() => envelopes(fresh)[0], "the envelope on the new connection");
    fresh.ws.send(JSON.stringify({ envelope_id: envelope.envelope_id }));
    await until(async () => ((await deliveryOf(eventId)).state === "delivered" ? true : undefined), "the ack");
    expect(envelopes(old)).toEqual([]);
    for (const reason of ["warning", "link_disabled"]) {
      expect((await adminCall(server, `apps/${app.appId}/connections/disconnect`, { reason })).ok).toBe(true);
      expect(await until(() => fresh.frames.find((f) => f.reason === reason), reason)).toMatchObject({ type: "disconnect" });
    }
    old.ws.close();
    fresh.ws.close();
  });

  it("takes at most 10 connections per app and spreads deliveries among them", async () => {
    await until(async () => ((await adminCall(server, `apps/${app.appId}/connections`)).connections.length === 0 ? true : undefined), "no connection left");
    const clients: Client[] = [];
    for (let i = 0; i < 10; i++) clients.push(await connect(app.appToken));
    expect(clients[9]?.hello.num_connections).toBe(10);
    expect(await webApi(server, "apps.connections.open", {}, app.appToken)).toMatchObject({ ok: false, error: "too_many_websockets" });
    for (const client of clients) {
      client.ws.on("message", (data) => {
        const frame = JSON.parse(data.toString()) as Json;
        if (frame.envelope_id) client.ws.send(JSON.stringify({ envelope_id: frame.envelope_id }));
      });
    }
    for (let i = 0; i < 20; i++) await mention(`spread ${i}`);
    await until(() => (clients.reduce((n, c) => n + envelopes(c).length, 0) === 20 ? true : undefined), "20 envelopes");
    expect(clients.map((c) => envelopes(c).length)).toEqual(Array(10).fill(2));
    for (const client of clients) client.ws.close();
  });
});

describe("an app that chose HTTP", () => {
  it("gets its events at its request URL, not on a socket", async () => {
    const http = await createSocketModeApp(server, {
      name: "HTTP Chooser",
      socketMode: false,
      botEvents: ["app_mention"],
      botScopes: ["app_mentions:read", "chat:write"],
    });
    const client = await connect(http.appToken);
    const answer = await adminCall(server, "mention", { app_id: http.appId, text: "hi" });
    // No request URL: nothing to send, and nothing comes over the socket.
    expect(answer).toMatchObject({ ok: true, event_ids: [] });
    expect(envelopes(client)).toEqual([]);
    const switched = await adminCall(server, `apps/${http.appId}/socket-mode`, { enabled: true });
    expect(switched).toMatchObject({ ok: true, socket_mode_enabled: true });
    await adminCall(server, "mention", { app_id: http.appId, text: "now over the socket" });
    expect(await until(() => envelopes(client)[0], "the envelope")).toMatchObject({ payload: { api_app_id: http.appId } });
    const off = await adminCall(server, `apps/${http.appId}/socket-mode`, { enabled: false });
    expect(off).toMatchObject({ socket_mode_enabled: false, connections_disabled: 1 });
    expect(await until(() => client.frames.find((f) => f.type === "disconnect"), "link_disabled")).toMatchObject({ reason: "link_disabled" });
  });
});
