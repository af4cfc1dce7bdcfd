/**
 * The platform's official client libraries work against the emulator unchanged: it is served over
 * HTTP, and @slack/web-api's WebClient (slackApiUrl pointed at it) and @slack/webhook's IncomingWebhook
 * talk to it as they would to the platform.
 */
import { LogLevel, WebClient, type WebAPIPlatformError } from "@slack/web-api";
import { IncomingWebhook } from "@slack/webhook";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import { memberCount } from "@/lib/emulator/workspace/members";
import type { Json } from "./support/emulator-harness";

const USERS = 1234;
const REDIRECT_URI = "http://localhost:3000/oauth/callback";

let server: EmulatorServer;
let client: WebClient;

async function admin(path: string, body?: unknown): Promise<Json> {
  const init = { method: "POST", headers: { origin: new URL(server.url).origin, "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(`${server.url}/admin/${path}`, body === undefined ? {} : init);
  return (await response.json()) as Json;
}

async function appNamed(name: string): Promise<Json> {
  const apps = (await admin("apps")).apps as Json[];
  const app = apps.find((a) => a.name === name);
  if (!app) throw new Error(`no app ${name}`);
  return app;
}

/** Clicks Allow on the consent page: the form posts back to the authorize URL and answers 302 with a code. */
async function authorize(app: Json, scope: string[], userScope: string[], channelId?: string): Promise<string> {
  const url = new URL(`${server.url}/oauth/v2/authorize`);
  url.search = new URLSearchParams({
    client_id: app.client_id,
    scope: scope.join(","),
    user_scope: userScope.join(","),
    redirect_uri: REDIRECT_URI,
    state: "sdk",
  }).toString();
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const action = /<form[^>]*action="([^"]+)"/.exec(await page.text())?.[1]?.replace(/&amp;/g, "&");
  if (!action) throw new Error("the consent page has no form");
  const form = new URLSearchParams({ decision: "allow" });
  if (channelId) form.set("channel_id", channelId);
  const decided = await fetch(action, { method: "POST", body: form, redirect: "manual" });
  expect(decided.status).toBe(302);
  const location = new URL(decided.headers.get("location") ?? "");
  expect(location.searchParams.get("state")).toBe("sdk");
  return location.searchParams.get("code") ?? "";
}

beforeAll(async () => {
  server = await startEmulatorServer({ port: 0, users: USERS, seed: "official-sdk" });
  client = new WebClient(undefined, {
    slackApiUrl: `http://127.0.0.1:${server.port}/api/`,
    logLevel: LogLevel.ERROR,
    retryConfig: { retries: 0 },
  });
});

afterAll(async () => {
  await server?.close();
});

describe("@slack/web-api WebClient against the emulator over HTTP", () => {
  it("installs (code exchange), tests the token, paginates users.list to the exact member count, and refreshes", async () => {
    const app = await appNamed("Switchboard Rotation");
    const code = await authorize(app, ["users:read", "chat:write"], ["users:read"]);

    const access = await client.oauth.v2.access({ client_id: app.client_id, client_secret: app.client_secret, code, redirect_uri: REDIRECT_URI });
    expect(access.ok).toBe(true);
    expect(access.access_token).toMatch(/^xoxe\.xoxb-/);
    expect(access.refresh_token).toMatch(/^xoxe-/);
    expect(access.expires_in).toBe(43200);
    expect(access.authed_user?.access_token).toMatch(/^xoxe\.xoxp-/);
    const botToken = access.access_token as string;

    const test = await client.auth.test({ token: botToken });
    expect(test).toMatchObject({ ok: true, user_id: access.bot_user_id, team_id: access.team?.id });
    // The server runs on the wall clock: a second may have passed since the token was issued.
    expect(test.expires_in).toBeGreaterThan(43_100);

    const ids = new Set<string>();
    let pages = 0;
    for await (const page of client.paginate("users.list", { token: botToken, limit: 200 })) {
      pages += 1;
      for (const member of (page as { members?: { id: string }[] }).members ?? []) ids.add(member.id);
    }
    // Every member exactly once: the generated members plus the bot user of the installed app.
    expect(ids.size).toBe(memberCount(server.emulator.state.workspace));
    expect(ids.size).toBe(USERS + 1);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(ids.size / 200));

    const refreshed = await client.oauth.v2.access({
      client_id: app.client_id,
      client_secret: app.client_secret,
      grant_type: "refresh_token",
      refresh_token: access.refresh_token as string,
    });
    expect(refreshed).toMatchObject({ ok: true, token_type: "bot", expires_in: 43200 });
    expect(refreshed.access_token).not.toBe(botToken);
    expect((await client.auth.test({ token: refreshed.access_token as string })).ok).toBe(true);
    // The previous access token keeps working after a refresh.
    expect((await client.auth.test({ token: botToken })).ok).toBe(true);
  });

  it("exchanges a legacy app's long-lived token once rotation is turned on, and surfaces platform errors", async () => {
    const app = await appNamed("Switchboard Legacy");
    const code = await authorize(app, ["users:read"], []);
    const access = await client.oauth.v2.access({ client_id: app.client_id, client_secret: app.client_secret, code });
    const longLived = access.access_token as string;
    expect(longLived).toMatch(/^xoxb-/);

    const refused = await client.oauth.v2
      .exchange({ client_id: app.client_id, client_secret: app.client_secret, token: longLived })
      .catch((e: WebAPIPlatformError) => e);
    expect((refused as WebAPIPlatformError).data?.error).toBe("token_rotation_not_enabled");

    const turnedOn = await admin("apps", {
      app_id: app.app_id,
      manifest: { ...app.manifest, settings: { ...app.manifest.settings, token_rotation_enabled: true } },
    });
    expect(turnedOn.ok).toBe(true);

    const exchanged = await client.oauth.v2.exchange({ client_id: app.client_id, client_secret: app.client_secret, token: longLived });
    expect(exchanged.ok).toBe(true);
    expect(exchanged.access_token).toMatch(/^xoxe\.xoxb-/);
    expect(exchanged.refresh_token).toMatch(/^xoxe-/);
    expect((await client.auth.test({ token: exchanged.access_token as string })).ok).toBe(true);

    const old = await client.auth.test({ token: longLived }).catch((e: WebAPIPlatformError) => e);
    expect((old as WebAPIPlatformError).data?.error).toBe("token_expired");
  });
});

describe("@slack/webhook IncomingWebhook against the emulator over HTTP", () => {
  it("posts a message that then shows in the channel", async () => {
    const app = await appNamed("Switchboard Rotation");
    const channel = server.emulator.state.workspace.channels.find((c) => c.name === "deploys");
    const code = await authorize(app, ["incoming-webhook"], [], channel?.id);
    const access = await client.oauth.v2.access({ client_id: app.client_id, client_secret: app.client_secret, code });
    const hook = access.incoming_webhook as { url: string; channel_id: string; channel: string };
    expect(hook.channel).toBe("#deploys");

    const webhook = new IncomingWebhook(hook.url);
    const sent = await webhook.send({ text: "Deployed build 42 from the official client" });
    expect(sent.text).toBe("ok");

    const state = await admin("state");
    const received = (state.channels as Json[]).find((c) => c.id === hook.channel_id);
    expect(received?.messages.map((m: Json) => m.text)).toContain("Deployed build 42 from the official client");
  });
});
