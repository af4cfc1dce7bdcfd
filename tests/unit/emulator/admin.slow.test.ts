import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { defaultAppCredentials, startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import { memberCount } from "@/lib/emulator/workspace/members";
import { createHarness, ORIGIN, REDIRECT_URI, type Json } from "./support/emulator-harness";

describe("GET /admin/apps", () => {
  it("lists each app's client_id, client_secret, signing_secret, redirect URLs and rotation", async () => {
    const h = createHarness({ seed: "admin-test" });
    const { all } = await h.apps();
    expect(all.map((a) => [a.name, a.token_rotation_enabled])).toEqual([
      ["Switchboard Rotation", true],
      ["Switchboard Legacy", false],
    ]);
    const expected = defaultAppCredentials("admin-test", "rotation");
    expect(all[0]).toMatchObject({
      app_id: expected.appId,
      client_id: expected.clientId,
      client_secret: expected.clientSecret,
      signing_secret: expected.signingSecret,
      redirect_urls: [REDIRECT_URI],
    });
  });
});

describe("POST /admin/apps", () => {
  const manifest = {
    display_information: { name: "My Test App" },
    oauth_config: { redirect_urls: ["http://127.0.0.1:3206/cb"], scopes: { bot: ["chat:write"], user: [] } },
    settings: { token_rotation_enabled: false },
  };

  it("adds an app from a manifest, which can then be installed", async () => {
    const h = createHarness();
    const { status, body } = await h.admin("apps", manifest);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, created: true, app: { name: "My Test App", token_rotation_enabled: false } });
    const installed = await h.install(body.app, { scope: ["chat:write"], userScope: [], redirectUri: "http://127.0.0.1:3206/cb" });
    expect(installed.access_token).toMatch(/^xoxb-/);
  });

  it("updates the app with the same name, keeping its credentials", async () => {
    const h = createHarness();
    const created = (await h.admin("apps", manifest)).body.app;
    const updated = await h.admin("apps", { ...manifest, settings: { token_rotation_enabled: true } });
    expect(updated.body).toMatchObject({ created: false, app: { app_id: created.app_id, client_secret: created.client_secret, token_rotation_enabled: true } });
  });

  it("refuses a manifest that is not one, and an unknown app_id", async () => {
    const h = createHarness();
    expect((await h.admin("apps", { display_information: {} })).body).toMatchObject({ ok: false, error: "invalid_manifest" });
    expect((await h.admin("apps", { app_id: "A0NOPE", manifest })).status).toBe(404);
  });
});

describe("POST /admin/clock", () => {
  it("moves the emulator's time forward: tokens expire without waiting 12 hours", async () => {
    const h = createHarness();
    const a = await h.install((await h.apps()).rotation);
    const { body } = await h.admin("clock", { advance_s: 43_200 });
    expect(body.offset_s).toBe(43_200);
    expect((await h.authTest(a.access_token)).error).toBe("token_expired");
  });

  it("refuses an advance past ten years with a clear 400, and moves nothing: the clock, the state and OAuth keep working", async () => {
    const h = createHarness();
    for (const advance_s of [1e20, 10 * 365 * 24 * 3600 + 1]) {
      const refused = await h.admin("clock", { advance_s });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ ok: false, error: "invalid_arguments", detail: expect.stringContaining("advance_s") });
    }
    expect((await h.admin("clock", { advance_s: 9 * 365 * 24 * 3600 })).status).toBe(200);
    // Each call stays in range, but not their sum.
    const past = await h.admin("clock", { advance_s: 2 * 365 * 24 * 3600 });
    expect(past.status).toBe(400);
    expect(past.body.detail).toMatch(/at most \d+ s ahead in all/);

    const clock = await h.emulator.fetch(new Request(`${h.base}/admin/clock`));
    expect(clock.status).toBe(200);
    expect(await clock.json()).toMatchObject({ offset_s: 9 * 365 * 24 * 3600 });
    expect((await h.emulator.fetch(new Request(`${h.base}/admin/state`))).status).toBe(200);
    const installed = await h.install((await h.apps()).rotation);
    expect((await h.authTest(installed.access_token)).ok).toBe(true);
  });

  it("refuses a negative or missing advance", async () => {
    const h = createHarness();
    expect((await h.admin("clock", { advance_s: -5 })).status).toBe(400);
    expect((await h.admin("clock", {})).body.error).toBe("invalid_arguments");
  });
});

