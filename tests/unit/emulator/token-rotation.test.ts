/**
 * Spec section 3, "States and transitions": one describe per row of the table, in the table's order.
 */
import { describe, expect, it } from "vitest";
import { settleEventDeliveries } from "@/lib/emulator";
import { createHarness, type AdminApp, type Harness, type Json } from "./support/emulator-harness";
import { answeringChallenges } from "./support/request-url";

const TWELVE_HOURS_MS = 43_200_000;

async function enableRotation(h: Harness, app: AdminApp): Promise<void> {
  const manifest = (await h.admin("apps")).body.apps.find((a: Json) => a.app_id === app.app_id).manifest;
  const { status, body } = await h.admin("apps", {
    app_id: app.app_id,
    manifest: { ...manifest, settings: { ...manifest.settings, token_rotation_enabled: true } },
  });
  expect(status).toBe(200);
  expect(body.app.token_rotation_enabled).toBe(true);
}

async function exchange(h: Harness, app: AdminApp, token: string) {
  return h.call("oauth.v2.exchange", { token, client_id: app.client_id, client_secret: app.client_secret });
}

function stateOf(h: Harness, token: string) {
  const record = h.emulator.state.tokens.get(token);
  if (!record) throw new Error("unknown token");
  return record;
}

describe("row 1: a long-lived token and oauth.v2.exchange, first exchange", () => {
  it("the original token expires; an expiring access token and a refresh token are issued", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    const installed = await h.install(legacy);
    await enableRotation(h, legacy);

    const { body } = await exchange(h, legacy, installed.access_token);
    expect(body).toMatchObject({ ok: true, token_type: "bot", expires_in: 43200, bot_user_id: installed.bot_user_id, app_id: legacy.app_id });
    expect(body.access_token).toMatch(/^xoxe\.xoxb-/);
    expect(body.refresh_token).toMatch(/^xoxe-/);
    expect(body.scope).toBe(installed.scope);

    expect(await h.authTest(installed.access_token)).toEqual({ ok: false, error: "token_expired" });
    expect(stateOf(h, installed.access_token).state).toBe("exchanged");
    expect((await h.authTest(body.access_token)).ok).toBe(true);
  });

  it("the same token cannot be exchanged a second time: token_already_exchanged", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    const installed = await h.install(legacy);
    await enableRotation(h, legacy);
    expect((await exchange(h, legacy, installed.access_token)).body.ok).toBe(true);
    expect((await exchange(h, legacy, installed.access_token)).body).toEqual({ ok: false, error: "token_already_exchanged" });
  });

  it("a user token is exchanged too: authed_user carries it (spec 2.2), and the top level for the official SDK", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    const installed = await h.install(legacy);
    await enableRotation(h, legacy);
    const { body } = await exchange(h, legacy, installed.authed_user.access_token);
    expect(body.authed_user).toMatchObject({ id: installed.authed_user.id, token_type: "user", expires_in: 43200, scope: "users:read" });
    expect(body.authed_user.access_token).toMatch(/^xoxe\.xoxp-/);
    expect(body.access_token).toBe(body.authed_user.access_token);
    expect(body.token_type).toBe("user");
    // The bot token was not exchanged and still works.
    expect((await h.authTest(installed.access_token)).ok).toBe(true);
  });

  it("an app without rotation gets token_rotation_not_enabled and its token keeps working", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    const installed = await h.install(legacy);
    expect((await exchange(h, legacy, installed.access_token)).body).toEqual({ ok: false, error: "token_rotation_not_enabled" });
    expect((await h.authTest(installed.access_token)).ok).toBe(true);
  });

  it("only long-lived tokens of the app can be exchanged: invalid_token otherwise", async () => {
    const h = createHarness();
    const { rotation, legacy } = await h.apps();
    const expiring = await h.install(rotation);
    expect((await exchange(h, rotation, expiring.access_token)).body.error).toBe("invalid_token");
    expect((await exchange(h, rotation, expiring.refresh_token)).body.error).toBe("invalid_token");
    expect((await exchange(h, rotation, "xoxb-unknown")).body.error).toBe("invalid_token");
    const other = await h.install(legacy);
    expect((await exchange(h, rotation, other.access_token)).body.error).toBe("invalid_token");
    expect((await h.call("oauth.v2.exchange", { client_id: rotation.client_id, client_secret: rotation.client_secret })).body.error).toBe("not_authed");
  });

  it("checks the app credentials: invalid_client_id, bad_client_secret", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    const installed = await h.install(legacy);
    await enableRotation(h, legacy);
    expect((await h.call("oauth.v2.exchange", { token: installed.access_token })).body.error).toBe("invalid_client_id");
    expect((await h.call("oauth.v2.exchange", { token: installed.access_token, client_id: legacy.client_id, client_secret: "x" })).body.error).toBe(
      "bad_client_secret",
    );
  });
});

