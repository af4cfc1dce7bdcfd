import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as mentionRoute } from "@/app/api/emulator/mention/route";
import { GET as messagesRoute } from "@/app/api/emulator/messages/route";
import { DELETE as deleteRoute } from "@/app/api/webhooks/[id]/route";
import { GET as listRoute, POST as pasteRoute } from "@/app/api/webhooks/route";
import { POST as sendRoute } from "@/app/api/webhooks/send/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { startTestConsole, TestBrowser, type TestConsole, forgetAllInstallations } from "../support/console";
import { installIn } from "../support/install";
import { forgetPastedWebhooks, openTestStore } from "../support/store";

/**
 * The webhook routes driven with `new Request(...)`, against the embedded emulator served over real HTTP
 * on this machine: the console's own origin, so its /emulator/services/ URLs pass the guard.
 */
let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
  await openTestStore();
});
afterAll(() => testConsole.close());
beforeEach(async () => {
  // Nothing pasted (the send history only grows: tests read its newest entries).
  await forgetPastedWebhooks();
  // Installations live in the store too, shared by every browser: none from an earlier test.
  await forgetAllInstallations();
  await fetch(`${testConsole.origin}/emulator/admin/reset`, {
    method: "POST",
    headers: { origin: testConsole.origin, "content-type": "application/json" },
    body: "{}",
  });
});

interface ListBody {
  webhooks: Array<{ id: string; source: string; label: string; maskedUrl: string; channel: string | null; channelId: string | null }>;
  history: Array<{ webhookId: string; preview: string; status: number; ok: boolean; result: string }>;
  emulator: boolean;
}

const SECRET_PATH = /\/services\/[A-Z0-9]+\/[A-Z0-9]+\/[A-Za-z0-9_-]{8,}/;

/** The secret parts of every webhook the emulator issued (read from its live state, as only a test can). */
function webhookSecrets(): string[] {
  return [...testConsole.emulator.emulator.state.installations.values()].flatMap((i) => (i.incomingWebhook ? [i.incomingWebhook.secret] : []));
}

async function installedBrowser() {
  const browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser)).status).toBe(303);
  const list = (await (await browser.send(listRoute, "/api/webhooks")).json()) as ListBody;
  const webhook = list.webhooks[0];
  if (!webhook) throw new Error("the install gave no webhook");
  return { browser, webhook };
}

async function channelTexts(channelId: string): Promise<string[]> {
  const state = (await (await fetch(`${testConsole.origin}/emulator/admin/state`)).json()) as {
    channels: Array<{ id: string; messages: Array<{ text: string }> }>;
  };
  return state.channels.find((c) => c.id === channelId)?.messages.map((m) => m.text) ?? [];
}

describe("GET /api/webhooks", () => {
  it("lists the install's webhook by opaque id, masked to its host and last 4 characters", async () => {
    const { browser, webhook } = await installedBrowser();
    expect(webhook).toMatchObject({ source: "installation", channel: expect.any(String), channelId: expect.stringMatching(/^C/) });
    expect(webhook.id).toMatch(/^inst-/);
    expect(webhook.maskedUrl).toMatch(new RegExp(`^127\\.0\\.0\\.1:${testConsole.emulator.port}/…[A-Za-z0-9_-]{4}$`));
    const [secret] = webhookSecrets();
    expect(secret).toBeTruthy();
    const raw = await (await browser.send(listRoute, "/api/webhooks")).text();
    expect(raw).not.toMatch(SECRET_PATH);
    expect(raw).not.toContain(secret);
    expect(webhook.maskedUrl.endsWith(secret?.slice(-4) ?? "?")).toBe(true);
    // The session view does not carry it either.
    expect(await (await browser.send(sessionRoute, "/api/session")).text()).not.toContain(secret);
  });

  it("tells apart the webhooks of two apps installed in the same workspace", async () => {
    const { browser } = await installedBrowser();
    expect((await installIn(browser, "?app=legacy")).status).toBe(303);
    const list = (await (await browser.send(listRoute, "/api/webhooks")).json()) as ListBody;
    const labels = list.webhooks.map((w) => w.label);
    expect(labels).toHaveLength(2);
    expect(new Set(labels).size).toBe(2);
    expect(labels.filter((l) => l.endsWith("· legacy app"))).toHaveLength(1);
  });
});

