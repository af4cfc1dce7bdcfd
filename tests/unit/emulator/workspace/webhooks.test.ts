import { describe, expect, it } from "vitest";
import type { Emulator } from "@/lib/emulator";
import { WEBHOOK_MESSAGES_PER_MINUTE } from "@/lib/emulator/webhooks/webhooks";
import { ADMIN_HEADERS, BASE, callApi, install, startEmulator } from "./support";

async function post(emulator: Emulator, url: string, body: string, contentType = "application/json") {
  const response = await emulator.fetch(new Request(url, { method: "POST", headers: { "content-type": contentType }, body }));
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text(), retryAfter: response.headers.get("retry-after") };
}

async function installWithHook(channelName = "random") {
  const started = startEmulator();
  const channel = started.emulator.state.workspace.channels.find((c) => c.name === channelName)!;
  const installed = await install(started.emulator, { webhookChannel: channel.id });
  if (!installed.webhookUrl) throw new Error("no webhook");
  return { ...started, ...installed, webhookUrl: installed.webhookUrl, channel };
}

describe("incoming webhooks", () => {
  it("posts a JSON {text} to the webhook's channel and answers 200 ok in plain text", async () => {
    const { emulator, webhookUrl, channel } = await installWithHook();
    expect(webhookUrl).toMatch(new RegExp(`^${BASE}/services/T0[0-9A-Z]+/B0[0-9A-Z]+/[A-Za-z0-9_-]+$`));
    const result = await post(emulator, webhookUrl, JSON.stringify({ text: "deploy finished" }));
    expect(result).toMatchObject({ status: 200, body: "ok" });
    expect(result.type).toMatch(/^text\/plain/);
    expect(emulator.state.workspace.messages.get(channel.id)?.map((m) => [m.text, m.via, m.subtype])).toEqual([
      ["deploy finished", "incoming-webhook", "bot_message"],
    ]);
  });

  it("accepts the form-encoded payload= variant", async () => {
    const { emulator, webhookUrl, channel } = await installWithHook();
    const body = new URLSearchParams({ payload: JSON.stringify({ text: "from a form" }) }).toString();
    expect(await post(emulator, webhookUrl, body, "application/x-www-form-urlencoded")).toMatchObject({ status: 200, body: "ok" });
    expect(emulator.state.workspace.messages.get(channel.id)?.at(-1)?.text).toBe("from a form");
  });

  it("answers 400 invalid_payload for a body that is not a JSON object", async () => {
    const { emulator, webhookUrl } = await installWithHook();
    for (const body of ["{not json", "[1,2]", '"text"', "null", "", JSON.stringify({ text: 42 })]) {
      expect(await post(emulator, webhookUrl, body), body).toMatchObject({ status: 400, body: "invalid_payload" });
    }
    const form = new URLSearchParams({ other: "x" }).toString();
    expect(await post(emulator, webhookUrl, form, "application/x-www-form-urlencoded")).toMatchObject({ status: 400, body: "invalid_payload" });
  });

  it("answers 400 no_text for a message without text", async () => {
    const { emulator, webhookUrl } = await installWithHook();
    expect(await post(emulator, webhookUrl, "{}")).toMatchObject({ status: 400, body: "no_text" });
    expect(await post(emulator, webhookUrl, JSON.stringify({ text: "  " }))).toMatchObject({ status: 400, body: "no_text" });
    expect(await post(emulator, webhookUrl, JSON.stringify({ blocks: [{ type: "divider" }] }))).toMatchObject({ status: 200, body: "ok" });
  });

  it("answers 403 invalid_token for a wrong secret", async () => {
    const { emulator, webhookUrl } = await installWithHook();
    const wrong = webhookUrl.replace(/[^/]$/, (c) => (c === "A" ? "B" : "A"));
    expect(await post(emulator, wrong, JSON.stringify({ text: "x" }))).toMatchObject({ status: 403, body: "invalid_token" });
  });

  it("answers 404 no_service for an unknown team or hook and a malformed path", async () => {
    const { emulator, webhookUrl } = await installWithHook();
    const [team, hook, secret] = webhookUrl.slice(`${BASE}/services/`.length).split("/");
    for (const path of [`T0NOPE0000/${hook}/${secret}`, `${team}/B0NOPE0000/${secret}`, `${team}/${hook}`, `${team}/${hook}/${secret}/extra`]) {
      expect(await post(emulator, `${BASE}/services/${path}`, JSON.stringify({ text: "x" })), path).toMatchObject({ status: 404, body: "no_service" });
    }
  });

  it("stops working once the app is uninstalled (404 no_service)", async () => {
    const { emulator, webhookUrl, botToken, app } = await installWithHook();
    expect((await post(emulator, webhookUrl, JSON.stringify({ text: "before" }))).status).toBe(200);
    expect(await callApi(emulator, "apps.uninstall", { client_id: app.clientId, client_secret: app.clientSecret }, botToken)).toMatchObject({ ok: true });
    expect(await post(emulator, webhookUrl, JSON.stringify({ text: "after" }))).toMatchObject({ status: 404, body: "no_service" });
  });

  it("answers 410 channel_is_archived once the channel is archived, and 404 channel_not_found once it is gone", async () => {
    const { emulator, webhookUrl, channel } = await installWithHook();
    // What a workspace admin does in the client: archive the channel, then delete it.
    channel.isArchived = true;
    expect(await post(emulator, webhookUrl, JSON.stringify({ text: "x" }))).toMatchObject({ status: 410, body: "channel_is_archived" });
    emulator.state.workspace.channelsById.delete(channel.id);
    expect(await post(emulator, webhookUrl, JSON.stringify({ text: "x" }))).toMatchObject({ status: 404, body: "channel_not_found" });
  });

  it("answers 429 with Retry-After once rate limits are on and the webhook is over its rate", async () => {
    const { emulator, webhookUrl, clock } = await installWithHook();
    const toggled = await emulator.fetch(
      new Request(`${BASE}/admin/rate-limits`, { method: "POST", headers: ADMIN_HEADERS, body: JSON.stringify({ enabled: true }) }),
    );
    expect(toggled.status).toBe(200);
    for (let i = 0; i < WEBHOOK_MESSAGES_PER_MINUTE; i++) expect((await post(emulator, webhookUrl, JSON.stringify({ text: `m${i}` }))).status).toBe(200);
    const limited = await post(emulator, webhookUrl, JSON.stringify({ text: "one too many" }));
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(limited.body)).toEqual({ ok: false, error: "ratelimited" });
    clock.advance(Number(limited.retryAfter) * 1000);
    expect((await post(emulator, webhookUrl, JSON.stringify({ text: "later" }))).status).toBe(200);
  });
});