describe("row 2: a long-lived token, auth.revoke used on the original token after exchange", () => {
  it("revokes the installation's authorization: every token stops working, auth.test confirms it", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    const installed = await h.install(legacy);
    await enableRotation(h, legacy);
    const exchanged = (await exchange(h, legacy, installed.access_token)).body;

    expect((await h.call("auth.revoke", {}, { token: installed.access_token })).body).toEqual({ ok: true, revoked: true });
    expect(await h.authTest(exchanged.access_token)).toEqual({ ok: false, error: "token_revoked" });
    expect(await h.authTest(installed.authed_user.access_token)).toEqual({ ok: false, error: "token_revoked" });
    expect((await h.refresh(legacy, exchanged.refresh_token)).error).toBe("invalid_refresh_token");
    expect((await h.authTest(installed.access_token)).ok).toBe(false);
    expect([...h.emulator.state.installations.values()][0]?.uninstalled).toBe(true);
  });
});

describe("row 3: an expiring access token when 12 hours pass", () => {
  it("works until expires_in runs out, then answers token_expired", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    h.clock.advance(TWELVE_HOURS_MS - 1000);
    expect(await h.authTest(installed.access_token)).toMatchObject({ ok: true, expires_in: 1 });
    h.clock.advance(1000);
    expect(await h.authTest(installed.access_token)).toEqual({ ok: false, error: "token_expired" });
    expect(await h.authTest(installed.authed_user.access_token)).toEqual({ ok: false, error: "token_expired" });
    expect((await h.call("users.list", {}, { token: installed.access_token })).body.error).toBe("token_expired");
  });

  it("the refresh token still renews it after it expired", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    h.clock.advance(TWELVE_HOURS_MS + 60_000);
    const renewed = await h.refresh(rotation, installed.refresh_token);
    expect(renewed.ok).toBe(true);
    expect((await h.authTest(renewed.access_token)).ok).toBe(true);
  });
});