describe("POST /api/webhooks/send", () => {
  it("posts the text to the webhook's channel and answers the platform's status and body", async () => {
    const { browser, webhook } = await installedBrowser();
    const response = await browser.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: webhook.id, text: "hello, channel" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, status: 200, body: "ok", hint: null });
    expect(await channelTexts(webhook.channelId ?? "")).toContain("hello, channel");
  });

  it("keeps a history of sends without the URL", async () => {
    const { browser, webhook } = await installedBrowser();
    await browser.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: webhook.id, text: "first" } });
    await browser.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: webhook.id, payload: "{}" } });
    const list = (await (await browser.send(listRoute, "/api/webhooks")).json()) as ListBody;
    expect(list.history.slice(0, 2).map((h) => [h.preview, h.status, h.result])).toEqual([
      ["{}", 400, "no_text"],
      ["first", 200, "ok"],
    ]);
    const [secret = "?"] = webhookSecrets();
    expect(JSON.stringify(list)).not.toContain(secret);
    expect(browser.cookieHeader()).not.toContain(secret);
  });

  it("keeps the history on the server, past the 6 sends a cookie held, each text cut to its start", async () => {
    const { browser, webhook } = await installedBrowser();
    for (let i = 0; i < 9; i += 1) {
      await browser.send(sendRoute, "/api/webhooks/send", {
        method: "POST",
        json: { webhookId: webhook.id, text: `message ${i} ${"long text ".repeat(200)}` },
      });
    }
    const list = (await (await browser.send(listRoute, "/api/webhooks")).json()) as ListBody;
    expect(list.history.length).toBeGreaterThanOrEqual(9);
    expect(list.history[0]?.preview).toMatch(/^message 8 long text/);
    expect(list.history[8]?.preview).toMatch(/^message 0 long text/);
    expect(list.history[0]?.preview.length).toBeLessThanOrEqual(48);
    expect(browser.cookies.has("sb_webhook_history")).toBe(false);
    // Another browser of the console's operator sees the same history.
    const elsewhere = (await (await new TestBrowser(testConsole.origin).send(listRoute, "/api/webhooks")).json()) as ListBody;
    expect(elsewhere.history.map((h) => h.preview)).toEqual(list.history.map((h) => h.preview));
  });

  it("sends a raw payload as typed and shows the platform's error with a hint", async () => {
    const { browser, webhook } = await installedBrowser();
    const response = await browser.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: webhook.id, payload: '{"text": ' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: false, status: 400, body: "invalid_payload", hint: expect.stringMatching(/JSON/) });
  });

  it("refuses a payload over 40 KB with 413, and posts nothing", async () => {
    const { browser, webhook } = await installedBrowser();
    const big = JSON.stringify({ text: "x".repeat(41 * 1024) });
    const response = await browser.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: webhook.id, payload: big } });
    expect(response.status).toBe(413);
    expect(await channelTexts(webhook.channelId ?? "")).toEqual([]);
  });

  it("answers 404 for an id this session does not hold", async () => {
    const { browser } = await installedBrowser();
    const response = await browser.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: "inst-someone-else", text: "x" } });
    expect(response.status).toBe(404);
  });

  it("refuses a cross-site request", async () => {
    const { browser, webhook } = await installedBrowser();
    const response = await browser.send(sendRoute, "/api/webhooks/send", {
      method: "POST",
      headers: { origin: "https://evil.example" },
      json: { webhookId: webhook.id, text: "csrf" },
    });
    expect(response.status).toBe(403);
    expect(await channelTexts(webhook.channelId ?? "")).toEqual([]);
  });

  it("refuses a body with both text and payload, or neither", async () => {
    const { browser, webhook } = await installedBrowser();
    for (const json of [{ webhookId: webhook.id }, { webhookId: webhook.id, text: "a", payload: "{}" }]) {
      expect((await browser.send(sendRoute, "/api/webhooks/send", { method: "POST", json })).status).toBe(422);
    }
  });

  it("says a body that is not JSON is not JSON", async () => {
    const { browser } = await installedBrowser();
    for (const [route, path] of [
      [sendRoute, "/api/webhooks/send"],
      [pasteRoute, "/api/webhooks"],
    ] as const) {
      const response = await browser.send(route, path, {
        method: "POST",
        body: "text=hello",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe("invalid_json");
    }
  });
});

