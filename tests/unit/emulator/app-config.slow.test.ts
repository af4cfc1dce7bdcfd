/**
 * App configuration through the platform's own App Manifest API, as a settings page (the console's, or any
 * client's) relies on it: app configuration tokens issued per workspace member and rotated with
 * tooling.tokens.rotate, and apps.manifest.export / validate / update / create / delete with the platform's
 * arguments, answers and errors. The last test drives them with the official @slack/web-api WebClient.
 */
import { LogLevel, WebClient, type AppsManifestUpdateArguments, type WebAPIPlatformError } from "@slack/web-api";
import { describe, expect, it } from "vitest";
import { startEmulatorServer } from "@/lib/emulator";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import { createHarness, ORIGIN, type Harness, type Json } from "./support/emulator-harness";
import { answeringChallenges } from "./support/request-url";

const TWELVE_HOURS_S = 43_200;

async function configTokens(h: Harness, body: Json = {}): Promise<Json> {
  const { status, body: answer } = await h.admin("config-tokens", body);
  expect(status).toBe(200);
  return answer;
}

/** A Web API call with a JSON body, as the platform accepts for the manifest methods. */
async function callJson(h: Harness, method: string, token: string, body: Json): Promise<Json> {
  const response = await h.emulator.fetch(
    new Request(`${h.base}/api/${method}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify(body),
    }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

async function exported(h: Harness, token: string, appId: string): Promise<Json> {
  const { body } = await h.call("apps.manifest.export", { app_id: appId }, { token });
  expect(body.ok).toBe(true);
  return body.manifest as Json;
}

describe("app configuration tokens", () => {
  it("are issued by POST /admin/config-tokens for the first workspace's primary owner: an xoxe.xoxp-1- token for 12 hours and an xoxe-1- refresh token", async () => {
    const h = createHarness();
    const issued = await configTokens(h);
    const now = Math.floor(h.clock.now() / 1000);
    const ws = h.emulator.state.workspace;
    expect(issued).toEqual({
      ok: true,
      token: expect.stringMatching(/^xoxe\.xoxp-1-[A-Za-z0-9]+$/),
      refresh_token: expect.stringMatching(/^xoxe-1-[A-Za-z0-9]+$/),
      team_id: ws.team.id,
      user_id: expect.stringMatching(/^U/),
      iat: now,
      exp: now + TWELVE_HOURS_S,
    });

    // The admin state lists them masked, never their values.
    const { body: state } = await h.admin("state");
    expect(JSON.stringify(state)).not.toContain(issued.token);
    expect(JSON.stringify(state)).not.toContain(issued.refresh_token);
    expect(state.config_tokens).toEqual([
      expect.objectContaining({
        kind: "access",
        masked: `xoxe.xoxp-…${issued.token.slice(-4)}`,
        state: "active",
        team_id: ws.team.id,
        user_id: issued.user_id,
      }),
      expect.objectContaining({ kind: "refresh", masked: `xoxe-…${issued.refresh_token.slice(-4)}`, state: "active" }),
    ]);
  });

  it("can be issued to another member of another workspace, but not to someone who is not a member", async () => {
    const h = createHarness({ workspaces: 2 });
    const second = [...h.emulator.state.workspaces.values()][1]!;
    const member = memberIdAt(h.emulator.state.workspace, 3);
    expect(await configTokens(h, { team_id: second.team.id })).toMatchObject({ ok: true, team_id: second.team.id });
    expect(await configTokens(h, { user_id: member })).toMatchObject({ ok: true, user_id: member });

    expect(await h.admin("config-tokens", { team_id: "T0NOPE" })).toEqual({ status: 404, body: { ok: false, error: "team_not_found" } });
    expect(await h.admin("config-tokens", { user_id: "U0NOPE" })).toEqual({ status: 404, body: { ok: false, error: "user_not_found" } });
    expect((await h.admin("config-tokens", { app_id: "A0" })).body).toMatchObject({ ok: false, error: "invalid_arguments" });
  });

  it("are shown only to the emulator's own origin: another site's page cannot have one issued", async () => {
    const h = createHarness();
    const response = await h.emulator.fetch(
      new Request(`${h.base}/admin/config-tokens`, {
        method: "POST",
        headers: { origin: "https://evil.example", "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(response.status).toBe(403);
    expect(h.emulator.state.configTokens.size).toBe(0);
  });

  it("are explained on the index page, with the command that issues one from the emulator's own origin", async () => {
    const h = createHarness();
    const page = await (await h.emulator.fetch(new Request(`${h.base}/`))).text();
    expect(page).toContain("App configuration tokens");
    expect(page).toContain(
      `curl -X POST -H &#39;Origin: ${ORIGIN}&#39; -H &#39;Content-Type: application/json&#39; -d &#39;{}&#39; ${h.base}/admin/config-tokens`,
    );
  });

  it("are refused by the methods of an installation: not_allowed_token_type, token_expired after 12 hours; a refresh token is invalid_auth", async () => {
    const h = createHarness();
    const { token, refresh_token } = await configTokens(h);
    expect((await h.call("auth.test", {}, { token })).body).toEqual({ ok: false, error: "not_allowed_token_type" });
    expect((await h.call("users.list", {}, { token })).body).toMatchObject({ ok: false, error: "not_allowed_token_type" });
    expect((await h.call("auth.test", {}, { token: refresh_token })).body).toEqual({ ok: false, error: "invalid_auth" });

    h.clock.advance(TWELVE_HOURS_S * 1000);
    expect((await h.call("auth.test", {}, { token })).body).toEqual({ ok: false, error: "token_expired" });
  });

  it("are the only credential the manifest methods take: bot and user tokens are not_allowed_token_type", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    const { token, refresh_token } = await configTokens(h);
    const exportWith = async (t?: string) => (await h.call("apps.manifest.export", { app_id: rotation.app_id }, { token: t })).body;

    expect((await exportWith(token)).ok).toBe(true);
    expect(await exportWith(installed.access_token)).toEqual({ ok: false, error: "not_allowed_token_type" });
    expect(await exportWith(installed.authed_user.access_token)).toEqual({ ok: false, error: "not_allowed_token_type" });
    expect(await exportWith(undefined)).toEqual({ ok: false, error: "not_authed" });
    expect(await exportWith("xoxe.xoxp-1-unknown")).toEqual({ ok: false, error: "invalid_auth" });
    expect(await exportWith(refresh_token)).toEqual({ ok: false, error: "invalid_auth" });

    h.clock.advance(TWELVE_HOURS_S * 1000);
    expect(await exportWith(token)).toEqual({ ok: false, error: "token_expired" });
    // A dead bot token answers its own error first.
    expect(await exportWith(installed.access_token)).toEqual({ ok: false, error: "token_expired" });
  });
});

