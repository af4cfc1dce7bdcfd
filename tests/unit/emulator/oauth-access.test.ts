import { describe, expect, it } from "vitest";
import { createHarness } from "./support/emulator-harness";

describe("oauth.v2.access with a code", () => {
  it("gives a rotation app expiring xoxe.xoxb-/xoxe.xoxp- tokens with expires_in 43200 and xoxe- refresh tokens (spec 2.1, 2.2)", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const body = await h.install(rotation, { scope: ["users:read", "chat:write"], userScope: ["users:read"] });
    const ws = h.emulator.state.workspace;
    expect(body).toMatchObject({
      ok: true,
      token_type: "bot",
      scope: "users:read,chat:write",
      expires_in: 43200,
      app_id: rotation.app_id,
      team: { id: ws.team.id, name: ws.team.name },
      enterprise: null,
      is_enterprise_install: false,
      authed_user: { token_type: "user", scope: "users:read", expires_in: 43200 },
    });
    expect(body.access_token).toMatch(/^xoxe\.xoxb-/);
    expect(body.refresh_token).toMatch(/^xoxe-/);
    expect(body.bot_user_id).toMatch(/^U/);
    expect(body.authed_user.id).toMatch(/^U/);
    expect(body.authed_user.access_token).toMatch(/^xoxe\.xoxp-/);
    expect(body.authed_user.refresh_token).toMatch(/^xoxe-/);
    expect(body).not.toHaveProperty("incoming_webhook");
  });

  it("gives an app without rotation long-lived xoxb-/xoxp- tokens, without expires_in or refresh_token", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    const body = await h.install(legacy);
    expect(body.access_token).toMatch(/^xoxb-/);
    expect(body.authed_user.access_token).toMatch(/^xoxp-/);
    expect(body).not.toHaveProperty("expires_in");
    expect(body).not.toHaveProperty("refresh_token");
    expect(body.authed_user).not.toHaveProperty("expires_in");
    expect(body.authed_user).not.toHaveProperty("refresh_token");
    expect((await h.authTest(body.access_token)).expires_in).toBeUndefined();
  });

  it("returns incoming_webhook {url, channel, channel_id, configuration_url} for the channel picked", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const channel = h.emulator.state.workspace.channels.find((c) => c.name === "random");
    const body = await h.install(rotation, { scope: ["incoming-webhook", "chat:write"], channelId: channel?.id });
    expect(body.incoming_webhook).toEqual({
      url: expect.stringMatching(new RegExp(`^${h.base}/services/T[0-9A-Z]+/B[0-9A-Z]+/[A-Za-z0-9_-]+$`)),
      channel: "#random",
      channel_id: channel?.id,
      configuration_url: expect.stringContaining(h.base),
    });
  });

  it("answers only a user token when only user scopes were requested", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const body = await h.install(rotation, { scope: [], userScope: ["users:read"] });
    expect(body).not.toHaveProperty("access_token");
    expect(body.authed_user.access_token).toMatch(/^xoxe\.xoxp-/);
  });

  it("accepts the app credentials over HTTP Basic", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const code = await h.authorizeCode(rotation);
    const { body } = await h.call("oauth.v2.access", { code }, { basic: { clientId: rotation.client_id, clientSecret: rotation.client_secret } });
    expect(body.ok).toBe(true);
    expect(body.access_token).toMatch(/^xoxe\.xoxb-/);
  });

  it("refuses a missing or unknown client_id (invalid_client_id) and a wrong secret (bad_client_secret)", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const code = await h.authorizeCode(rotation);
    expect((await h.call("oauth.v2.access", { code })).body).toEqual({ ok: false, error: "invalid_client_id" });
    expect((await h.call("oauth.v2.access", { code, client_id: "1.2", client_secret: "x" })).body.error).toBe("invalid_client_id");
    expect((await h.call("oauth.v2.access", { code, client_id: rotation.client_id, client_secret: "wrong" })).body.error).toBe("bad_client_secret");
    const basic = await h.call("oauth.v2.access", { code }, { basic: { clientId: rotation.client_id, clientSecret: "wrong" } });
    expect(basic.body.error).toBe("bad_client_secret");
    // A refused call does not burn the code.
    expect((await h.call("oauth.v2.access", { code, client_id: rotation.client_id, client_secret: rotation.client_secret })).body.ok).toBe(true);
  });

  it("refuses an unknown grant_type with invalid_grant_type", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const { status, body } = await h.call("oauth.v2.access", { grant_type: "password", client_id: rotation.client_id, client_secret: rotation.client_secret });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: false, error: "invalid_grant_type" });
  });

  it("reuses the installation and the bot user on reinstall, with the scopes of both installs", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    const first = await h.install(legacy, { scope: ["users:read"] });
    const second = await h.install(legacy, { scope: ["chat:write"] });
    expect(second.bot_user_id).toBe(first.bot_user_id);
    expect(second.scope).toBe("users:read,chat:write");
    // Without rotation the platform hands out the same bot token again.
    expect(second.access_token).toBe(first.access_token);
    expect(h.emulator.state.installations.size).toBe(1);
  });
});