describe("POST /api/webhooks (paste) and DELETE /api/webhooks/{id}", () => {
  it("refuses a hostile URL with 400 and the reason, and stores nothing", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const paste = (url: string) => browser.send(pasteRoute, "/api/webhooks", { method: "POST", json: { url } });
    // This console's own origin, outside /emulator/services/: its Web API proxy, for example.
    const own = await paste(`${testConsole.origin}/api/call/auth.test`);
    expect(own.status).toBe(400);
    expect(await own.json()).toMatchObject({ error: "invalid_webhook_url", message: expect.stringMatching(/only \/emulator\/services\//) });
    const other = await paste(`https://169.254.169.254/services/T1/B1/secret`);
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ error: "invalid_webhook_url", message: expect.stringMatching(/IP address/) });
    for (const [url, reason] of [
      ["", /empty/],
      [`https://hooks.slack.com/services/T1/B1/${"s".repeat(2100)}`, /longer than 2048/],
    ] as const) {
      const refused = await paste(url);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "invalid_webhook_url", message: expect.stringMatching(reason) });
    }
    const list = (await (await browser.send(listRoute, "/api/webhooks")).json()) as ListBody;
    expect(list.webhooks).toEqual([]);
  });

  it("shows the channel of a pasted emulator webhook, where its message then arrives", async () => {
    const { webhook } = await installedBrowser();
    const [installed] = [...testConsole.emulator.emulator.state.installations.values()];
    const hook = installed?.incomingWebhook;
    if (!installed || !hook) throw new Error("the install gave no webhook");
    const browser = new TestBrowser(testConsole.origin);
    const url = `${testConsole.origin}/emulator/services/${installed.teamId}/${hook.hookId}/${hook.secret}`;
    const pasted = await browser.send(pasteRoute, "/api/webhooks", { method: "POST", json: { url, label: "copied" } });
    expect(pasted.status).toBe(201);
    // The installation's own webhook is listed too (installations live on the server, seen by every browser).
    const view = ((await (await browser.send(listRoute, "/api/webhooks")).json()) as ListBody).webhooks.find((w) => w.source === "pasted");
    expect(view).toMatchObject({ source: "pasted", label: "copied", channelId: webhook.channelId, channel: webhook.channel });
    const sent = await browser.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: view!.id, text: "through a pasted URL" } });
    expect(sent.status).toBe(200);
    expect(await channelTexts(view!.channelId ?? "")).toContain("through a pasted URL");
  });

  it("seals a pasted URL, lists it masked, sends through it, and forgets it", async () => {
    // A webhook URL of this emulator, as a developer would copy it from the app's configuration.
    const { webhook } = await installedBrowser();
    const granted = (await (await fetch(`${testConsole.origin}/emulator/admin/state`)).json()) as {
      installations: Array<{ incoming_webhook: { hook_id: string } | null }>;
    };
    expect(granted.installations[0]?.incoming_webhook).not.toBeNull();
    const browser = new TestBrowser(testConsole.origin);
    // A made-up secret, assembled so that no webhook-looking URL sits in the repository.
    const url = `https://hooks.slack.com/services/T0000000/B0000000/${["abcdefghijkl", "mnopqrstuvwx"].join("")}`;
    const pasted = await browser.send(pasteRoute, "/api/webhooks", { method: "POST", json: { url, label: "Alerts" } });
    expect(pasted.status).toBe(201);
    const { webhook: view } = (await pasted.json()) as { webhook: ListBody["webhooks"][number] };
    expect(view).toMatchObject({ source: "pasted", label: "Alerts", maskedUrl: "hooks.slack.com/…uvwx" });
    expect(browser.cookieHeader()).not.toContain("abcdefghijklmnopqrstuvwx");

    const pastedIds = async () =>
      ((await (await browser.send(listRoute, "/api/webhooks")).json()) as ListBody).webhooks.filter((w) => w.source === "pasted").map((w) => w.id);
    expect(await pastedIds()).toEqual([view.id]);

    expect((await browser.send(deleteRoute, `/api/webhooks/${view.id}`, { method: "DELETE", params: { id: view.id } })).status).toBe(200);
    expect(await pastedIds()).toEqual([]);
    expect((await browser.send(deleteRoute, `/api/webhooks/${view.id}`, { method: "DELETE", params: { id: view.id } })).status).toBe(404);
    expect(webhook.id).not.toBe(view.id);
  });

  it("keeps pasted webhooks on the server, past the 5 a cookie held, up to 100", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const paste = (i: number) =>
      browser.send(pasteRoute, "/api/webhooks", {
        method: "POST",
        json: { url: `https://hooks.slack.com/services/T0000000/B${String(i).padStart(7, "0")}/abcdefghijklmnopqrstuvw${i}`, label: `hook ${i}` },
      });
    for (let i = 0; i < 100; i += 1) expect((await paste(i)).status).toBe(201);
    const refused = await paste(100);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: "too_many_webhooks", message: expect.stringMatching(/At most 100/) });
    expect(browser.cookies.size).toBe(0);
    // Pasting a URL already kept answers the one kept, even when full.
    expect((await paste(3)).status).toBe(201);
    const list = (await (await new TestBrowser(testConsole.origin).send(listRoute, "/api/webhooks")).json()) as ListBody;
    expect(list.webhooks).toHaveLength(100);
    expect(list.webhooks.slice(0, 2).map((w) => w.label)).toEqual(["hook 0", "hook 1"]);
  });

  it("keeps a pasted URL longer than the 160 characters a cookie allowed", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const url = `https://hooks.slack.com/services/T${"0".repeat(40)}/B${"0".repeat(40)}/${"abcdefghijklmnopqrstuvwx".repeat(4)}`;
    expect(url.length).toBeGreaterThan(160);
    expect((await browser.send(pasteRoute, "/api/webhooks", { method: "POST", json: { url } })).status).toBe(201);
  });
});