describe("tooling.tokens.rotate", () => {
  it("exchanges the refresh token for a new pair; the old access token still works until its own 12 hours are over", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const first = await configTokens(h);
    h.clock.advance(11 * 3600 * 1000);

    const { body: rotated } = await h.call("tooling.tokens.rotate", { refresh_token: first.refresh_token });
    const now = Math.floor(h.clock.now() / 1000);
    expect(rotated).toEqual({
      ok: true,
      token: expect.stringMatching(/^xoxe\.xoxp-1-/),
      refresh_token: expect.stringMatching(/^xoxe-1-/),
      team_id: first.team_id,
      user_id: first.user_id,
      iat: now,
      exp: now + TWELVE_HOURS_S,
    });
    expect(rotated.token).not.toBe(first.token);
    expect(rotated.refresh_token).not.toBe(first.refresh_token);

    expect((await h.call("apps.manifest.export", { app_id: rotation.app_id }, { token: first.token })).body.ok).toBe(true);
    h.clock.advance(3600 * 1000);
    expect((await h.call("apps.manifest.export", { app_id: rotation.app_id }, { token: first.token })).body).toEqual({ ok: false, error: "token_expired" });
    expect((await h.call("apps.manifest.export", { app_id: rotation.app_id }, { token: rotated.token })).body.ok).toBe(true);
  });

  it("takes each refresh token once: a retry within the grace period gets the same pair, later ones invalid_refresh_token", async () => {
    const h = createHarness({ refreshGraceSeconds: 60 });
    const { refresh_token } = await configTokens(h);
    const { body: first } = await h.call("tooling.tokens.rotate", { refresh_token });
    const { body: replayed } = await h.call("tooling.tokens.rotate", { refresh_token });
    expect(replayed).toEqual(first);

    h.clock.advance(61_000);
    expect((await h.call("tooling.tokens.rotate", { refresh_token })).body).toEqual({ ok: false, error: "invalid_refresh_token" });
    // The chain goes on from the new refresh token, even after the first access token expired.
    h.clock.advance(TWELVE_HOURS_S * 1000);
    expect((await h.call("tooling.tokens.rotate", { refresh_token: first.refresh_token })).body.ok).toBe(true);
  });

  it("is not replayed once the chain moved on, and refuses anything but a configuration refresh token", async () => {
    const h = createHarness();
    const issued = await configTokens(h);
    const { body: next } = await h.call("tooling.tokens.rotate", { refresh_token: issued.refresh_token });
    expect((await h.call("tooling.tokens.rotate", { refresh_token: next.refresh_token })).body.ok).toBe(true);
    expect((await h.call("tooling.tokens.rotate", { refresh_token: issued.refresh_token })).body).toEqual({ ok: false, error: "invalid_refresh_token" });

    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    for (const refresh_token of ["", issued.token, installed.refresh_token, "xoxe-1-unknown"]) {
      expect((await h.call("tooling.tokens.rotate", { refresh_token })).body).toEqual({ ok: false, error: "invalid_refresh_token" });
    }
  });
});

