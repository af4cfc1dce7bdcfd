import { describe, expect, it } from "vitest";
import { createEmulator, createFakeClock } from "@/lib/emulator";
import { createHarness, ORIGIN } from "./support/emulator-harness";

describe("token errors, as the platform gives them (HTTP 200, ok:false)", () => {
  it("no token → not_authed", async () => {
    const h = createHarness();
    const { status, body } = await h.call("auth.test");
    expect(status).toBe(200);
    expect(body).toEqual({ ok: false, error: "not_authed" });
  });

  it("an unknown token → invalid_auth", async () => {
    const h = createHarness();
    expect((await h.call("auth.test", {}, { token: "xoxb-1-2-nope" })).body).toEqual({ ok: false, error: "invalid_auth" });
  });

  it("a refresh token is not an access token → invalid_auth", async () => {
    const h = createHarness();
    const installed = await h.install((await h.apps()).rotation);
    expect((await h.authTest(installed.refresh_token)).error).toBe("invalid_auth");
  });

  it("an expired token → token_expired; a revoked token → token_revoked", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const a = await h.install(rotation);
    await h.call("auth.revoke", {}, { token: a.authed_user.access_token });
    expect((await h.authTest(a.authed_user.access_token)).error).toBe("token_revoked");
    h.clock.advance(43_200_000);
    expect((await h.authTest(a.access_token)).error).toBe("token_expired");
  });

  it("auth.revoke reports the same token errors", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const a = await h.install(rotation);
    expect((await h.call("auth.revoke")).body.error).toBe("not_authed");
    expect((await h.call("auth.revoke", {}, { token: "xoxe.xoxb-1-nope" })).body.error).toBe("invalid_auth");
    await h.call("auth.revoke", {}, { token: a.access_token });
    expect((await h.call("auth.revoke", {}, { token: a.access_token })).body.error).toBe("token_revoked");
    h.clock.advance(43_200_000);
    expect((await h.call("auth.revoke", {}, { token: a.authed_user.access_token })).body.error).toBe("token_expired");
  });
});

describe("auth.test", () => {
  it("answers url, team, user, team_id, user_id, bot_id and is_enterprise_install for a bot token, and expires_in while it expires", async () => {
    const h = createHarness();
    const a = await h.install((await h.apps()).rotation);
    h.clock.advance(3_600_000);
    const body = await h.authTest(a.access_token);
    const ws = h.emulator.state.workspace;
    expect(body).toEqual({
      ok: true,
      url: `https://${ws.team.domain}.slack.com/`,
      team: ws.team.name,
      user: "switchboardrotation",
      team_id: ws.team.id,
      user_id: a.bot_user_id,
      bot_id: expect.stringMatching(/^B/),
      is_enterprise_install: false,
      expires_in: 43200 - 3600,
    });
  });

  it("answers the installing user for a user token, without bot_id", async () => {
    const h = createHarness();
    const a = await h.install((await h.apps()).legacy);
    const body = await h.authTest(a.authed_user.access_token);
    expect(body.user_id).toBe(a.authed_user.id);
    expect(body).not.toHaveProperty("bot_id");
    expect(body).not.toHaveProperty("expires_in");
    expect(typeof body.user).toBe("string");
  });
});