describe("the emulator routes", () => {
  it("show a channel's messages, newest first", async () => {
    const { browser, webhook } = await installedBrowser();
    for (const text of ["one", "two"]) {
      await browser.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: webhook.id, text } });
    }
    const response = await browser.send(messagesRoute, `/api/emulator/messages?channel=${webhook.channelId}`);
    const body = (await response.json()) as { channel: { id: string; name: string }; messages: Array<{ text: string; via: string; author: string }> };
    expect(body.channel).toEqual({ id: webhook.channelId, name: webhook.channel });
    expect(body.messages.map((m) => m.text)).toEqual(["two", "one"]);
    expect(body.messages[0]).toMatchObject({ via: "incoming-webhook", author: expect.stringMatching(/^bot B/) });
  });

  it("mention the installation's bot user in a channel of the emulator", async () => {
    const { browser, webhook } = await installedBrowser();
    const installationId = webhook.id.replace(/^inst-/, "");
    const response = await browser.send(mentionRoute, "/api/emulator/mention", { method: "POST", json: { installationId, text: "are you there?" } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { channel: string; text: string; event_ids: string[] };
    expect(body.text).toMatch(/^<@U[A-Z0-9]+> are you there\?$/);
    expect(await channelTexts(body.channel)).toContain(body.text);
  });

  it("mention answers 404 for an installation this session does not hold", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const response = await browser.send(mentionRoute, "/api/emulator/mention", { method: "POST", json: { installationId: "T1-A1" } });
    expect(response.status).toBe(404);
  });
});
