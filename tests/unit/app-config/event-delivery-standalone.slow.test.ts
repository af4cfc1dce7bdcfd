/**
 * Event delivery on the settings page with a standalone emulator (`npm run emulator`, started here as its own
 * process) as the upstream through PLATFORM_BASE_URL, as with the embedded one: the console asks the upstream
 * what it is (upstreamEmulator, the one function the settings, events and Workspace pages share). Its settings
 * are read as the platform's are, with a pasted configuration token (the App Manifest API, which knows nothing
 * of delivery); the delivery comes from the emulator's admin surface: disabled and why, then enabled again.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as settingsRoute } from "@/app/api/app-config/apps/[appId]/route";
import { POST as enableRoute } from "@/app/api/app-config/apps/[appId]/events/enable/route";
import { POST as tokenRoute } from "@/app/api/app-config/token/route";
import { GET as workspaceRoute } from "@/app/api/workspace/route";
import type { AppSettingsView } from "@/lib/app-config/universal/types";
import { upstreamEmulator } from "@/lib/upstream-emulator";
import type { StandaloneEmulator } from "../../e2e/support/hosted";
import { startStandaloneUpstream, type StandaloneUpstream } from "../support/standalone-upstream";
import { consentAt, REDIRECT_URI, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { until, webApi } from "../emulator/support/socket-mode-app";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads any field and asserts it

const SEED = "standalone-delivery";
const SCOPES = ["channels:history", "channels:join", "channels:read", "chat:write"];

let testConsole: TestConsole;
let upstream: StandaloneUpstream;
let emulator: StandaloneEmulator;
let listener: Server;
let operator: TestBrowser;
let appId = "";
let channel = "";

const disabledNow = async (): Promise<Json | null> =>
  ((await emulator.admin("apps")).apps as Json[]).find((a) => a.app_id === appId)!.event_subscriptions.disabled as Json | null;

beforeAll(async () => {
  // The app's server: it answers url_verification, then fails every event (and asks for no retry).
  listener = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const json = JSON.parse(body || "{}") as Json;
      if (json.type === "url_verification")
        return void response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ challenge: json.challenge }));
      response.writeHead(500, { "x-slack-no-retry": "1" }).end("down");
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/events`;

  testConsole = await startTestConsole();
  upstream = await startStandaloneUpstream(SEED, [testConsole.origin]);
  emulator = upstream.emulator;
  operator = new TestBrowser(testConsole.origin);

  const created = (await emulator.admin("apps", {
    display_information: { name: "Flaky" },
    features: { bot_user: { display_name: "flaky" } },
    oauth_config: { redirect_urls: [REDIRECT_URI], scopes: { bot: SCOPES } },
    settings: { event_subscriptions: { request_url: listenerUrl, bot_events: ["message.channels"] } },
  })) as Json;
  expect(created.ok, JSON.stringify(created)).toBe(true);
  appId = created.app.app_id;
  const authorize = new URL(`${emulator.url}/oauth/v2/authorize`);
  for (const [k, v] of Object.entries({ client_id: created.app.client_id, scope: SCOPES.join(","), redirect_uri: REDIRECT_URI, state: "s" }))
    authorize.searchParams.set(k, v);
  const code = new URL(await consentAt(authorize.toString())).searchParams.get("code") ?? "";
  const access = await webApi(emulator, "oauth.v2.access", {
    code,
    client_id: created.app.client_id,
    client_secret: created.app.client_secret,
    redirect_uri: REDIRECT_URI,
  });
  expect(access.ok, JSON.stringify(access)).toBe(true);
  channel = ((await webApi(emulator, "conversations.list", { limit: "50" }, access.access_token)).channels as Json[]).find((c) => c.is_general)!.id;
  expect((await webApi(emulator, "conversations.join", { channel }, access.access_token)).ok).toBe(true);
}, 120_000);

afterAll(async () => {
  upstream?.stop();
  await testConsole?.close();
  await new Promise((resolve) => listener?.close(resolve));
});

describe("a standalone emulator as the upstream", () => {
  it("is told apart from the embedded one and from the platform by the one function the pages ask", async () => {
    expect(await upstreamEmulator()).toEqual({ kind: "standalone", target: { baseUrl: emulator.url, timeoutMs: expect.any(Number) } });
    // An upstream that does not say it is an emulator is the platform.
    const platform = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    expect(await upstreamEmulator({ kind: "platform", baseUrl: platform }, 2000)).toEqual({ kind: "platform" });
    expect(await upstreamEmulator({ kind: "emulator", baseUrl: `${testConsole.origin}/emulator` }, 2000)).toMatchObject({ kind: "embedded" });
    // The Workspace page reads the standalone's workspace.
    const workspace = await operator.send(workspaceRoute, "/api/workspace");
    expect(workspace.status, await workspace.clone().text()).toBe(200);
  });

  it("shows the app's events disabled on its settings, and enables them again on the standalone emulator", async () => {
    const pair = (await emulator.admin("config-tokens", {})) as { token: string; refresh_token: string };
    const pasted = await operator.send(tokenRoute, "/api/app-config/token", { method: "POST", json: { token: pair.token, refreshToken: pair.refresh_token } });
    expect(pasted.status, await pasted.clone().text()).toBe(200);
    const settings = () => operator.send(settingsRoute, `/api/app-config/apps/${appId}`, { params: { appId } });
    const before = await settings();
    expect(before.status, await before.clone().text()).toBe(200);
    const view = (await before.json()) as AppSettingsView;
    expect(view.backend).toBe("manifest-api");
    expect(view.events).toMatchObject({ disabled: null, canEnable: true });

    // 100 events the app fails: the emulator disables its events.
    for (let i = 0; i < 100; i++) expect((await emulator.admin("act/post", { channel, text: `event ${i}` })).ok).toBe(true);
    const disabled = await until(async () => (await disabledNow()) ?? undefined, "the app's events disabled", 30_000);
    const shown = (await (await settings()).json()) as AppSettingsView;
    expect(shown.events.disabled).toEqual({ at: disabled.at, reason: "delivery_failures", attempted: 100, delivered: 0 });
    expect(shown.events.canEnable).toBe(true);

    const enabled = await operator.send(enableRoute, `/api/app-config/apps/${appId}/events/enable`, { method: "POST", json: {}, params: { appId } });
    expect(enabled.status, await enabled.clone().text()).toBe(200);
    expect(((await enabled.json()) as AppSettingsView).events).toMatchObject({ disabled: null, canEnable: true });
    expect(await disabledNow()).toBeNull();
  });
});
