import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as callPost } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { POST as sendWebhook } from "@/app/api/webhooks/send/route";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

/**
 * A JSON body nested thousands of levels deep parses, but writing it out again (to forward it upstream, to
 * log it) overflows the stack: the console's routes refuse it up front with a 400 that says why, instead of
 * a 500 internal_error.
 */

let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
});
afterAll(() => testConsole.close());

const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

describe("the console's routes and a JSON body nested too deep", () => {
  it("POST /api/call answers 400 json_too_deep, sends nothing upstream, and a reasonable body still goes", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect((await installIn(browser)).status).toBe(303);
    const id = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] }).installations[0]!.id;
    const path = `/api/call/chat.postMessage?installation=${id}&token=bot`;
    const send = (body: string) =>
      browser.send(callPost, path, { method: "POST", params: { method: "chat.postMessage" }, headers: { "content-type": "application/json" }, body });

    const refused = await send(`{"channel":"general","text":"deep","blocks":${deep(5_000)}}`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ ok: false, error: "json_too_deep", message: expect.stringContaining("64 levels") });

    // Deeper than the platform takes, but not too deep to forward: the platform (here the emulator) judges it.
    const forwarded = await send(`{"channel":"general","text":"deep","blocks":${deep(40)}}`);
    expect(forwarded.status).toBe(200);
    expect(await forwarded.json()).toMatchObject({ ok: false, error: "invalid_blocks" });
  });

  it("a route that parses its JSON body with a schema answers 400 json_too_deep too", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const answer = await browser.send(sendWebhook, "/api/webhooks/send", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"webhookId":${deep(5_000)}}`,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ ok: false, error: "json_too_deep" });
  });
});
