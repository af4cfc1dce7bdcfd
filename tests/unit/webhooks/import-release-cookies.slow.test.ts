/**
 * Upgrading from the release before the store (b414481): the pasted webhooks and the send history it sealed
 * in cookies move into the store on the first request that carries them, and the cookies are cleared.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DELETE as deleteRoute } from "@/app/api/webhooks/[id]/route";
import { GET as listRoute } from "@/app/api/webhooks/route";
import { getStore } from "@/lib/store";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { releasePastedWebhooksCookie, releaseSendHistoryCookie, type ReleaseSendRecord } from "../support/release-b414481-cookies";
import { forgetPastedWebhooks, openTestStore } from "../support/store";

let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
  await openTestStore();
});
afterAll(() => testConsole.close());
beforeEach(() => forgetPastedWebhooks());

interface ListBody {
  webhooks: Array<{ id: string; source: string; label: string; maskedUrl: string }>;
  history: Array<{ id: string; preview: string; status: number }>;
}

// Made-up secrets, put together here so that no webhook-looking URL sits in the repository.
const hookUrl = (n: number) => `https://hooks.slack.com/services/T0000000${n}/B0000000${n}/${["abcdefghijkl", `mnopqrstuv${n}${n}`].join("")}`;
const password = () => process.env.SESSION_PASSWORD!;

async function browserWith(...cookies: Array<[string, string]>): Promise<TestBrowser> {
  const browser = new TestBrowser(testConsole.origin);
  for (const [name, value] of cookies) browser.cookies.set(name, value);
  return browser;
}

function send(id: string, sentAt: number, preview: string): ReleaseSendRecord {
  return { id, webhookId: "wh_old", webhookLabel: "Alerts", sentAt, preview, status: 200, ok: true, result: "ok", durationMs: 12 };
}

describe("pasted webhooks sealed in a cookie by the previous release", () => {
  it("are imported into the store on the first request, under their ids, and the cookie is cleared", async () => {
    const hooks = [
      { id: "wh_oldAAAAAAAAAAA", url: hookUrl(1), label: "Alerts", addedAt: 1_700_000_000_000 },
      { id: "wh_oldBBBBBBBBBBB", url: hookUrl(2), label: "Deploys", addedAt: 1_700_000_100_000 },
    ];
    const browser = await browserWith(await releasePastedWebhooksCookie(hooks, password()));
    const response = await browser.send(listRoute, "/api/webhooks");
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("sb_webhooks=;") && /Max-Age=0/.test(c))).toBe(true);
    expect(browser.cookies.has("sb_webhooks")).toBe(false);
    const list = (await response.json()) as ListBody;
    expect(list.webhooks.map((w) => [w.id, w.label, w.maskedUrl])).toEqual([
      ["wh_oldAAAAAAAAAAA", "Alerts", "hooks.slack.com/…uv11"],
      ["wh_oldBBBBBBBBBBB", "Deploys", "hooks.slack.com/…uv22"],
    ]);
    expect((await (await getStore()).webhooks.list(null)).map((h) => h.url)).toEqual([hookUrl(1), hookUrl(2)]);
    // A browser with no cookie (a new laptop) sees them too, and can forget one.
    const other = new TestBrowser(testConsole.origin);
    expect((await other.send(deleteRoute, "/api/webhooks/wh_oldAAAAAAAAAAA", { method: "DELETE", params: { id: "wh_oldAAAAAAAAAAA" } })).status).toBe(200);
    expect(((await (await other.send(listRoute, "/api/webhooks")).json()) as ListBody).webhooks.map((w) => w.id)).toEqual(["wh_oldBBBBBBBBBBB"]);
  });

  it("keep one webhook when two browsers bring the same URL", async () => {
    const first = await browserWith(await releasePastedWebhooksCookie([{ id: "wh_oldCCCCCCCCCCC", url: hookUrl(3), label: "Ops", addedAt: 1 }], password()));
    const second = await browserWith(
      await releasePastedWebhooksCookie(
        [
          { id: "wh_oldCCCCCCCCCCC", url: hookUrl(3), label: "Ops", addedAt: 1 },
          { id: "wh_oldDDDDDDDDDDD", url: hookUrl(4), label: "Sales", addedAt: 2 },
        ],
        password(),
      ),
    );
    await first.send(listRoute, "/api/webhooks");
    const list = (await (await second.send(listRoute, "/api/webhooks")).json()) as ListBody;
    expect(list.webhooks.map((w) => w.id)).toEqual(["wh_oldCCCCCCCCCCC", "wh_oldDDDDDDDDDDD"]);
  });

  it("a cookie that does not unseal is cleared and imports nothing", async () => {
    const [name, value] = await releasePastedWebhooksCookie([{ id: "wh_oldEEEEEEEEEEE", url: hookUrl(5), label: "x", addedAt: 1 }], "p".repeat(40));
    const browser = await browserWith([name, value]);
    const response = await browser.send(listRoute, "/api/webhooks");
    expect(response.status).toBe(200);
    expect(((await response.json()) as ListBody).webhooks).toEqual([]);
    expect(browser.cookies.has("sb_webhooks")).toBe(false);
  });
});

describe("the send history sealed in a cookie by the previous release", () => {
  it("is imported in its order, once however many browsers bring it, and the cookie is cleared", async () => {
    const entries = [send("old-send-2", 2_000, "second"), send("old-send-1", 1_000, "first")];
    const cookie = await releaseSendHistoryCookie(entries, password());
    const browser = await browserWith(cookie);
    const response = await browser.send(listRoute, "/api/webhooks");
    expect(browser.cookies.has("sb_webhook_history")).toBe(false);
    expect(((await response.json()) as ListBody).history.slice(0, 2).map((h) => h.preview)).toEqual(["second", "first"]);
    // The same cookie from another tab adds nothing.
    const again = (await (await (await browserWith(cookie)).send(listRoute, "/api/webhooks")).json()) as ListBody;
    expect(again.history.filter((h) => h.id.startsWith("old-send-")).map((h) => h.id)).toEqual(["old-send-2", "old-send-1"]);
  });
});