describe("row 4: a refresh token and oauth.v2.access with grant_type=refresh_token", () => {
  it("issues a new access token and a new refresh token; the previous access token is not invalidated", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    const renewed = await h.refresh(rotation, installed.refresh_token);
    expect(renewed).toMatchObject({ ok: true, token_type: "bot", expires_in: 43200, bot_user_id: installed.bot_user_id, scope: installed.scope });
    expect(renewed.access_token).toMatch(/^xoxe\.xoxb-/);
    expect(renewed.refresh_token).toMatch(/^xoxe-/);
    expect(renewed.access_token).not.toBe(installed.access_token);
    expect(renewed.refresh_token).not.toBe(installed.refresh_token);
    expect((await h.authTest(installed.access_token)).ok).toBe(true);
    expect((await h.authTest(renewed.access_token)).ok).toBe(true);
  });

  it("says expires_in 43200 for a new token even when the clock moves while the request is served", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    // Every read of the clock moves it on by a millisecond, as a real clock does between issuing and answering.
    const read = h.clock.now.bind(h.clock);
    h.clock.now = () => {
      h.clock.advance(1);
      return read();
    };
    const installed = await h.install(rotation);
    expect(installed.expires_in).toBe(43200);
    expect((await h.refresh(rotation, installed.refresh_token)).expires_in).toBe(43200);
  });

  it("within the grace period a replay returns the same new pair; afterwards invalid_refresh_token", async () => {
    const h = createHarness({ refreshGraceSeconds: 60 });
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    const first = await h.refresh(rotation, installed.refresh_token);
    h.clock.advance(60_000);
    const replay = await h.refresh(rotation, installed.refresh_token);
    expect(replay.access_token).toBe(first.access_token);
    expect(replay.refresh_token).toBe(first.refresh_token);
    // The same pair: expires_in is what it has left, not a fresh 43200 (docs/emulator.md).
    expect(replay.expires_in).toBe(43_200 - 60);
    h.clock.advance(1);
    expect(await h.refresh(rotation, installed.refresh_token)).toEqual({ ok: false, error: "invalid_refresh_token" });
    // The new refresh token is unaffected.
    expect((await h.refresh(rotation, first.refresh_token)).ok).toBe(true);
  });

  it("a replay in the grace period answers invalid_refresh_token once the replacement pair is dead", async () => {
    const h = createHarness({ refreshGraceSeconds: 60 });
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    const first = await h.refresh(rotation, installed.refresh_token);
    expect((await h.call("auth.revoke", {}, { token: first.access_token })).body.revoked).toBe(true);
    expect(await h.refresh(rotation, installed.refresh_token)).toEqual({ ok: false, error: "invalid_refresh_token" });

    // Its refresh token used (the client moved on): the replay is refused as well.
    const again = createHarness({ refreshGraceSeconds: 60 });
    const apps = await again.apps();
    const start = await again.install(apps.rotation);
    const next = await again.refresh(apps.rotation, start.refresh_token);
    expect((await again.refresh(apps.rotation, next.refresh_token)).ok).toBe(true);
    expect(await again.refresh(apps.rotation, start.refresh_token)).toEqual({ ok: false, error: "invalid_refresh_token" });
  });

  it("two concurrent refreshes with the same refresh token both get the same new pair, counted once", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    const [a, b] = await Promise.all([h.refresh(rotation, installed.refresh_token), h.refresh(rotation, installed.refresh_token)]);
    expect(a?.ok).toBe(true);
    expect(b?.access_token).toBe(a?.access_token);
    expect(b?.refresh_token).toBe(a?.refresh_token);
    const [installation] = [...h.emulator.state.installations.values()];
    expect(installation?.refreshGrants).toBe(1);
    expect(installation?.refreshRequests).toBe(2);
  });

  it("the grace period is configurable", async () => {
    const h = createHarness({ refreshGraceSeconds: 5 });
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    await h.refresh(rotation, installed.refresh_token);
    h.clock.advance(5_001);
    expect((await h.refresh(rotation, installed.refresh_token)).error).toBe("invalid_refresh_token");
  });

  it("counts refresh grants per installation, replays excluded (admin state)", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    const first = await h.refresh(rotation, installed.refresh_token);
    await h.refresh(rotation, installed.refresh_token);
    await h.refresh(rotation, first.refresh_token);
    const state = (await h.admin("state")).body;
    expect(state.installations[0].refresh_grants).toBe(2);
    expect(state.installations[0].refresh_requests).toBe(3);
  });

  it("refreshes a user token with the user's refresh token", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    const renewed = await h.refresh(rotation, installed.authed_user.refresh_token);
    expect(renewed).toMatchObject({ ok: true, token_type: "user", expires_in: 43200 });
    expect(renewed.access_token).toMatch(/^xoxe\.xoxp-/);
    expect(renewed.authed_user).toMatchObject({ id: installed.authed_user.id, access_token: renewed.access_token, refresh_token: renewed.refresh_token });
    expect((await h.authTest(renewed.access_token)).user_id).toBe(installed.authed_user.id);
  });

  it("refuses what is not a live refresh token of this app: invalid_refresh_token", async () => {
    const h = createHarness();
    const { rotation, legacy } = await h.apps();
    const installed = await h.install(rotation);
    expect((await h.refresh(rotation, "xoxe-1-nope")).error).toBe("invalid_refresh_token");
    expect((await h.refresh(rotation, installed.access_token)).error).toBe("invalid_refresh_token");
    expect((await h.refresh(legacy, installed.refresh_token)).error).toBe("invalid_refresh_token");
    const missing = await h.call("oauth.v2.access", { grant_type: "refresh_token", client_id: rotation.client_id, client_secret: rotation.client_secret });
    expect(missing.body.error).toBe("invalid_refresh_token");
  });

  it("checks the app credentials on refresh too", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    const { body } = await h.call("oauth.v2.access", {
      grant_type: "refresh_token",
      refresh_token: installed.refresh_token,
      client_id: rotation.client_id,
      client_secret: "x",
    });
    expect(body.error).toBe("bad_client_secret");
    // The refused call did not use the refresh token up.
    expect((await h.refresh(rotation, installed.refresh_token)).ok).toBe(true);
  });
});