describe("how a call is made (spec 5, issue item 9)", () => {
  it("takes the token from Authorization: Bearer, or from the token parameter", async () => {
    const h = createHarness();
    const a = await h.install((await h.apps()).legacy);
    expect((await h.call("auth.test", {}, { token: a.access_token })).body.ok).toBe(true);
    expect((await h.call("auth.test", {}, { token: a.access_token, tokenAsParam: true })).body.ok).toBe(true);
  });

  it("reads GET query strings and form-encoded POSTs alike", async () => {
    const h = createHarness();
    const a = await h.install((await h.apps()).legacy);
    for (const opts of [{ method: "GET" as const }, { method: "POST" as const }]) {
      const { body } = await h.call("users.list", { limit: "3" }, { token: a.access_token, ...opts });
      expect(body.ok).toBe(true);
      expect(body.members.length).toBeLessThanOrEqual(3);
    }
    const viaQueryToken = await h.call("auth.test", {}, { token: a.access_token, tokenAsParam: true, method: "GET" });
    expect(viaQueryToken.body.ok).toBe(true);
  });

  it("reads a JSON body only for methods that accept JSON, and never its token", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    const a = await h.install(legacy, { scope: ["users:read", "chat:write", "channels:join"] });
    const channel = h.emulator.state.workspace.channels[0]?.id ?? "";

    // Methods with JSON support read it, with the token in the Authorization header.
    expect((await h.call("auth.test", {}, { token: a.access_token, json: true })).body.ok).toBe(true);
    expect((await h.call("conversations.join", { channel }, { token: a.access_token, json: true })).body.ok).toBe(true);
    const posted = await h.call("chat.postMessage", { channel, text: "hello" }, { token: a.access_token, json: true });
    expect(posted.body).toMatchObject({ ok: true, channel });

    // A token inside a JSON body is not read.
    expect((await h.call("auth.test", {}, { token: a.access_token, tokenAsParam: true, json: true })).body).toEqual({ ok: false, error: "not_authed" });

    // Methods without JSON support answer as if the parameters were missing.
    const code = await h.authorizeCode(legacy);
    const access = await h.call("oauth.v2.access", { code, client_id: legacy.client_id, client_secret: legacy.client_secret }, { json: true });
    expect(access.body).toEqual({ ok: false, error: "invalid_client_id" });
    const listed = await h.call("users.list", { limit: "3" }, { token: a.access_token, json: true });
    expect(listed.body.ok).toBe(true);
    expect(listed.body.members.length).toBeGreaterThan(3);
  });

  it("answers invalid_json to a malformed JSON body", async () => {
    const h = createHarness();
    const response = await h.emulator.fetch(
      new Request(`${h.base}/api/auth.test`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" }),
    );
    expect(await response.json()).toEqual({ ok: false, error: "invalid_json" });
  });

  it("answers unknown_method with HTTP 200, like the platform", async () => {
    const h = createHarness();
    const { status, body } = await h.call("files.fetchEverything");
    expect(status).toBe(200);
    expect(body).toEqual({ ok: false, error: "unknown_method" });
  });

  it("reports scopes in x-oauth-scopes and x-accepted-oauth-scopes headers", async () => {
    const h = createHarness();
    const a = await h.install((await h.apps()).legacy, { scope: ["users:read", "chat:write"] });
    const { headers } = await h.call("users.list", {}, { token: a.access_token });
    expect(headers.get("x-oauth-scopes")).toBe("users:read,chat:write");
    expect(headers.get("x-accepted-oauth-scopes")).toBe("users:read");
  });
});

describe("rtm.connect", () => {
  it("is refused to a modern app's granular bot token: not_allowed_token_type (only classic apps may use it)", async () => {
    const h = createHarness();
    const a = await h.install((await h.apps()).legacy);
    expect((await h.call("rtm.connect", {}, { token: a.access_token })).body).toEqual({ ok: false, error: "not_allowed_token_type" });
  });
});

describe("missing_scope", () => {
  it("names the needed and the provided scopes", async () => {
    const h = createHarness();
    const a = await h.install((await h.apps()).legacy, { scope: ["chat:write"], userScope: ["chat:write"] });
    const { status, body } = await h.call("users.list", {}, { token: a.access_token });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: false, error: "missing_scope", needed: "users:read", provided: "chat:write" });
    const user = await h.call("users.list", {}, { token: a.authed_user.access_token });
    expect(user.body).toMatchObject({ error: "missing_scope", needed: "users:read", provided: "chat:write" });
  });
});