describe("apps.manifest.export", () => {
  it("answers the app's manifest as the platform exports it: _metadata, the settings written out, token rotation as it is", async () => {
    const h = createHarness();
    const { rotation, legacy } = await h.apps();
    const { token } = await configTokens(h);
    const manifest = await exported(h, token, rotation.app_id);
    expect(manifest).toMatchObject({
      _metadata: { major_version: 1, minor_version: 1 },
      display_information: { name: "Switchboard Rotation" },
      features: { bot_user: { display_name: "switchboard" } },
      oauth_config: {
        redirect_urls: ["http://localhost:3000/oauth/callback"],
        scopes: { bot: expect.arrayContaining(["chat:write"]), user: expect.arrayContaining(["users:read"]) },
      },
      settings: {
        token_rotation_enabled: true,
        org_deploy_enabled: false,
        socket_mode_enabled: false,
        is_hosted: false,
        event_subscriptions: { bot_events: ["app_mention"] },
      },
    });
    expect((await exported(h, token, legacy.app_id)).settings.token_rotation_enabled).toBe(false);
  });

  it("tells a malformed app id (invalid_app_id) from an unknown one (app_not_found)", async () => {
    const h = createHarness();
    const { token } = await configTokens(h);
    expect((await h.call("apps.manifest.export", {}, { token })).body).toEqual({ ok: false, error: "invalid_app_id" });
    expect((await h.call("apps.manifest.export", { app_id: "not an app" }, { token })).body).toEqual({ ok: false, error: "invalid_app_id" });
    expect((await h.call("apps.manifest.export", { app_id: "A0NOSUCHAPP" }, { token })).body).toEqual({ ok: false, error: "app_not_found" });
  });
});