describe("row 5: active tokens when the same token is refreshed repeatedly within 12 hours", () => {
  it("keeps at most 2 active access tokens: the oldest extra one is revoked", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    const second = await h.refresh(rotation, installed.refresh_token);
    expect((await h.authTest(installed.access_token)).ok).toBe(true);
    const third = await h.refresh(rotation, second.refresh_token);
    expect(await h.authTest(installed.access_token)).toEqual({ ok: false, error: "token_revoked" });
    expect((await h.authTest(second.access_token)).ok).toBe(true);
    expect((await h.authTest(third.access_token)).ok).toBe(true);
    const fourth = await h.refresh(rotation, third.refresh_token);
    expect(await h.authTest(second.access_token)).toEqual({ ok: false, error: "token_revoked" });
    expect((await h.authTest(fourth.access_token)).ok).toBe(true);

    const active = [...h.emulator.state.tokens.values()].filter((t) => t.kind === "bot" && t.state === "active");
    expect(active).toHaveLength(2);
    // The user token is counted apart from the bot tokens.
    expect((await h.authTest(installed.authed_user.access_token)).ok).toBe(true);
  });
});

describe("row 5 with long-lived tokens: only rotating access tokens count toward the limit", () => {
  it("turning rotation on and reinstalling twice leaves the long-lived token exchangeable", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    const installed = await h.install(legacy);
    await enableRotation(h, legacy);
    await h.install(legacy);
    await h.install(legacy);
    expect((await h.authTest(installed.access_token)).ok).toBe(true);
    const { body } = await exchange(h, legacy, installed.access_token);
    expect(body.ok).toBe(true);
    expect(body.access_token).toMatch(/^xoxe\.xoxb-/);
  });
});

describe("row 6: any access token and auth.revoke, app with token rotation", () => {
  it("revokes that single expiring bot token; the installation and its other tokens stay", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    expect((await h.call("auth.revoke", {}, { token: installed.access_token })).body).toEqual({ ok: true, revoked: true });
    expect(await h.authTest(installed.access_token)).toEqual({ ok: false, error: "token_revoked" });
    expect((await h.authTest(installed.authed_user.access_token)).ok).toBe(true);
    // New tokens can still be generated: the refresh token still works.
    const renewed = await h.refresh(rotation, installed.refresh_token);
    expect((await h.authTest(renewed.access_token)).ok).toBe(true);
    expect([...h.emulator.state.installations.values()][0]?.uninstalled).toBe(false);
  });

  it("revokes that single expiring user token", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    await h.call("auth.revoke", {}, { token: installed.authed_user.access_token });
    expect((await h.authTest(installed.authed_user.access_token)).error).toBe("token_revoked");
    expect((await h.authTest(installed.access_token)).ok).toBe(true);
  });

  it("revokes a refresh token, which can then not be used", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    expect((await h.call("auth.revoke", { token: installed.refresh_token })).body.revoked).toBe(true);
    expect((await h.refresh(rotation, installed.refresh_token)).error).toBe("invalid_refresh_token");
    expect((await h.authTest(installed.access_token)).ok).toBe(true);
  });

  it("events are still delivered after it", async () => {
    const delivered: string[] = [];
    const h = createHarness({
      eventsRequestUrl: "http://127.0.0.1:3209/api/events",
      deliverEvent: answeringChallenges(async (_url, init) => {
        delivered.push(String(init.body));
        return new Response("", { status: 200 });
      }),
    });
    const { rotation } = await h.apps();
    const installed = await h.install(rotation, { scope: ["app_mentions:read", "chat:write"] });
    await h.call("auth.revoke", {}, { token: installed.access_token });
    const { status, body } = await h.admin("mention", { app_id: rotation.app_id, text: "still there?" });
    expect(status).toBe(200);
    expect(body.event_ids).toHaveLength(1);
    await settleEventDeliveries(h.emulator.state);
    expect(delivered).toHaveLength(1);
    expect(JSON.parse(delivered[0] ?? "{}").event.type).toBe("app_mention");
  });

  it("test=1 checks the token without revoking it", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    expect((await h.call("auth.revoke", { test: "1" }, { token: installed.access_token })).body).toEqual({ ok: true, revoked: false });
    expect((await h.authTest(installed.access_token)).ok).toBe(true);
  });
});