describe("rate limits (off by default)", () => {
  it("answer HTTP 429 with Retry-After and ratelimited once a tier is used up, per workspace and app", async () => {
    const h = createHarness({ rateLimits: true });
    const { rotation, legacy } = await h.apps();
    const a = await h.install(rotation);
    const b = await h.install(legacy);
    // users.list is tier 2: 20 calls a minute.
    for (let i = 0; i < 20; i++) expect((await h.call("users.list", { limit: "1" }, { token: a.access_token })).status).toBe(200);
    const limited = await h.call("users.list", { limit: "1" }, { token: a.access_token });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(limited.body).toEqual({ ok: false, error: "ratelimited" });
    // Another app in the same workspace has its own budget.
    expect((await h.call("users.list", { limit: "1" }, { token: b.access_token })).status).toBe(200);
    // Retry-After is honest: after it, the call goes through.
    h.clock.advance(30_000);
    expect(Number((await h.call("users.list", {}, { token: a.access_token })).headers.get("retry-after"))).toBe(30);
    h.clock.advance(30_000);
    expect((await h.call("users.list", { limit: "1" }, { token: a.access_token })).status).toBe(200);
  });

  it("count auth.revoke against the token's app, and count calls whose token is no longer valid", async () => {
    const h = createHarness({ rateLimits: true });
    const { rotation, legacy } = await h.apps();
    const a = await h.install(rotation);
    const b = await h.install(legacy);
    // auth.revoke is tier 3: 50 calls a minute. The first revokes a's expiring access token; the
    // following ones, with that revoked token, still count.
    expect((await h.call("auth.revoke", {}, { token: a.access_token })).body).toEqual({ ok: true, revoked: true });
    for (let i = 0; i < 49; i++) {
      expect((await h.call("auth.revoke", {}, { token: a.access_token })).body).toEqual({ ok: false, error: "token_revoked" });
    }
    expect((await h.call("auth.revoke", { test: "1" }, { token: a.authed_user.access_token })).status).toBe(429);
    // Another app's budget is its own.
    expect((await h.call("auth.revoke", { test: "1" }, { token: b.access_token })).body).toEqual({ ok: true, revoked: false });
    // A call naming no app is not limited: it fails on its credentials.
    expect((await h.call("auth.revoke", {}, {})).body).toEqual({ ok: false, error: "not_authed" });
  });

  it("are off unless turned on, and switch with POST /admin/rate-limits", async () => {
    const h = createHarness();
    const a = await h.install((await h.apps()).rotation);
    for (let i = 0; i < 25; i++) expect((await h.call("users.list", { limit: "1" }, { token: a.access_token })).status).toBe(200);
    expect((await h.admin("rate-limits", { enabled: true })).body).toEqual({ ok: true, rate_limits: { enabled: true, non_marketplace: false } });
    for (let i = 0; i < 20; i++) await h.call("users.list", { limit: "1" }, { token: a.access_token });
    expect((await h.call("users.list", { limit: "1" }, { token: a.access_token })).status).toBe(429);
    await h.admin("rate-limits", { enabled: false });
    expect((await h.call("users.list", { limit: "1" }, { token: a.access_token })).status).toBe(200);
  });

  it("apps.uninstall is tier 1: one call a minute", async () => {
    const h = createHarness({ rateLimits: true });
    const { rotation } = await h.apps();
    const a = await h.install(rotation);
    const credentials = { client_id: rotation.client_id, client_secret: rotation.client_secret };
    expect((await h.call("apps.uninstall", credentials, { token: a.access_token })).status).toBe(200);
    const b = await h.install(rotation);
    expect((await h.call("apps.uninstall", credentials, { token: b.access_token })).status).toBe(429);
  });
});

describe("base paths", () => {
  it('answers under "/emulator" when embedded, and nothing outside it', async () => {
    const h = createHarness({ basePath: "/emulator" });
    const a = await h.install((await h.apps()).rotation);
    expect(a.incoming_webhook).toBeUndefined();
    expect(await h.authTest(a.access_token)).toMatchObject({ ok: true, team_id: h.emulator.state.workspace.team.id });
    const outside = await h.emulator.fetch(new Request(`${ORIGIN}/api/auth.test`, { method: "POST" }));
    expect(outside.status).toBe(404);
    const index = await h.emulator.fetch(new Request(`${ORIGIN}/emulator`));
    expect(index.status).toBe(200);
  });

  it("builds absolute URLs from the request's origin and base path", async () => {
    const h = createHarness({ basePath: "/emulator" });
    const a = await h.install((await h.apps()).rotation, { scope: ["incoming-webhook"] });
    expect(a.incoming_webhook.url.startsWith(`${ORIGIN}/emulator/services/`)).toBe(true);
    const apps = (await h.admin("apps")).body.apps;
    expect(apps[0].authorize_url.startsWith(`${ORIGIN}/emulator/oauth/v2/authorize?`)).toBe(true);
  });

  it('answers at the root with basePath ""', async () => {
    const emulator = createEmulator({ users: 5, clock: createFakeClock() });
    const response = await emulator.fetch(new Request("http://127.0.0.1:3201/api/auth.test", { method: "POST" }));
    expect(await response.json()).toEqual({ ok: false, error: "not_authed" });
  });

  it("answers 404 to unknown paths and 405 to a wrong HTTP method", async () => {
    const h = createHarness();
    expect((await h.emulator.fetch(new Request(`${h.base}/nowhere`))).status).toBe(404);
    const wrong = await h.emulator.fetch(new Request(`${h.base}/admin/reset`));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
  });
});
