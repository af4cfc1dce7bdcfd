import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as listRoute, POST as pasteRoute } from "@/app/api/webhooks/route";
import { POST as sendRoute } from "@/app/api/webhooks/send/route";
import { MAX_SEALED_COOKIE_BYTES } from "@/lib/session/sealed-cookie";
import { HISTORY_MAX_COOKIE_BYTES } from "@/lib/webhooks/history";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

/**
 * Pasted webhooks and the send history live in sealed cookies, whose size is counted in bytes: Japanese text
 * takes three bytes a character, and a third more once sealed. Driven against the embedded emulator over
 * real HTTP, so every message that goes out is counted where it arrives.
 */
let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
});
afterAll(() => testConsole.close());
beforeEach(async () => {
  await fetch(`${testConsole.origin}/emulator/admin/reset`, {
    method: "POST",
    headers: { origin: testConsole.origin, "content-type": "application/json" },
    body: "{}",
  });
});

/** 60 characters: the longest label a pasted webhook may have. */
const JAPANESE_LABEL = "本番環境デプロイ通知チャンネル（東京リージョン）".repeat(3).slice(0, 60);
const japaneseText = (i: number) => `デプロイ ${i} 件目が完了しました。本番環境の確認をお願いします。ロールバックは不要です。`.repeat(4);

interface ListBody {
  webhooks: Array<{ id: string; label: string; channelId: string | null }>;
  history: Array<{ preview: string; webhookLabel: string; ok: boolean; status: number }>;
}

/** The emulator's webhook as the developer would copy it, with what a browser then sends back. */
async function pastedEmulatorWebhook(label: string) {
  const installer = new TestBrowser(testConsole.origin);
  expect((await installIn(installer)).status).toBe(303);
  const [installed] = [...testConsole.emulator.emulator.state.installations.values()];
  const hook = installed?.incomingWebhook;
  if (!installed || !hook) throw new Error("the install gave no webhook");
  const browser = new TestBrowser(testConsole.origin);
  const url = `${testConsole.origin}/emulator/services/${installed.teamId}/${hook.hookId}/${hook.secret}`;
  const pasted = await browser.send(pasteRoute, "/api/webhooks", { method: "POST", json: { url, label } });
  expect(pasted.status).toBe(201);
  const [view] = ((await (await browser.send(listRoute, "/api/webhooks")).json()) as ListBody).webhooks;
  if (!view?.channelId) throw new Error("the pasted webhook has no channel");
  return { browser, webhookId: view.id, channelId: view.channelId };
}

async function channelMessageCount(channelId: string): Promise<number> {
  const state = (await (await fetch(`${testConsole.origin}/emulator/admin/state`)).json()) as {
    channels: Array<{ id: string; messages: unknown[] }>;
  };
  return state.channels.find((c) => c.id === channelId)?.messages.length ?? 0;
}

/**
 * Each cookie as the browser stores it: the name and the value as it came in Set-Cookie, percent-encoded
 * where needed (a seal needs none).
 */
function expectCookiesWithinLimit(browser: TestBrowser) {
  for (const [name, value] of browser.cookies) {
    expect(name.length + value.length, name).toBeLessThanOrEqual(MAX_SEALED_COOKIE_BYTES);
  }
}

