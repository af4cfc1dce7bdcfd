import { App, LogLevel } from "@slack/bolt";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { GREETER_EVENTS, GREETER_SCOPES, greet } from "../unit/emulator/support/bolt-greeter";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * An unmodified @slack/bolt app in Socket Mode against the console's embedded emulator, through the console's
 * own server (`next start`, what `npm start` runs): `socketMode: true`, an xapp- token made on the embedded
 * emulator's admin surface, `clientOptions.slackApiUrl` at the console's /emulator/api/. It starts (its Socket
 * Mode client opens the URL apps.connections.open answers, on the embedded emulator's loopback socket server),
 * receives a member's message posted from the admin surface, and replies in the thread.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads any field and asserts it

const REDIRECT = "http://localhost:3000/oauth/callback";

async function api(request: APIRequestContext, method: string, form: Record<string, string>, token?: string): Promise<Json> {
  const response = await request.post(`/emulator/api/${method}`, { form, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return (await response.json()) as Json;
}

test("an unmodified Bolt app in Socket Mode starts against the console's embedded emulator and replies in a member's thread", async ({ request, baseURL }) => {
  await postEmulatorAdmin(request, "reset", {});
  const manifest = {
    display_information: { name: "Bolt Through The Console" },
    features: { bot_user: { display_name: "bolt-console" } },
    oauth_config: { redirect_urls: [REDIRECT], scopes: { bot: GREETER_SCOPES } },
    settings: { socket_mode_enabled: true, event_subscriptions: { bot_events: GREETER_EVENTS } },
  };
  const created = (await (await postEmulatorAdmin(request, "apps", manifest)).json()) as Json;
  expect(created.ok).toBe(true);
  const app = created.app as Json;
  const appToken = ((await (await postEmulatorAdmin(request, `apps/${app.app_id}/app-tokens`, { name: "bolt" })).json()) as Json).token as string;
  expect(appToken).toMatch(/^xapp-1-/);

  // A person installs the app (Allow on the consent page).
  const authorize = new URL(`${baseURL}/emulator/oauth/v2/authorize`);
  for (const [k, v] of Object.entries({ client_id: app.client_id, scope: GREETER_SCOPES.join(","), redirect_uri: REDIRECT, state: "s" })) {
    authorize.searchParams.set(k, v);
  }
  const allowed = await request.post(authorize.toString(), { form: { decision: "allow" }, maxRedirects: 0 });
  const code = new URL(allowed.headers().location ?? "http://x/").searchParams.get("code") ?? "";
  const access = await api(request, "oauth.v2.access", { code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: REDIRECT });
  expect(access.ok).toBe(true);

  // The bot joins a channel so that its members' messages reach it.
  const state = (await (await request.get("/emulator/admin/state")).json()) as Json;
  const channel = (state.channels as Json[]).find((c) => c.name === "random") as Json;
  expect((await api(request, "conversations.join", { channel: channel.id }, access.access_token)).ok).toBe(true);

  const bolt = new App({
    token: access.access_token,
    appToken,
    socketMode: true,
    clientOptions: { slackApiUrl: `${baseURL}/emulator/api/` },
    logLevel: LogLevel.ERROR,
  });
  const received = greet(bolt);
  await bolt.start();
  try {
    const connections = (await (await request.get(`/emulator/admin/apps/${app.app_id}/connections`)).json()) as Json;
    expect(connections.connections).toHaveLength(1);

    const post = (await (await postEmulatorAdmin(request, "act/post", { channel: channel.id, text: "hello bolt" })).json()) as Json;
    expect(post).toMatchObject({ ok: true, ts: expect.any(String), event_ids: [expect.any(String)] });
    await expect
      .poll(async () => {
        const replies = await api(request, "conversations.replies", { channel: channel.id, ts: post.ts }, access.access_token);
        return (replies.messages as Json[] | undefined)?.filter((m) => m.ts !== post.ts);
      })
      .toEqual([expect.objectContaining({ text: expect.stringContaining("welcome to the thread"), thread_ts: post.ts, bot_id: expect.any(String) })]);
    expect(received.messages.some((m) => m.ts === post.ts && m.text === "hello bolt")).toBe(true);
  } finally {
    await bolt.stop();
    await postEmulatorAdmin(request, "reset", {});
  }
});
