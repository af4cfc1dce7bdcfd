import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as sendRoute } from "@/app/api/webhooks/send/route";
import { GET as installRoute } from "@/app/oauth/install/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { RequestCookieJar, runWithCookieJar } from "@/lib/http/cookie-jar";
import { getSessionInstallations } from "@/lib/installations/list-installations";
import { MAX_INSTALLATIONS } from "@/lib/installations/store";
import { MAX_TIMELINE_ENTRIES, type TimelineEntry } from "@/lib/installations/timeline";
import { saveInstallation } from "@/lib/installations/store";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { openTestStore } from "../support/store";

let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
  await openTestStore();
});
afterAll(() => testConsole.close());

/** Node's HTTP server refuses a request whose headers pass 16 KB (431), the page that could forget an installation included. */
const NODE_MAX_HEADER_BYTES = 16 * 1024;
const JAPANESE_LABEL = "本番環境デプロイ通知チャンネル（東京リージョン）".repeat(3).slice(0, 60);

/** A timeline as full as it gets: its most and its longest entries, no two masked tokens alike. */
function fullTimeline(): TimelineEntry[] {
  const tail = () => randomBytes(3).toString("base64url").slice(0, 4).replace(/[-_]/g, "x");
  const now = Date.now();
  return Array.from({ length: MAX_TIMELINE_ENTRIES }, (_, i): TimelineEntry => ({
    at: now - i * 61_337,
    type: "refreshed",
    token: i % 2 ? "bot" : "user",
    from: `xoxe.xox${i % 2 ? "b" : "p"}-…${tail()}`,
    to: `xoxe.xox${i % 2 ? "b" : "p"}-…${tail()}`,
    reason: "proactive",
    by: `GET /api/call/conversations.history${"x".repeat(40)}`,
  }));
}

describe("a session holding all it may hold", () => {
  it("keeps the whole Cookie header clear of Node's 16 KB header limit", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect((await installIn(browser)).status).toBe(303);
    expect((await installIn(browser, "?app=legacy")).status).toBe(303);
    // Two more installations of other workspaces, tokens as long as real ones, and every timeline full.
    const jar = new RequestCookieJar(browser.request("/"));
    await runWithCookieJar(jar, async () => {
      const held = await getSessionInstallations();
      const real = held[0]!;
      for (let i = 2; i < MAX_INSTALLATIONS; i++)
        await saveInstallation({ ...real, id: `TFULL${i}-${real.appId}`, team: { id: `TFULL${i}`, name: JAPANESE_LABEL } });
      for (const installation of await getSessionInstallations()) await saveInstallation({ ...installation, timeline: fullTimeline() });
      expect(held).toHaveLength(2);
    });
    browser.absorb(jar.applyTo(new Response(null)));
    // Pasted webhooks and the send history live in the store now (lib/webhooks): none of them is a cookie.
    // A full send history of long Japanese messages, and installs started in several tabs.
    const installation = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] }).installations[0]!.id;
    for (let i = 0; i < 8; i++) {
      const sent = await browser.send(sendRoute, "/api/webhooks/send", {
        method: "POST",
        json: { webhookId: `inst-${installation}`, text: `${JAPANESE_LABEL}${i}`.repeat(3) },
      });
      expect(sent.status).toBe(200);
    }
    for (let i = 0; i < 6; i++) await browser.send(installRoute, "/oauth/install");

    const header = browser.cookieHeader();
    const sizes = Object.fromEntries([...browser.cookies].map(([name, value]) => [name, name.length + value.length]));
    // Room is left for the request line and every other header a browser sends (about 1 KB).
    expect(Buffer.byteLength(`Cookie: ${header}`), JSON.stringify(sizes)).toBeLessThan(NODE_MAX_HEADER_BYTES - 1500);
    const answer = await browser.send(sessionRoute, "/api/session");
    expect(answer.status).toBe(200);
    // Each installation kept the newest part of its timeline that fits its share.
    const views = ((await answer.json()) as { installations: { timeline: unknown[] }[] }).installations;
    expect(views).toHaveLength(MAX_INSTALLATIONS);
    for (const view of views) expect(view.timeline.length).toBeGreaterThan(0);
  });
});