describe("GET /admin/state", () => {
  it("shows every token with its kind, masked value, state and times, never a full token", async () => {
    const h = createHarness({ refreshGraceSeconds: 60 });
    const { rotation, legacy } = await h.apps();
    const a = await h.install(rotation);
    const b = await h.install(legacy);
    await h.refresh(rotation, a.refresh_token);
    await h.call("auth.revoke", {}, { token: a.authed_user.access_token });
    h.clock.advance(61_000);

    const response = await h.emulator.fetch(new Request(`${h.base}/admin/state`));
    const text = await response.text();
    for (const secret of [a.access_token, a.refresh_token, a.authed_user.access_token, b.access_token, b.authed_user.access_token]) {
      expect(text).not.toContain(secret);
    }
    const state = JSON.parse(text) as Json;
    const byMask = (t: string) => state.tokens.find((x: Json) => x.masked === `${/^(xoxe\.xox[bp]-|xox[bp]-|xoxe-)/.exec(t)?.[0]}…${t.slice(-4)}`);
    expect(byMask(a.access_token)).toMatchObject({
      kind: "bot",
      state: "active",
      rotating: true,
      issued_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(byMask(a.refresh_token)).toMatchObject({ kind: "refresh", state: "revoked", used_at: expect.any(String) });
    expect(byMask(a.authed_user.access_token)).toMatchObject({ kind: "user", state: "revoked", revoked_at: expect.any(String) });
    expect(byMask(b.access_token)).toMatchObject({ kind: "bot", state: "active", rotating: false, expires_at: null });

    h.clock.advance(43_200_000);
    const later = (await h.admin("state")).body;
    expect(later.tokens.filter((t: Json) => t.kind === "bot" && t.rotating).map((t: Json) => t.state)).toEqual(["expired", "expired"]);
  });

  it("shows per installation the refresh grants served, and the messages each channel received", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const a = await h.install(rotation, { scope: ["chat:write", "chat:write.public", "incoming-webhook"] });
    await h.refresh(rotation, a.refresh_token);
    const posted = await h.call("chat.postMessage", { channel: a.incoming_webhook.channel_id, text: "from the API" }, { token: a.access_token });
    expect(posted.body.ok).toBe(true);
    const hook = await h.emulator.fetch(
      new Request(a.incoming_webhook.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: "from a webhook" }),
      }),
    );
    expect(await hook.text()).toBe("ok");

    const state = (await h.admin("state")).body;
    expect(state.installations[0]).toMatchObject({ app_id: rotation.app_id, refresh_grants: 1, uninstalled: false });
    expect(JSON.stringify(state)).not.toContain(a.incoming_webhook.url);
    const channel = state.channels.find((c: Json) => c.id === a.incoming_webhook.channel_id);
    expect(channel.messages.map((m: Json) => m.text)).toEqual(["from the API", "from a webhook"]);
  });
});