describe("the send history in its cookie", () => {
  it("reports all 30 Japanese messages sent through a webhook with a 60-character Japanese label as delivered", async () => {
    const { browser, webhookId, channelId } = await pastedEmulatorWebhook(JAPANESE_LABEL);
    const answers: Array<{ status: number; ok?: boolean }> = [];
    for (let i = 0; i < 30; i += 1) {
      const response = await browser.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId, text: japaneseText(i) } });
      answers.push({ status: response.status, ...((await response.json()) as { ok?: boolean }) });
      expectCookiesWithinLimit(browser);
    }
    expect(await channelMessageCount(channelId)).toBe(30);
    expect(answers.filter((a) => a.status === 200 && a.ok === true)).toHaveLength(30);

    const { history } = (await (await browser.send(listRoute, "/api/webhooks")).json()) as ListBody;
    // Most of the last six: the oldest make room for the newest.
    expect(history.length).toBeGreaterThanOrEqual(4);
    const historyCookie = browser.cookies.get("sb_webhook_history") ?? "";
    expect("sb_webhook_history".length + historyCookie.length).toBeLessThanOrEqual(HISTORY_MAX_COOKIE_BYTES);
    expect(history[0]?.preview.startsWith("デプロイ 29 件目")).toBe(true);
    expect(history.every((h) => h.ok && JAPANESE_LABEL.startsWith(h.webhookLabel.replace(/…$/, "")))).toBe(true);
  });

  it("keeps the newest sends when older ones no longer fit, cutting texts at a character boundary", async () => {
    const { browser, webhookId } = await pastedEmulatorWebhook(JAPANESE_LABEL);
    // Four-byte characters (emoji) and three-byte ones, which a cut in the middle would break.
    for (const text of ["🚀".repeat(200), "漢".repeat(200), `${"é".repeat(45)}🚀🚀🚀`]) {
      expect((await browser.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId, text } })).status).toBe(200);
    }
    const { history } = (await (await browser.send(listRoute, "/api/webhooks")).json()) as ListBody;
    expect(history.map((h) => [...h.preview][0])).toEqual(["é", "漢", "🚀"]);
    for (const { preview, webhookLabel } of history) {
      expect(preview).not.toMatch(/\p{Cs}/u);
      expect(webhookLabel).not.toMatch(/\p{Cs}/u);
    }
    expectCookiesWithinLimit(browser);
  });
});

describe("pasted webhooks in their cookie", () => {
  /** A webhook URL as long as a pasted one may be, with a made-up secret so no real-looking URL sits here. */
  const longUrl = (i: number) => {
    const url = `https://hooks.slack.com/services/T${"0".repeat(60)}${i}/B${"0".repeat(60)}${i}/`;
    return `${url}${"abcdefghijklmnopqrstuvwx".repeat(10)}`.slice(0, 159) + String(i);
  };

  it("holds five with 60-character Japanese labels and long URLs, and refuses a sixth for its number", async () => {
    const browser = new TestBrowser(testConsole.origin);
    for (let i = 0; i < 5; i += 1) {
      const response = await browser.send(pasteRoute, "/api/webhooks", { method: "POST", json: { url: longUrl(i), label: JAPANESE_LABEL } });
      expect(response.status, await response.clone().text()).toBe(201);
      expect(((await response.json()) as { webhook: { label: string } }).webhook.label).toBe(JAPANESE_LABEL);
    }
    expect(longUrl(4)).toHaveLength(160);
    expectCookiesWithinLimit(browser);
    const sixth = await browser.send(pasteRoute, "/api/webhooks", { method: "POST", json: { url: longUrl(5), label: JAPANESE_LABEL } });
    expect(sixth.status).toBe(409);
    expect(await sixth.json()).toMatchObject({ error: "too_many_webhooks", message: expect.stringMatching(/At most 5/) });
    const { webhooks } = (await (await browser.send(listRoute, "/api/webhooks")).json()) as ListBody;
    expect(webhooks.map((w) => w.label)).toEqual(Array(5).fill(JAPANESE_LABEL));
  });

  it("refuses a label over 60 characters and a URL over 160, saying so", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const longLabel = await browser.send(pasteRoute, "/api/webhooks", { method: "POST", json: { url: longUrl(1), label: `${JAPANESE_LABEL}長` } });
    expect(longLabel.status).toBe(422);
    expect(((await longLabel.json()) as { message: string }).message).toMatch(/label.*at most 60 characters/);
    const tooLong = await browser.send(pasteRoute, "/api/webhooks", { method: "POST", json: { url: `${longUrl(1)}x`, label: "x" } });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { message: string }).message).toMatch(/at most 160 characters/);
    expect(browser.cookies.size).toBe(0);
  });
});
