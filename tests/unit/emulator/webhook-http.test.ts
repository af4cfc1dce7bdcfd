/**
 * Incoming webhooks over the wire (emulator.fetch): every answer, errors included, is plain text as the
 * platform's, and each documented status can be reached by a client.
 */
import { describe, expect, it } from "vitest";
import { createHarness } from "./support/emulator-harness";

async function installHook() {
  const h = createHarness();
  const installed = await h.install((await h.apps()).legacy, { scope: ["incoming-webhook", "chat:write"] });
  const url = installed.incoming_webhook.url as string;
  const channelId = installed.incoming_webhook.channel_id as string;
  const post = async (text = "hello") => {
    const response = await h.emulator.fetch(
      new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text }) }),
    );
    return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
  };
  return { h, url, channelId, post };
}

describe("incoming webhooks over HTTP", () => {
  it("answers a GET with a plain-text 405 that allows POST", async () => {
    const { h, url } = await installHook();
    const response = await h.emulator.fetch(new Request(url));
    expect(response.status).toBe(405);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await response.text()).toBe("method_not_allowed");
  });
});