describe("apps.manifest.validate", () => {
  it("answers ok for a valid manifest, and invalid_manifest with every problem and where it is (HTTP 200) for an invalid one", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const { token } = await configTokens(h);
    const manifest = await exported(h, token, rotation.app_id);
    expect((await h.call("apps.manifest.validate", { manifest: JSON.stringify(manifest) }, { token })).body).toEqual({ ok: true, errors: [] });

    const broken = {
      ...manifest,
      display_information: { name: "x".repeat(36) },
      oauth_config: { ...manifest.oauth_config, scopes: { bot: ["Chat Write"] } },
      settings: { ...manifest.settings, event_subscriptions: { request_url: "not a url" } },
    };
    const { status, body } = await h.call("apps.manifest.validate", { manifest: JSON.stringify(broken) }, { token });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: false, error: "invalid_manifest" });
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { message: expect.stringContaining("35"), pointer: "/display_information/name" },
        { message: expect.any(String), pointer: "/oauth_config/scopes/bot/0" },
        { message: expect.any(String), pointer: "/settings/event_subscriptions/request_url" },
      ]),
    );
    expect(body.errors).toHaveLength(3);
  });

  it("with app_id checks the manifest as that app's next one: token rotation cannot be turned off", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const { token } = await configTokens(h);
    const manifest = await exported(h, token, rotation.app_id);
    const withoutRotation = JSON.stringify({ ...manifest, settings: { ...manifest.settings, token_rotation_enabled: false } });

    expect((await h.call("apps.manifest.validate", { manifest: withoutRotation, app_id: rotation.app_id }, { token })).body).toEqual({
      ok: false,
      error: "invalid_manifest",
      errors: [{ message: expect.any(String), pointer: "/settings/token_rotation_enabled" }],
    });
    // On its own (no app_id) the same manifest is valid: it could still make a new app.
    expect((await h.call("apps.manifest.validate", { manifest: withoutRotation }, { token })).body).toEqual({ ok: true, errors: [] });
    expect((await h.call("apps.manifest.validate", { manifest: withoutRotation, app_id: "A0NOSUCHAPP" }, { token })).body).toEqual({
      ok: false,
      error: "invalid_app_id",
    });
  });

  it("answers invalid_arguments without a manifest and invalid_manifest for one that is not JSON", async () => {
    const h = createHarness();
    const { token } = await configTokens(h);
    expect((await h.call("apps.manifest.validate", {}, { token })).body).toMatchObject({ ok: false, error: "invalid_arguments" });
    expect((await h.call("apps.manifest.validate", { manifest: "{display_information:" }, { token })).body).toEqual({
      ok: false,
      error: "invalid_manifest",
      errors: [{ message: expect.any(String), pointer: "/" }],
    });
    expect((await h.call("apps.manifest.validate", { manifest: "[]" }, { token })).body).toMatchObject({
      ok: false,
      error: "invalid_manifest",
      errors: [{ pointer: "/" }],
    });
  });
});

