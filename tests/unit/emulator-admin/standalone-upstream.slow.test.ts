/**
 * What was the embedded emulator's alone, with a standalone emulator (`npm run emulator`, started here as its
 * own process) as the upstream through PLATFORM_BASE_URL, as a team runs it: the settings page's "Generate a
 * configuration token", the explorer's list of the emulator's methods (GET /api/emulator/methods), and the
 * webhooks page's emulator channel (a webhook's messages arriving, and sending through the emulator's
 * webhooks at all). Each asks upstreamEmulator, which the standalone answers as an emulator; against the real
 * platform each is refused, saying why (platform-upstream.slow.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as overviewRoute } from "@/app/api/app-config/route";
import { GET as settingsRoute } from "@/app/api/app-config/apps/[appId]/route";
import { POST as generateRoute } from "@/app/api/app-config/token/generate/route";
import { GET as methodsRoute } from "@/app/api/emulator/methods/route";
import { GET as messagesRoute } from "@/app/api/emulator/messages/route";
import { GET as listRoute, POST as pasteRoute } from "@/app/api/webhooks/route";
import { POST as sendRoute } from "@/app/api/webhooks/send/route";
import type { StandaloneEmulator } from "../../e2e/support/hosted";
import { consentAt, REDIRECT_URI, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { startStandaloneUpstream, type StandaloneUpstream } from "../support/standalone-upstream";
import { webApi } from "../emulator/support/socket-mode-app";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads any field and asserts it

let testConsole: TestConsole;
let upstream: StandaloneUpstream;
let emulator: StandaloneEmulator;
let app: StandaloneUpstream["app"];
let operator: TestBrowser;

beforeAll(async () => {
  testConsole = await startTestConsole();
  upstream = await startStandaloneUpstream("standalone-upstream", [new URL(REDIRECT_URI).origin]);
  ({ emulator, app } = upstream);
  operator = new TestBrowser(testConsole.origin);
}, 120_000);

afterAll(async () => {
  upstream?.stop();
  await testConsole?.close();
});

/** The messages of one channel of the standalone emulator, as its admin state has them. */
async function channelTexts(channelId: string): Promise<string[]> {
  const state = (await emulator.admin("state")) as { channels: Array<{ id: string; messages: Array<{ text: string }> }> };
  return state.channels.find((c) => c.id === channelId)?.messages.map((m) => m.text) ?? [];
}

describe("a standalone emulator as the upstream", () => {
  it("issues a configuration token from the settings page's Generate, which then reads the app's settings through the App Manifest API", async () => {
    const before = (await (await operator.send(overviewRoute, "/api/app-config")).json()) as Json;
    // The page offers Generate for an emulator upstream: the overview says which.
    expect(before).toMatchObject({ emulator: "standalone", backend: null, configToken: null });

    const generated = await operator.send(generateRoute, "/api/app-config/token/generate", { method: "POST", json: {} });
    const text = await generated.clone().text();
    expect(generated.status, text).toBe(200);
    // Kept sealed: the browser sees it masked only.
    expect(((await generated.json()) as Json).configToken.maskedToken).toMatch(/^xoxe\./);
    expect(text).not.toMatch(/xoxe\.xoxp-1-[A-Za-z0-9-]{20,}/);
    // Nor its refresh token, which would mint new pairs.
    expect(text).not.toMatch(/xoxe-1-[A-Za-z0-9]{20,}/);

    const after = (await (await operator.send(overviewRoute, "/api/app-config")).json()) as Json;
    expect(after).toMatchObject({ emulator: "standalone", backend: "manifest-api", configToken: { maskedToken: expect.stringMatching(/^xoxe\./) } });
    const appId = ((await emulator.admin("apps")).apps as Json[]).find((a) => a.client_id === app.clientId)!.app_id as string;
    const settings = await operator.send(settingsRoute, `/api/app-config/apps/${appId}`, { params: { appId } });
    expect(settings.status, await settings.clone().text()).toBe(200);
    expect(await settings.json()).toMatchObject({ backend: "manifest-api", appId });
  });

  it("lists the methods the standalone emulator implements (GET /api/emulator/methods)", async () => {
    const response = await operator.send(methodsRoute, "/api/emulator/methods");
    expect(response.status, await response.clone().text()).toBe(200);
    const { methods } = (await response.json()) as { methods: Array<{ name: string; tier: unknown }> };
    // The emulator's own description of itself, as its admin surface gives it.
    expect(methods).toEqual(((await emulator.admin("methods")) as { methods: unknown[] }).methods);
    expect(methods.map((m) => m.name)).toContain("chat.postMessage");
  });

  it("sends through an install's webhook on the standalone emulator and shows it arrive in the emulator's channel", async () => {
    expect((await installIn(operator)).status).toBe(303);
    const { webhooks } = (await (await operator.send(listRoute, "/api/webhooks")).json()) as { webhooks: Json[] };
    const webhook = webhooks.find((w) => w.source === "installation")!;
    expect(webhook).toMatchObject({ channelId: expect.stringMatching(/^C/), maskedUrl: expect.stringContaining(new URL(emulator.url).host) });

    const text = `Deploy finished ${Date.now()}`;
    const sent = await operator.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: webhook.id, text } });
    expect(sent.status, await sent.clone().text()).toBe(200);
    expect(await sent.json()).toMatchObject({ status: 200, ok: true, body: "ok" });
    expect(await channelTexts(webhook.channelId as string)).toContain(text);

    const shown = await operator.send(messagesRoute, `/api/emulator/messages?channel=${webhook.channelId}&team=${webhook.teamId}`);
    expect(shown.status, await shown.clone().text()).toBe(200);
    const body = (await shown.json()) as { channel: Json; messages: Json[] };
    expect(body.channel).toEqual({ id: webhook.channelId, name: webhook.channel });
    expect(body.messages[0]).toMatchObject({ text, via: "incoming-webhook" });
  });

  it("places a pasted webhook of the standalone emulator in its channel, and sends through it", async () => {
    // A webhook URL as the standalone emulator gives it out (oauth.v2.access's incoming_webhook), pasted by hand.
    const authorize = new URL(`${emulator.url}/oauth/v2/authorize`);
    for (const [k, v] of Object.entries({ client_id: app.clientId, scope: "incoming-webhook", redirect_uri: REDIRECT_URI, state: "s" }))
      authorize.searchParams.set(k, v);
    const code = new URL(await consentAt(authorize.toString())).searchParams.get("code") ?? "";
    const access = await webApi(emulator, "oauth.v2.access", { code, client_id: app.clientId, client_secret: app.clientSecret, redirect_uri: REDIRECT_URI });
    expect(access.ok, JSON.stringify(access)).toBe(true);
    const hook = access.incoming_webhook as { url: string; channel_id: string };

    const pasted = await operator.send(pasteRoute, "/api/webhooks", { method: "POST", json: { url: hook.url, label: "pasted" } });
    expect(pasted.status, await pasted.clone().text()).toBe(201);
    const { webhooks } = (await (await operator.send(listRoute, "/api/webhooks")).json()) as { webhooks: Json[] };
    const placed = webhooks.find((w) => w.source === "pasted")!;
    expect(placed).toMatchObject({ label: "pasted", channelId: hook.channel_id });

    const sent = await operator.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: placed.id, text: "by hand" } });
    expect(sent.status, await sent.clone().text()).toBe(200);
    expect(await channelTexts(hook.channel_id)).toContain("by hand");
  });
});