describe("row 7: any access token and auth.revoke, app without token rotation", () => {
  it("revokes the authorization: every token of the installation stops working; a reinstall is needed", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    const installed = await h.install(legacy, { scope: ["incoming-webhook", "chat:write"] });
    expect((await h.call("auth.revoke", {}, { token: installed.access_token })).body).toEqual({ ok: true, revoked: true });
    expect((await h.authTest(installed.access_token)).error).toBe("token_revoked");
    expect((await h.authTest(installed.authed_user.access_token)).error).toBe("token_revoked");
    const webhook = await h.emulator.fetch(new Request(installed.incoming_webhook.url, { method: "POST", body: JSON.stringify({ text: "hi" }) }));
    expect(webhook.status).toBe(404);

    const again = await h.install(legacy);
    expect(again.access_token).not.toBe(installed.access_token);
    expect((await h.authTest(again.access_token)).ok).toBe(true);
  });
});

describe("row 8: an installation and apps.uninstall", () => {
  for (const key of ["rotation", "legacy"] as const) {
    it(`revokes every token of the installation (${key} app), and its webhook stops working`, async () => {
      const h = createHarness();
      const app = (await h.apps())[key];
      const installed = await h.install(app, { scope: ["incoming-webhook", "chat:write"] });
      const { body } = await h.call("apps.uninstall", { client_id: app.client_id, client_secret: app.client_secret }, { token: installed.access_token });
      expect(body).toEqual({ ok: true });
      for (const token of [installed.access_token, installed.authed_user.access_token]) {
        expect((await h.authTest(token)).error).toBe("token_revoked");
      }
      if (installed.refresh_token) expect((await h.refresh(app, installed.refresh_token)).error).toBe("invalid_refresh_token");
      const webhook = await h.emulator.fetch(new Request(installed.incoming_webhook.url, { method: "POST", body: JSON.stringify({ text: "hi" }) }));
      expect(webhook.status).toBe(404);
      expect(await webhook.text()).toBe("no_service");
      const states = [...h.emulator.state.tokens.values()].map((t) => t.state);
      expect(new Set(states)).toEqual(new Set(["revoked"]));
    });
  }

  it("needs the app's own credentials: client_id_token_mismatch, bad_client_secret, invalid_client_id", async () => {
    const h = createHarness();
    const { rotation, legacy } = await h.apps();
    const installed = await h.install(rotation);
    const token = { token: installed.access_token };
    expect((await h.call("apps.uninstall", { client_id: legacy.client_id, client_secret: legacy.client_secret }, token)).body.error).toBe(
      "client_id_token_mismatch",
    );
    expect((await h.call("apps.uninstall", { client_id: rotation.client_id, client_secret: "x" }, token)).body.error).toBe("bad_client_secret");
    expect((await h.call("apps.uninstall", {}, token)).body.error).toBe("invalid_client_id");
    expect((await h.call("apps.uninstall", { client_id: rotation.client_id, client_secret: rotation.client_secret })).body.error).toBe("not_authed");
    expect((await h.authTest(installed.access_token)).ok).toBe(true);
  });
});

describe("row 9: an app with token rotation off, turning rotation on", () => {
  it("is always allowed; tokens issued afterwards expire", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    const before = await h.install(legacy);
    await enableRotation(h, legacy);
    // Existing long-lived tokens keep working until exchanged.
    expect((await h.authTest(before.access_token)).ok).toBe(true);
    const after = await h.install(legacy);
    expect(after.access_token).toMatch(/^xoxe\.xoxb-/);
    expect(after.expires_in).toBe(43200);
  });

  it("cannot be turned off again", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const manifest = (await h.admin("apps")).body.apps.find((a: Json) => a.app_id === rotation.app_id).manifest;
    const { status, body } = await h.admin("apps", {
      app_id: rotation.app_id,
      manifest: { ...manifest, settings: { ...manifest.settings, token_rotation_enabled: false } },
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ ok: false, error: "invalid_manifest", errors: [{ pointer: "/settings/token_rotation_enabled" }] });
    expect((await h.apps()).rotation.token_rotation_enabled).toBe(true);
  });
});