describe("apps.manifest.update", () => {
  it("replaces the app's configuration; permissions_updated says whether the scopes changed, and the app keeps its credentials", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const { token } = await configTokens(h);
    const manifest = await exported(h, token, rotation.app_id);

    const renamed: Json = { ...manifest, display_information: { ...manifest.display_information, description: "Now described." } };
    expect((await h.call("apps.manifest.update", { app_id: rotation.app_id, manifest: JSON.stringify(renamed) }, { token })).body).toEqual({
      ok: true,
      app_id: rotation.app_id,
      permissions_updated: false,
    });

    const moreScopes = {
      ...renamed,
      oauth_config: { ...renamed.oauth_config, scopes: { ...renamed.oauth_config.scopes, bot: [...renamed.oauth_config.scopes.bot, "reactions:write"] } },
    };
    expect((await h.call("apps.manifest.update", { app_id: rotation.app_id, manifest: JSON.stringify(moreScopes) }, { token })).body).toEqual({
      ok: true,
      app_id: rotation.app_id,
      permissions_updated: true,
    });

    const { rotation: after } = await h.apps();
    expect(after).toMatchObject({ client_id: rotation.client_id, client_secret: rotation.client_secret, signing_secret: rotation.signing_secret });
    expect((after as unknown as Json).scopes.bot).toContain("reactions:write");
    expect((await exported(h, token, rotation.app_id)).display_information.description).toBe("Now described.");
    // The new scope can be granted: the consent page accepts it now.
    await h.install(after, { scope: ["reactions:write"] });
  });

  it("keeps the keys it does not act on as given, and export gives them back", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    const { token } = await configTokens(h);
    const manifest = await exported(h, token, legacy.app_id);
    const withExtras = {
      ...manifest,
      features: { ...manifest.features, slash_commands: [{ command: "/switch", description: "Switch", should_escape: false }] },
      settings: { ...manifest.settings, interactivity: { is_enabled: true, request_url: "https://example.com/interactive" } },
    };
    expect((await h.call("apps.manifest.update", { app_id: legacy.app_id, manifest: JSON.stringify(withExtras) }, { token })).body.ok).toBe(true);
    expect(await exported(h, token, legacy.app_id)).toEqual(withExtras);
  });

  it("turns token rotation on for good: turning it off again is invalid_manifest and changes nothing", async () => {
    const h = createHarness();
    const { legacy } = await h.apps();
    const { token } = await configTokens(h);
    const manifest = await exported(h, token, legacy.app_id);
    const rotating = { ...manifest, settings: { ...manifest.settings, token_rotation_enabled: true } };
    expect((await h.call("apps.manifest.update", { app_id: legacy.app_id, manifest: JSON.stringify(rotating) }, { token })).body).toMatchObject({
      ok: true,
      permissions_updated: false,
    });
    expect((await h.apps()).legacy.token_rotation_enabled).toBe(true);

    const { body } = await h.call("apps.manifest.update", { app_id: legacy.app_id, manifest: JSON.stringify(manifest) }, { token });
    expect(body).toEqual({ ok: false, error: "invalid_manifest", errors: [{ message: expect.any(String), pointer: "/settings/token_rotation_enabled" }] });
    expect((await exported(h, token, legacy.app_id)).settings.token_rotation_enabled).toBe(true);
  });

  it("sends a changed event request URL a url_verification challenge, and an unchanged one none", async () => {
    const verifications: string[] = [];
    const h = createHarness({ deliverEvent: answeringChallenges(async () => new Response("ok"), verifications) });
    const { rotation } = await h.apps();
    const { token } = await configTokens(h);
    const manifest = await exported(h, token, rotation.app_id);
    const url = "https://app.example/slack/events";
    const subscribed: Json = { ...manifest, settings: { ...manifest.settings, event_subscriptions: { request_url: url, bot_events: ["app_mention"] } } };

    expect((await h.call("apps.manifest.update", { app_id: rotation.app_id, manifest: JSON.stringify(subscribed) }, { token })).body.ok).toBe(true);
    await h.emulator.state.apps.get(rotation.app_id)?.requestUrlVerification?.done;
    expect(verifications).toEqual([url]);
    const app = (await h.admin("apps")).body.apps.find((a: Json) => a.app_id === rotation.app_id);
    expect(app.event_subscriptions).toMatchObject({ request_url: url, request_url_verification: { url, state: "verified" } });

    const described = { ...subscribed, display_information: { ...subscribed.display_information, description: "Same URL." } };
    expect((await h.call("apps.manifest.update", { app_id: rotation.app_id, manifest: JSON.stringify(described) }, { token })).body.ok).toBe(true);
    expect(verifications).toEqual([url]);
  });

  it("takes its arguments as JSON too, the manifest as an object", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const { token } = await configTokens(h);
    const manifest = await exported(h, token, rotation.app_id);
    const body = await callJson(h, "apps.manifest.update", token, {
      app_id: rotation.app_id,
      manifest: { ...manifest, display_information: { name: "Switchboard Rotation", description: "JSON" } },
    });
    expect(body).toEqual({ ok: true, app_id: rotation.app_id, permissions_updated: false });
    expect((await exported(h, token, rotation.app_id)).display_information.description).toBe("JSON");
  });

  it("answers invalid_app_id for an app that does not exist, and is rate limited at tier 1 for its developer", async () => {
    const h = createHarness({ rateLimits: true });
    const { rotation } = await h.apps();
    const { token } = await configTokens(h);
    const manifest = JSON.stringify(await exported(h, token, rotation.app_id));
    expect((await h.call("apps.manifest.update", { app_id: "A0NOSUCHAPP", manifest }, { token })).body).toEqual({ ok: false, error: "invalid_app_id" });

    const limited = await h.call("apps.manifest.update", { app_id: rotation.app_id, manifest }, { token });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ ok: false, error: "ratelimited" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("apps.manifest.create and apps.manifest.delete", () => {
  it("creates an app with its credentials and install link, then deletes it with its installations", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const { token } = await configTokens(h);
    const manifest = { ...(await exported(h, token, rotation.app_id)), display_information: { name: "Created From Manifest" } };

    const { body: created } = await h.call("apps.manifest.create", { manifest: JSON.stringify(manifest) }, { token });
    expect(created).toEqual({
      ok: true,
      app_id: expect.stringMatching(/^A/),
      credentials: {
        client_id: expect.any(String),
        client_secret: expect.any(String),
        verification_token: expect.any(String),
        signing_secret: expect.any(String),
      },
      oauth_authorize_url: expect.stringContaining(`${h.base}/oauth/v2/authorize?client_id=${created.credentials.client_id}`),
    });
    const app = (await h.apps()).all.find((a) => a.app_id === created.app_id)!;
    expect(app).toMatchObject({ name: "Created From Manifest", client_id: created.credentials.client_id, token_rotation_enabled: true });
    expect((await h.call("apps.manifest.create", { manifest: JSON.stringify(manifest) }, { token })).body).toMatchObject({
      ok: false,
      error: "invalid_manifest",
      errors: [{ pointer: "/display_information/name" }],
    });

    const installed = await h.install(app);
    expect((await h.call("apps.manifest.delete", { app_id: created.app_id }, { token })).body).toEqual({ ok: true });
    expect((await h.authTest(installed.access_token)).error).toBe("token_revoked");
    expect((await h.call("apps.manifest.export", { app_id: created.app_id }, { token })).body).toEqual({ ok: false, error: "app_not_found" });
    expect((await h.call("apps.manifest.delete", { app_id: created.app_id }, { token })).body).toEqual({ ok: false, error: "app_not_found" });
  });

  it("are listed by GET /admin/methods with their rate tiers and the configuration token they need", async () => {
    const h = createHarness();
    const methods = (await h.admin("methods")).body.methods as Json[];
    const byName = new Map(methods.map((m) => [m.name, m]));
    expect(byName.get("apps.manifest.export")).toMatchObject({ tier: 3, auth: "config", json: true });
    expect(byName.get("apps.manifest.validate")).toMatchObject({ tier: 3, auth: "config" });
    expect(byName.get("apps.manifest.update")).toMatchObject({ tier: 1, auth: "config" });
    expect(byName.get("apps.manifest.create")).toMatchObject({ tier: 1, auth: "config" });
    expect(byName.get("apps.manifest.delete")).toMatchObject({ tier: 1, auth: "config" });
    expect(byName.get("tooling.tokens.rotate")).toMatchObject({ tier: "special", auth: "none", json: false });
  });
});

describe("@slack/web-api WebClient against the emulator over HTTP", () => {
  it("exports, validates and updates a manifest with a configuration token, and rotates the token", async () => {
    const server = await startEmulatorServer({ port: 0, users: 20, seed: "app-config", refreshGraceSeconds: 0 });
    try {
      const slackApiUrl = `http://127.0.0.1:${server.port}/api/`;
      const issued = (await (
        await fetch(`${server.url}/admin/config-tokens`, {
          method: "POST",
          headers: { origin: new URL(server.url).origin, "content-type": "application/json" },
          body: "{}",
        })
      ).json()) as Json;
      const apps = ((await (await fetch(`${server.url}/admin/apps`)).json()) as Json).apps as Json[];
      const legacy = apps.find((a) => a.name === "Switchboard Legacy")!;
      const options = { slackApiUrl, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 } };

      const client = new WebClient(issued.token, options);
      const { manifest } = await client.apps.manifest.export({ app_id: legacy.app_id });
      expect(manifest?.display_information?.name).toBe("Switchboard Legacy");
      // What export answers is what update takes; the SDK types the two apart.
      const next = { ...manifest, settings: { ...manifest?.settings, token_rotation_enabled: true } } as AppsManifestUpdateArguments["manifest"];
      expect((await client.apps.manifest.validate({ app_id: legacy.app_id, manifest: next })).ok).toBe(true);
      expect(await client.apps.manifest.update({ app_id: legacy.app_id, manifest: next })).toMatchObject({
        ok: true,
        app_id: legacy.app_id,
        permissions_updated: false,
      });

      const anonymous = new WebClient(undefined, options);
      const rotated = await anonymous.tooling.tokens.rotate({ refresh_token: issued.refresh_token });
      expect(rotated).toMatchObject({
        ok: true,
        token: expect.stringMatching(/^xoxe\.xoxp-1-/),
        refresh_token: expect.stringMatching(/^xoxe-1-/),
        team_id: issued.team_id,
        user_id: issued.user_id,
      });
      expect(rotated.exp! - rotated.iat!).toBe(TWELVE_HOURS_S);
      const renewed = new WebClient(rotated.token, options);
      expect((await renewed.apps.manifest.export({ app_id: legacy.app_id })).manifest?.settings?.token_rotation_enabled).toBe(true);

      const reused = await anonymous.tooling.tokens.rotate({ refresh_token: issued.refresh_token }).catch((e: WebAPIPlatformError) => e);
      expect(reused).toMatchObject({ code: "slack_webapi_platform_error", data: { ok: false, error: "invalid_refresh_token" } });
      const refused = await new WebClient(issued.token, options).auth.test().catch((e: WebAPIPlatformError) => e);
      expect(refused).toMatchObject({ data: { ok: false, error: "not_allowed_token_type" } });
    } finally {
      await server.close();
    }
  });
});
