/**
 * Incoming webhooks over the wire (emulator.fetch): every answer, errors included, is plain text as the
 * platform's, and each documented status can be reached by a client.
 */
import { describe, expect, it } from "vitest";
import { createHarness } from "./support/emulator-harness";

async function installHook() {
  const h = createHarness();
  // #general can be neither archived nor deleted: the webhook posts to another channel.
  const target = h.emulator.state.workspace.channels.find((c) => !c.isGeneral && !c.isArchived)!;
  const installed = await h.install((await h.apps()).legacy, { scope: ["incoming-webhook", "chat:write"], channelId: target.id });
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

describe("webhook URLs", () => {
  it("end in a 24-character alphanumeric secret, like the platform's", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    for (let i = 0; i < 20; i++) {
      const installed = await h.install(legacy, { scope: ["incoming-webhook"] });
      expect(installed.incoming_webhook.url).toMatch(/\/services\/T[0-9A-Z]+\/B[0-9A-Z]+\/[A-Za-z0-9]{24}$/);
    }
  });
});

describe("POST /admin/channels and the webhook's channel going away", () => {
  it("answers 410 channel_is_archived while the channel is archived, and posts again once unarchived", async () => {
    const { h, channelId, post } = await installHook();
    expect((await h.admin("channels", { id: channelId, archived: true })).body).toMatchObject({ ok: true, channel: { id: channelId, is_archived: true } });
    expect(await post()).toMatchObject({ status: 410, body: "channel_is_archived", type: expect.stringMatching(/^text\/plain/) });
    expect((await h.admin("channels", { id: channelId, archived: false })).body.channel.is_archived).toBe(false);
    expect(await post()).toMatchObject({ status: 200, body: "ok" });
  });

  it("answers 404 channel_not_found once the channel is deleted; the channel is gone from conversations.list", async () => {
    const { h, channelId, post } = await installHook();
    expect((await h.admin("channels", { id: channelId, deleted: true })).body).toMatchObject({ ok: true, channel: { id: channelId, deleted: true } });
    expect(await post()).toMatchObject({ status: 404, body: "channel_not_found", type: expect.stringMatching(/^text\/plain/) });
    const token = (await h.install((await h.apps()).rotation, { scope: ["channels:read"] })).access_token;
    const listed = await h.call("conversations.list", { limit: "1000" }, { token });
    expect(listed.body.channels.map((c: { id: string }) => c.id)).not.toContain(channelId);
  });

  it("refuses an unknown channel (404), #general (400) and a body that is neither", async () => {
    const { h } = await installHook();
    const general = h.emulator.state.workspace.channels.find((c) => c.isGeneral)!;
    expect(await h.admin("channels", { id: "C0NOSUCH", archived: true })).toEqual({ status: 404, body: { ok: false, error: "channel_not_found" } });
    expect((await h.admin("channels", { id: general.id, archived: true })).body.error).toBe("cant_archive_general");
    expect((await h.admin("channels", { id: general.id, deleted: true })).body.error).toBe("cant_delete_general");
    expect((await h.admin("channels", { id: general.id, deleted: false })).status).toBe(400);
    expect((await h.admin("channels", { id: general.id })).status).toBe(400);
  });
});
