import { describe, expect, it } from "vitest";
import { BASE, callApi, install, startEmulator } from "./support";

function channels(emulator: ReturnType<typeof startEmulator>["emulator"]) {
  const ws = emulator.state.workspace;
  return {
    general: ws.channels.find((c) => c.isGeneral)!,
    random: ws.channels.find((c) => c.name === "random")!,
    archived: ws.channels.find((c) => c.isArchived)!,
  };
}

describe("conversations.join", () => {
  it("joins the bot to a channel, and says so when it is already in", async () => {
    const { emulator } = startEmulator();
    const { botToken, installationId } = await install(emulator);
    const { random } = channels(emulator);
    const joined = await callApi(emulator, "conversations.join", { channel: random.id }, botToken);
    expect(joined).toMatchObject({ ok: true, channel: { id: random.id, name: "random", is_member: true } });
    expect(joined).not.toHaveProperty("warning");
    expect(emulator.state.installations.get(installationId)!.joinedChannels.has(random.id)).toBe(true);
    const again = await callApi(emulator, "conversations.join", { channel: random.id }, botToken);
    expect(again).toMatchObject({ ok: true, warning: "already_in_channel", response_metadata: { warnings: ["already_in_channel"] } });
  });

  it("answers channel_not_found and is_archived", async () => {
    const { emulator } = startEmulator();
    const { botToken } = await install(emulator);
    expect(await callApi(emulator, "conversations.join", { channel: "C0NOPE0000" }, botToken)).toEqual({ ok: false, error: "channel_not_found" });
    expect(await callApi(emulator, "conversations.join", {}, botToken)).toEqual({ ok: false, error: "channel_not_found" });
    expect(await callApi(emulator, "conversations.join", { channel: channels(emulator).archived.id }, botToken)).toEqual({
      ok: false,
      error: "is_archived",
    });
  });

  it("needs channels:join for a bot token", async () => {
    const { emulator } = startEmulator();
    const { botToken } = await install(emulator, { botScopes: ["chat:write"] });
    expect(await callApi(emulator, "conversations.join", { channel: channels(emulator).general.id }, botToken)).toMatchObject({
      ok: false,
      error: "missing_scope",
      needed: "channels:join",
      provided: "chat:write",
    });
  });
});

