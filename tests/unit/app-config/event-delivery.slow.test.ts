/**
 * Issue 39's last item, the console's side: an app whose deliveries mostly fail has its events disabled by the
 * emulator (a real HTTP peer, its request URL a listener that answers 500), the settings route says since when
 * and why, and an admin enables delivery again through POST /api/app-config/apps/{appId}/events/enable (relayed
 * to the emulator's admin surface); a member who is not an admin, and another site, are refused and change nothing.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as settingsRoute } from "@/app/api/app-config/apps/[appId]/route";
import { POST as enableRoute } from "@/app/api/app-config/apps/[appId]/events/enable/route";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { AppSettingsView } from "@/lib/app-config/universal/types";
import { consentAt, REDIRECT_URI, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { pickMemberAt, returnToConsole, SIGN_IN_REDIRECT_URI, startSignIn } from "../signin/support";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads any field and asserts it

const SCOPES = ["channels:history", "channels:join", "chat:write"];

let testConsole: TestConsole;
let listener: Server;
let listenerUrl = "";
/** Event callbacks the app's request URL was sent (each answered 500, asking for no retry). */
const received: Json[] = [];
let admin: TestBrowser;
let member: TestBrowser;
let appId = "";
let channel = "";

async function adminSurface(route: string, body?: unknown): Promise<Json> {
  const response = await fetch(`${testConsole.origin}/emulator/admin/${route}`, {
    ...(body === undefined ? {} : { method: "POST", body: JSON.stringify(body) }),
    headers: { authorization: `Bearer ${process.env.EMULATOR_ADMIN_TOKEN}`, "content-type": "application/json" },
  });
  return (await response.json()) as Json;
}

async function webApi(method: string, params: Record<string, string>, token?: string): Promise<Json> {
  const response = await fetch(`${testConsole.origin}/emulator/api/${method}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: new URLSearchParams(params),
  });
  return (await response.json()) as Json;
}

async function signedIn(userId: string): Promise<TestBrowser> {
  const browser = new TestBrowser(testConsole.origin);
  expect((await returnToConsole(browser, await pickMemberAt(await startSignIn(browser), { userId }))).status).toBe(303);
  return browser;
}

async function until<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const disabledNow = async (): Promise<Json | null> =>
  ((await adminSurface("apps")).apps as Json[]).find((a) => a.app_id === appId)!.event_subscriptions.disabled as Json | null;

const settings = (browser: TestBrowser) => browser.send(settingsRoute, `/api/app-config/apps/${appId}`, { params: { appId } });
const enable = (browser: TestBrowser, headers: Record<string, string> = {}) =>
  browser.send(enableRoute, `/api/app-config/apps/${appId}/events/enable`, { method: "POST", json: {}, headers, params: { appId } });

beforeAll(async () => {
  // The app's server: it answers the platform's url_verification, then fails every event (and asks for no retry).
  listener = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const json = JSON.parse(body || "{}") as Json;
      if (json.type === "url_verification")
        return void response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ challenge: json.challenge }));
      received.push(json);
      response.writeHead(500, { "x-slack-no-retry": "1" }).end("down");
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/events`;

  testConsole = await startTestConsole({ AUTH_MODE: "oidc", SIGN_IN_REDIRECT_URI }, { redirectUrls: [SIGN_IN_REDIRECT_URI] });
  const ws = [...testConsole.emulator.emulator.state.workspaces.values()][0]!;
  const people = Array.from({ length: 20 }, (_, i) => memberIdAt(ws, i)).filter((id) => canSignIn(ws, id));
  process.env.ADMIN_USERS = people[1]!;
  admin = await signedIn(people[1]!);
  member = await signedIn(people[2]!);

  // An app as a developer makes it: its manifest with a request URL, installed by a person, its bot in a channel.
  const created = await adminSurface("apps", {
    display_information: { name: "Flaky" },
    features: { bot_user: { display_name: "flaky" } },
    oauth_config: { redirect_urls: [REDIRECT_URI], scopes: { bot: SCOPES } },
    settings: { event_subscriptions: { request_url: listenerUrl, bot_events: ["message.channels"] } },
  });
  expect(created.ok, JSON.stringify(created)).toBe(true);
  appId = created.app.app_id;
  const authorize = new URL(`${testConsole.origin}/emulator/oauth/v2/authorize`);
  for (const [k, v] of Object.entries({ client_id: created.app.client_id, scope: SCOPES.join(","), redirect_uri: REDIRECT_URI, state: "s" }))
    authorize.searchParams.set(k, v);
  const code = new URL(await consentAt(authorize.toString())).searchParams.get("code") ?? "";
  const access = await webApi("oauth.v2.access", {
    code,
    client_id: created.app.client_id,
    client_secret: created.app.client_secret,
    redirect_uri: REDIRECT_URI,
  });
  expect(access.ok, JSON.stringify(access)).toBe(true);
  channel = ws.channels.find((c) => c.isGeneral)!.id;
  expect((await webApi("conversations.join", { channel }, access.access_token)).ok).toBe(true);
});

afterAll(async () => {
  delete process.env.ADMIN_USERS;
  await testConsole?.close();
  await new Promise((resolve) => listener?.close(resolve));
});

describe("re-enabling an app's event delivery from its settings", () => {
  it("shows why and since when delivery stopped, refuses a member and another site, and an admin turns it on again", async () => {
    // Before: delivering, and the admin's settings say so.
    const before = (await (await settings(admin)).json()) as AppSettingsView;
    expect(before.events).toMatchObject({ disabled: null, canEnable: true });

    // 100 events the app fails (0 of 100 answered 2xx, fewer than 5%): the emulator disables its events.
    for (let i = 0; i < 100; i++) expect((await adminSurface("act/post", { channel, text: `event ${i}` })).ok).toBe(true);
    const disabled = await until(async () => (await disabledNow()) ?? undefined, "the app's events disabled");
    expect(disabled).toMatchObject({ reason: "delivery_failures", attempted: 100, delivered: 0 });

    const shown = await settings(admin);
    expect(shown.status).toBe(200);
    const view = (await shown.json()) as AppSettingsView;
    expect(view.events.disabled).toEqual({ at: disabled.at, reason: "delivery_failures", attempted: 100, delivered: 0 });
    expect(view.events.canEnable).toBe(true);

    // A member who is not an admin may not turn it on (the app is every workspace's); nor may another site.
    const refused = await enable(member);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "not_allowed" });
    const forged = await enable(admin, { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(forged.status).toBe(403);
    expect(await disabledNow()).toMatchObject({ reason: "delivery_failures" });

    // The admin turns it on: the settings answered say so, the emulator agrees, and the next event is sent.
    const enabled = await enable(admin);
    expect(enabled.status).toBe(200);
    expect(((await enabled.json()) as AppSettingsView).events).toMatchObject({ disabled: null, canEnable: true });
    expect(await disabledNow()).toBeNull();
    const sentBefore = received.length;
    await adminSurface("act/post", { channel, text: "after re-enabling" });
    await until(async () => (received.some((r) => r.event?.text === "after re-enabling") ? true : undefined), "the next event delivered");
    expect(received.length).toBe(sentBefore + 1);
  });
});