describe("POST /admin/faults", () => {
  it("answers HTTP 500 at error_rate 1, and stops when set back to 0", async () => {
    const h = createHarness();
    await h.admin("faults", { error_rate: 1 });
    const failing = await h.emulator.fetch(new Request(`${h.base}/api/auth.test`, { method: "POST" }));
    expect(failing.status).toBe(500);
    // The admin surface itself is never faulted.
    expect((await h.admin("state")).status).toBe(200);
    await h.admin("faults", { error_rate: 0 });
    expect((await h.emulator.fetch(new Request(`${h.base}/api/auth.test`, { method: "POST" }))).status).toBe(200);
  });

  it("drops the connection at drop_rate 1: the response body fails", async () => {
    const h = createHarness();
    await h.admin("faults", { drop_rate: 1 });
    const dropped = await h.emulator.fetch(new Request(`${h.base}/api/auth.test`, { method: "POST" }));
    await expect(dropped.text()).rejects.toThrow(/connection dropped/);
  });

  it("adds latency", async () => {
    const h = createHarness();
    await h.admin("faults", { latency_ms: 120 });
    const started = performance.now();
    await h.emulator.fetch(new Request(`${h.base}/api/auth.test`, { method: "POST" }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it("targets only the methods listed, incoming webhooks included", async () => {
    const h = createHarness();
    const a = await h.install((await h.apps()).legacy, { scope: ["incoming-webhook", "users:read"] });
    await h.admin("faults", { error_rate: 1, methods: ["users.list", "incoming-webhook"] });
    expect((await h.call("users.list", {}, { token: a.access_token })).status).toBe(500);
    expect((await h.call("auth.test", {}, { token: a.access_token })).status).toBe(200);
    const hook = await h.emulator.fetch(new Request(a.incoming_webhook.url, { method: "POST", body: JSON.stringify({ text: "x" }) }));
    expect(hook.status).toBe(500);
  });

  it("answers an incoming webhook's injected 500 in plain text, rollup_error, as the platform's webhook errors", async () => {
    const h = createHarness();
    const a = await h.install((await h.apps()).legacy, { scope: ["incoming-webhook"] });
    await h.admin("faults", { error_rate: 1, methods: ["incoming-webhook"] });
    const hook = await h.emulator.fetch(new Request(a.incoming_webhook.url, { method: "POST", body: JSON.stringify({ text: "x" }) }));
    expect(hook.status).toBe(500);
    expect(hook.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await hook.text()).toBe("rollup_error");
  });

  it("refuses rates outside 0..1", async () => {
    const h = createHarness();
    expect((await h.admin("faults", { error_rate: 2 })).status).toBe(400);
  });
});

describe("POST /admin/reset", () => {
  it("forgets installations and tokens and puts time back", async () => {
    const h = createHarness();
    const a = await h.install((await h.apps()).rotation);
    await h.admin("clock", { advance_s: 100 });
    const { body } = await h.admin("reset", {});
    expect(body.ok).toBe(true);
    expect(h.emulator.state.installations.size).toBe(0);
    expect((await h.authTest(a.access_token)).error).toBe("invalid_auth");
    expect((await h.admin("clock")).body.offset_s).toBe(0);
  });

  it("rebuilds the workspace with another size and seed; the apps keep their credentials", async () => {
    const h = createHarness({ users: 40 });
    const before = await h.apps();
    const { body } = await h.admin("reset", { users: 20_000, seed: "bigger" });
    expect(body).toMatchObject({ ok: true, users: 20_000, seed: "bigger" });
    expect(memberCount(h.emulator.state.workspace)).toBe(20_000);
    expect((await h.apps()).rotation.client_secret).toBe(before.rotation.client_secret);
    const a = await h.install(before.rotation);
    const page = await h.call("users.list", { limit: "1000" }, { token: a.access_token });
    expect(page.body.members.length).toBeGreaterThan(0);
    expect(page.body.members.length).toBeLessThanOrEqual(1000);
    expect(page.body.response_metadata.next_cursor).not.toBe("");
  });
});

describe("GET / (the index page)", () => {
  it("lists the apps with their client ids, rotation, and an Install link to the authorize URL", async () => {
    const h = createHarness({ basePath: "/emulator" });
    const { rotation, legacy } = await h.apps();
    const response = await h.emulator.fetch(new Request(`${h.base}/`));
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    for (const app of [rotation, legacy]) {
      expect(html).toContain(app.name);
      expect(html).toContain(app.client_id);
      expect(html).not.toContain(app.client_secret);
    }
    expect(html).toContain("rotation on");
    expect(html).toContain("rotation off");
    expect(html).toContain(`href="${rotation.authorize_url.replace(/&/g, "&amp;")}"`);
    expect(html).toContain(`${h.base}/admin/state`);
    // GET /admin/apps answers every app's secrets: no page links to it.
    expect(html).not.toContain(`${h.base}/admin/apps`);
  });

  it("lists the interactivity routes beside the others: the records and views to read, the member's acts to POST", async () => {
    const h = createHarness({ basePath: "/emulator" });
    const html = await (await h.emulator.fetch(new Request(`${h.base}/`))).text();
    for (const path of ["views", "interactions", "records"]) expect(html).toContain(`<a href="${h.base}/admin/${path}">GET ${h.base}/admin/${path}</a>`);
    for (const act of ["command", "click", "shortcut", "submit", "close-view", "suggest"]) expect(html).toContain(`POST ${h.base}/admin/act/${act}`);
    // Each route listed answers as the page says: a GET reads, an act refuses a body it cannot use.
    for (const path of ["views", "interactions", "records"]) expect((await h.admin(path)).status).toBe(200);
    for (const act of ["command", "click", "shortcut", "submit", "close-view", "suggest"]) expect((await h.admin(`act/${act}`, {})).status).toBe(400);
  });

  it("carries its own icon inline, since the emulator serves no /favicon.ico", async () => {
    const h = createHarness({ basePath: "/emulator" });
    const html = await (await h.emulator.fetch(new Request(`${h.base}/`))).text();
    expect(html).toMatch(/<link rel="icon" href="data:image\/svg\+xml,[^"]+">/);
    expect((await h.emulator.fetch(new Request(`${h.base}/favicon.ico`))).status).toBe(404);
  });
});

describe("who may use the admin surface", () => {
  const JSON_TYPE = { "content-type": "application/json" };
  /** A POST as a browser or a script sends it: only the headers the test gives. */
  const post = (h: ReturnType<typeof createHarness>, path: string, headers: Record<string, string>, body: unknown = {}) =>
    h.emulator.fetch(new Request(`${h.base}/admin/${path}`, { method: "POST", headers, body: JSON.stringify(body) }));
  const get = (h: ReturnType<typeof createHarness>, path: string, headers: Record<string, string>) =>
    h.emulator.fetch(new Request(`${h.base}/admin/${path}`, { headers }));

  it("refuses a reset another site's page sends through the browser, and wipes nothing", async () => {
    const h = createHarness();
    await h.install((await h.apps()).rotation);
    // What a browser sends for a page on another site: its fetch() (with any content type) or a form post.
    for (const headers of [
      { ...JSON_TYPE, origin: "https://evil.example", "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors" },
      { "content-type": "text/plain", origin: "https://evil.example", "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors" },
      { "content-type": "application/x-www-form-urlencoded", origin: "null", "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
      { ...JSON_TYPE, origin: "https://evil.example" },
      { ...JSON_TYPE, "sec-fetch-site": "same-site" },
    ]) {
      const refused = await post(h, "reset", headers);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ ok: false, error: "forbidden_origin", message: expect.any(String) });
    }
    expect(h.emulator.state.installations.size).toBe(1);
  });

  it("changes state only for a request that names its own origin, or says it is same-origin", async () => {
    const h = createHarness();
    const missing = await post(h, "faults", JSON_TYPE, { error_rate: 1 });
    expect(missing.status).toBe(403);
    expect(await missing.json()).toMatchObject({ ok: false, error: "missing_origin" });
    expect(h.emulator.state.faults.errorRate).toBe(0);

    expect((await post(h, "faults", { ...JSON_TYPE, origin: ORIGIN }, { error_rate: 0.5 })).status).toBe(200);
    expect((await post(h, "faults", { ...JSON_TYPE, "sec-fetch-site": "same-origin" }, { error_rate: 0.25 })).status).toBe(200);
    expect(h.emulator.state.faults.errorRate).toBe(0.25);
  });

  it("takes state changes as JSON only: a text/plain body (which a page may send anywhere) answers 415", async () => {
    const h = createHarness();
    for (const type of ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const refused = await post(h, "rate-limits", { origin: ORIGIN, "content-type": type }, { enabled: true });
      expect(refused.status).toBe(415);
      expect(await refused.json()).toMatchObject({ ok: false, error: "unsupported_media_type" });
    }
    expect((await h.emulator.fetch(new Request(`${h.base}/admin/reset`, { method: "POST", headers: { origin: ORIGIN }, body: "{}" }))).status).toBe(415);
    expect(h.emulator.state.rateLimitsEnabled).toBe(false);
    expect((await post(h, "rate-limits", { origin: ORIGIN, "content-type": "application/json; charset=utf-8" }, { enabled: true })).status).toBe(200);
  });

  it("guards every admin route, the mention action included, however the path is spelled", async () => {
    const h = createHarness();
    const cross = { ...JSON_TYPE, origin: "https://evil.example" };
    for (const path of ["apps", "clock", "channels", "mention", "reset", "nothing-here"]) expect((await post(h, path, cross)).status).toBe(403);
    const doubled = await h.emulator.fetch(new Request(`${ORIGIN}//admin/reset`, { method: "POST", headers: cross, body: "{}" }));
    expect(doubled.status).toBe(403);
  });

  it("shows the apps' secrets to no other site, but to its own pages, a link opened in the browser and scripts", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const otherSites: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
      { "sec-fetch-site": "same-site", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" },
      { origin: "https://evil.example" },
    ];
    for (const headers of otherSites) {
      for (const path of ["apps", "state", "clock"]) {
        const refused = await get(h, path, headers);
        expect(refused.status).toBe(403);
        expect(await refused.text()).not.toContain(rotation.client_secret);
      }
    }
    const ownPagesLinksAndScripts: Record<string, string>[] = [
      { "sec-fetch-site": "same-origin", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
      { "sec-fetch-site": "none", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document", "sec-fetch-user": "?1" },
      { origin: ORIGIN },
      {},
    ];
    for (const headers of ownPagesLinksAndScripts) {
      const shown = await get(h, "apps", headers);
      expect(shown.status).toBe(200);
      expect(await shown.text()).toContain(rotation.client_secret);
    }
  });

  it("takes its public origin as its own when the request arrived under another host name", async () => {
    const h = createHarness({ publicBaseUrl: "http://127.0.0.1:3000" });
    expect((await post(h, "clock", { ...JSON_TYPE, origin: "http://127.0.0.1:3000" }, { advance_s: 1 })).status).toBe(200);
    expect((await post(h, "clock", { ...JSON_TYPE, origin: ORIGIN }, { advance_s: 1 })).status).toBe(200);
    expect((await post(h, "clock", { ...JSON_TYPE, origin: "http://127.0.0.1:3001" }, { advance_s: 1 })).status).toBe(403);
  });

  it("refuses a DNS rebinding page: Host evil.example with Sec-Fetch-Site same-origin reads no secret", async () => {
    const h = createHarness({ admin: { allowedHosts: ["localhost:3000", "127.0.0.1:3000"] } });
    const { rotation } = await h.apps();
    const rebound = { host: "evil.example:3201", "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" };
    for (const path of ["apps", "state", "clock"]) {
      const refused = await get(h, path, rebound);
      expect(refused.status).toBe(403);
      const text = await refused.text();
      expect(JSON.parse(text)).toMatchObject({ ok: false, error: "forbidden_host" });
      expect(text).not.toContain(rotation.client_secret);
    }
    // Its POST names its own origin, the origin the request arrived at: refused too.
    const reset = await post(h, "reset", { ...JSON_TYPE, host: "evil.example:3201", origin: "http://evil.example:3201" });
    expect(reset.status).toBe(403);
    // Another server of this machine (localhost:8080) is another site, though its host name is allowed.
    expect((await post(h, "clock", { ...JSON_TYPE, host: "localhost:3000", origin: "http://localhost:8080" }, { advance_s: 1 })).status).toBe(403);
    expect((await post(h, "clock", { ...JSON_TYPE, host: "localhost:3000", origin: "http://localhost:3000" }, { advance_s: 1 })).status).toBe(200);
    expect((await get(h, "apps", { host: "127.0.0.1:3000", "sec-fetch-site": "same-origin" })).status).toBe(200);
  });

  it("lets a script in with the admin token instead of an Origin, and refuses a wrong token", async () => {
    const token = `admin-${"t".repeat(40)}`;
    const h = createHarness({ admin: { token, allowedHosts: ["localhost:3000"] } });
    const changed = await post(h, "faults", { ...JSON_TYPE, authorization: `Bearer ${token}` }, { error_rate: 0.5 });
    expect(changed.status).toBe(200);
    expect(h.emulator.state.faults.errorRate).toBe(0.5);
    // The token is a credential of its own: whatever Host a script uses to reach the server.
    expect((await get(h, "apps", { host: "emulator.internal:4000", authorization: `Bearer ${token}` })).status).toBe(200);
    for (const authorization of [`Bearer ${token}x`, "Bearer ", "Basic abc"]) {
      const refused = await post(h, "faults", { ...JSON_TYPE, authorization, origin: ORIGIN }, { error_rate: 1 });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ ok: false, error: "invalid_admin_token" });
    }
    expect(h.emulator.state.faults.errorRate).toBe(0.5);
    // Without the token, the loopback rules hold as before: its own Origin in, none out.
    expect((await post(h, "faults", { ...JSON_TYPE, origin: ORIGIN }, { error_rate: 0.25 })).status).toBe(200);
    expect((await post(h, "faults", JSON_TYPE, { error_rate: 0 })).status).toBe(403);
  });

  it("answers only the token when exposed, to its own pages too", async () => {
    const token = `admin-${"e".repeat(40)}`;
    const h = createHarness({ admin: { token, requireToken: true } });
    const secret = [...h.emulator.state.apps.values()][0]!.clientSecret;
    const browsers: Record<string, string>[] = [{ origin: ORIGIN }, { "sec-fetch-site": "same-origin" }, {}];
    for (const headers of browsers) {
      const refused = await get(h, "apps", headers);
      expect(refused.status).toBe(401);
      const text = await refused.text();
      expect(JSON.parse(text)).toMatchObject({ ok: false, error: "admin_token_required" });
      expect(text).not.toContain(secret);
      expect((await post(h, "reset", { ...JSON_TYPE, ...headers })).status).toBe(401);
    }
    expect((await post(h, "reset", { ...JSON_TYPE, authorization: `Bearer ${token}` })).status).toBe(200);
    expect(await (await get(h, "apps", { authorization: `Bearer ${token}` })).text()).toContain(secret);
    // The index page's command names the variable, never the token.
    const html = await (await h.emulator.fetch(new Request(`${h.base}/`))).text();
    expect(html).toContain("Authorization: Bearer");
    expect(html).toContain("$EMULATOR_ADMIN_TOKEN");
    expect(html).not.toContain(token);
  });

  it("refuses to be made with a required token nobody has", () => {
    expect(() => createHarness({ admin: { requireToken: true } })).toThrow(/requires a token/);
  });

  describe("over HTTP (the standalone emulator)", () => {
    let server: EmulatorServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    it("refuses a DNS rebinding page's read of the apps' secrets: another Host, Sec-Fetch-Site same-origin", async () => {
      server = await startEmulatorServer({ users: 5 });
      const { port } = server;
      const read = (host: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = httpRequest({ host: "127.0.0.1", port, path: "/admin/apps", headers: { host, "sec-fetch-site": "same-origin" }, agent: false }, (res) => {
            let body = "";
            res.on("data", (chunk: Buffer) => (body += chunk.toString()));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on("error", reject);
          req.end();
        });
      const rebound = await read(`evil.example:${port}`);
      expect(rebound.status).toBe(403);
      expect(rebound.body).toContain("forbidden_host");
      expect(rebound.body).not.toContain("client_secret");
      expect((await read(`127.0.0.1:${port}`)).status).toBe(200);
      expect((await read(`localhost:${port}`)).status).toBe(200);
    });

    it("refuses another origin's reset and takes one whose Origin names the emulator", async () => {
      server = await startEmulatorServer({ users: 5 });
      const reset = (origin: string) =>
        fetch(`${server!.url}/admin/reset`, { method: "POST", headers: { origin, "content-type": "application/json" }, body: "{}" });
      const refused = await reset("https://evil.example");
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ ok: false, error: "forbidden_origin" });
      expect((await reset(new URL(server.url).origin)).status).toBe(200);
    });
  });
});