describe("chat.postMessage", () => {
  it("needs chat:write, and names the needed and provided scopes", async () => {
    const { emulator } = startEmulator();
    const { botToken } = await install(emulator, { botScopes: ["users:read", "channels:join"] });
    expect(await callApi(emulator, "chat.postMessage", { channel: channels(emulator).general.id, text: "hi" }, botToken)).toEqual({
      ok: false,
      error: "missing_scope",
      needed: "chat:write",
      provided: "users:read,channels:join",
    });
  });

  it("answers not_in_channel until the bot joins, when it lacks chat:write.public", async () => {
    const { emulator } = startEmulator();
    const { botToken } = await install(emulator, { botScopes: ["chat:write", "channels:join"] });
    const { random } = channels(emulator);
    expect(await callApi(emulator, "chat.postMessage", { channel: random.id, text: "hi" }, botToken)).toEqual({
      ok: false,
      error: "not_in_channel",
    });
    await callApi(emulator, "conversations.join", { channel: random.id }, botToken);
    expect(await callApi(emulator, "chat.postMessage", { channel: random.id, text: "hi" }, botToken)).toMatchObject({ ok: true });
  });

  it("posts in any public channel without joining when chat:write.public was granted", async () => {
    const { emulator } = startEmulator();
    const { botToken, botUserId, app } = await install(emulator, { botScopes: ["chat:write", "chat:write.public"] });
    const { random } = channels(emulator);
    const posted = await callApi(emulator, "chat.postMessage", { channel: random.id, text: "hello *world*" }, botToken);
    expect(posted).toMatchObject({
      ok: true,
      channel: random.id,
      message: { type: "message", text: "hello *world*", user: botUserId, app_id: app.id, bot_profile: { app_id: app.id, name: app.name } },
    });
    expect(posted.ts).toMatch(/^\d+\.\d{6}$/);
    expect((posted.message as { ts: string }).ts).toBe(posted.ts);
    expect(posted.message).not.toHaveProperty("via");
    const log = emulator.state.workspace.messages.get(random.id)!;
    expect(log.map((m) => [m.ts, m.text, m.via])).toEqual([[posted.ts, "hello *world*", "chat.postMessage"]]);
  });

  it("accepts a channel name, and shows the message in the admin state", async () => {
    const { emulator } = startEmulator();
    const { botToken } = await install(emulator);
    const posted = await callApi(emulator, "chat.postMessage", { channel: "#general", text: "by name" }, botToken);
    expect(posted).toMatchObject({ ok: true, channel: channels(emulator).general.id });
    const state = (await (await emulator.fetch(new Request(`${BASE}/admin/state`))).json()) as {
      channels: Array<{ name: string; messages: Array<{ text: string }> }>;
    };
    expect(state.channels.find((c) => c.name === "general")?.messages.map((m) => m.text)).toEqual(["by name"]);
  });

  it("answers channel_not_found, is_archived and no_text", async () => {
    const { emulator } = startEmulator();
    const { botToken } = await install(emulator);
    const { general, archived } = channels(emulator);
    expect(await callApi(emulator, "chat.postMessage", { channel: "C0NOPE0000", text: "x" }, botToken)).toEqual({ ok: false, error: "channel_not_found" });
    expect(await callApi(emulator, "chat.postMessage", { channel: archived.id, text: "x" }, botToken)).toEqual({ ok: false, error: "is_archived" });
    expect(await callApi(emulator, "chat.postMessage", { channel: general.id }, botToken)).toEqual({ ok: false, error: "no_text" });
    expect(await callApi(emulator, "chat.postMessage", { channel: general.id, text: "   " }, botToken)).toEqual({ ok: false, error: "no_text" });
    expect(await callApi(emulator, "chat.postMessage", { channel: general.id, blocks: "{not json" }, botToken)).toEqual({
      ok: false,
      error: "invalid_blocks",
    });
    const blocksOnly = await callApi(
      emulator,
      "chat.postMessage",
      { channel: general.id, blocks: JSON.stringify([{ type: "section", text: { type: "mrkdwn", text: "hi" } }]) },
      botToken,
    );
    expect(blocksOnly.ok).toBe(true);
  });

  it("posts as the installing user with a user token", async () => {
    const { emulator } = startEmulator();
    const { userToken, response } = await install(emulator, { userScopes: ["chat:write"] });
    const posted = await callApi(emulator, "chat.postMessage", { channel: channels(emulator).random.id, text: "from me" }, userToken);
    expect(posted).toMatchObject({ ok: true, message: { user: (response.authed_user as { id: string }).id, text: "from me" } });
    expect(posted.message).not.toHaveProperty("bot_id");
  });
});

describe("avatars", () => {
  it("serves every profile image URL as a cacheable SVG", async () => {
    const { emulator } = startEmulator();
    const { botToken } = await install(emulator);
    const page = await callApi(emulator, "users.list", { limit: 3 }, botToken);
    const profile = (page.members as Array<{ profile: Record<string, string> }>)[0]!.profile;
    const urls = Object.entries(profile).filter(([k]) => k.startsWith("image_"));
    expect(urls.length).toBeGreaterThanOrEqual(6);
    for (const [, url] of urls) {
      expect(url.startsWith(`${BASE}/avatars/`)).toBe(true);
      const response = await emulator.fetch(new Request(url));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/svg+xml");
      expect(response.headers.get("cache-control")).toContain("immutable");
      expect(await response.text()).toMatch(/^<svg /);
      const etag = response.headers.get("etag")!;
      expect((await emulator.fetch(new Request(url, { headers: { "if-none-match": etag } }))).status).toBe(304);
    }
    const first = urls[0]![1];
    expect((await emulator.fetch(new Request(first.replace(/-(\d+)\.svg$/, "-999.svg")))).status).toBe(404);
    expect((await emulator.fetch(new Request(first.replace(profile.avatar_hash!, "000000000000")))).status).toBe(404);
    expect((await emulator.fetch(new Request(`${BASE}/avatars/nothing`))).status).toBe(404);
  });
});
