import { expect, test, type APIRequestContext } from "@playwright/test";
import WebSocket from "ws";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * Socket Mode through the console's own server (`next start`, what `npm start` runs): the embedded emulator's
 * apps.connections.open answers a ws:// URL on its own loopback server (Next.js takes no upgrade under
 * /emulator), an app connects there with a bare WebSocket client, gets hello, and the admin mention arrives as
 * an events_api envelope that the app acks.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads any field and asserts it

const REDIRECT = "http://localhost:3000/oauth/callback";

async function api(request: APIRequestContext, method: string, form: Record<string, string>, token?: string): Promise<Json> {
  const response = await request.post(`/emulator/api/${method}`, { form, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return (await response.json()) as Json;
}

test("an app connects to the embedded emulator over Socket Mode and receives an app_mention", async ({ request, baseURL }) => {
  await postEmulatorAdmin(request, "reset", {});
  const apps = ((await (await request.get("/emulator/admin/apps")).json()) as Json).apps as Json[];
  const app = apps.find((a) => a.name === "Switchboard Rotation") as Json;
  expect((await (await postEmulatorAdmin(request, `apps/${app.app_id}/socket-mode`, { enabled: true })).json()).socket_mode_enabled).toBe(true);
  const made = (await (await postEmulatorAdmin(request, `apps/${app.app_id}/app-tokens`, { name: "e2e" })).json()) as Json;
  expect(made.token).toMatch(/^xapp-1-/);

  // A person installs the app (Allow on the consent page), as the app's own install route would have them.
  const authorize = new URL(`${baseURL}/emulator/oauth/v2/authorize`);
  for (const [k, v] of Object.entries({ client_id: app.client_id, scope: "app_mentions:read,chat:write", redirect_uri: REDIRECT, state: "s" })) {
    authorize.searchParams.set(k, v);
  }
  const allowed = await request.post(authorize.toString(), { form: { decision: "allow" }, maxRedirects: 0 });
  const code = new URL(allowed.headers().location ?? "http://x/").searchParams.get("code") ?? "";
  const access = await api(request, "oauth.v2.access", { code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: REDIRECT });
  expect(access.ok).toBe(true);

  const opened = await api(request, "apps.connections.open", {}, made.token);
  expect(opened).toMatchObject({ ok: true, url: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/emulator\/link\/\?ticket=/) });
  expect(new URL(opened.url).port).not.toBe(new URL(baseURL ?? "").port);

  const frames: Json[] = [];
  const socket = new WebSocket(opened.url);
  socket.on("message", (data) => {
    const frame = JSON.parse(data.toString()) as Json;
    frames.push(frame);
    if (frame.envelope_id) socket.send(JSON.stringify({ envelope_id: frame.envelope_id }));
  });
  await expect.poll(() => frames.find((f) => f.type === "hello")).toMatchObject({ num_connections: 1, connection_info: { app_id: app.app_id } });

  const mention = (await (await postEmulatorAdmin(request, "mention", { app_id: app.app_id, text: "over the console's socket" })).json()) as Json;
  expect(mention.event_ids).toHaveLength(1);
  await expect
    .poll(() => frames.find((f) => f.type === "events_api"))
    .toMatchObject({ payload: { event_id: mention.event_ids[0], event: { type: "app_mention", text: expect.stringContaining("over the console's socket") } } });
  await expect
    .poll(async () => {
      const state = (await (await request.get("/emulator/admin/state")).json()) as Json;
      return (state.event_deliveries as Json[]).find((d) => d.event_id === mention.event_ids[0])?.state;
    })
    .toBe("delivered");
  socket.close();
  await postEmulatorAdmin(request, "reset", {});
});
