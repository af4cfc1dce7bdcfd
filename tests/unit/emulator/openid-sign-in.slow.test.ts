/**
 * "Sign in with" (OpenID Connect) against the emulator: a client that knows only the issuer's base URL
 * reads the discovery document, sends the person to the authorize page, exchanges the code and verifies the
 * ID token with `jose` (the library the console verifies ID tokens with) against the keys the discovery
 * names, over HTTP; then every documented refusal.
 */
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeClock, startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import { createHarness, REDIRECT_URI, type AdminApp, type Harness, type Json } from "./support/emulator-harness";

let server: EmulatorServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function getJson(url: string, init: RequestInit = {}): Promise<Json> {
  const response = await fetch(url, init);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return (await response.json()) as Json;
}

/** The page's choice of who signs in, read from its HTML as a person reads the list. */
function offeredMembers(html: string): string[] {
  const select = /<select id="user_id" name="user_id" required>(.*?)<\/select>/s.exec(html)?.[1] ?? "";
  return [...select.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1] as string);
}

describe("signing in with the emulator as the OpenID Connect issuer, over HTTP", () => {
  it("discovery, the authorize page, the code exchange and userInfo; the ID token verifies with jose against the discovered keys", async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 1, 9, 0, 0));
    server = await startEmulatorServer({ port: 0, users: 30, clock, basePath: "/emulator" });
    const issuerBase = server.url;

    // Discovery: the emulator's own base URL is the issuer, and every endpoint sits under it.
    const discovery = await getJson(`${issuerBase}/.well-known/openid-configuration`);
    expect(discovery).toMatchObject({
      issuer: issuerBase,
      authorization_endpoint: `${issuerBase}/openid/connect/authorize`,
      token_endpoint: `${issuerBase}/api/openid.connect.token`,
      userinfo_endpoint: `${issuerBase}/api/openid.connect.userInfo`,
      jwks_uri: `${issuerBase}/openid/connect/keys`,
      scopes_supported: ["openid", "profile", "email"],
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code"],
      id_token_signing_alg_values_supported: ["RS256"],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    });

    const apps = (await getJson(`${issuerBase}/admin/apps`, { headers: { origin: new URL(issuerBase).origin } })).apps as AdminApp[];
    const app = apps.find((a) => a.name === "Switchboard Rotation") as AdminApp;

    // The person is sent to the authorize endpoint, picks a member and continues.
    const authorize = new URL(discovery.authorization_endpoint as string);
    for (const [key, value] of Object.entries({
      response_type: "code",
      client_id: app.client_id,
      scope: "openid profile email",
      redirect_uri: REDIRECT_URI,
      state: "state-abc",
      nonce: "nonce-xyz",
    })) {
      authorize.searchParams.set(key, value);
    }
    const page = await fetch(authorize);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Sign in to Switchboard Rotation with Emulated Workspace");
    const members = offeredMembers(html);
    expect(members.length).toBeGreaterThan(20);
    const userId = members[2] as string;

    const decided = await fetch(authorize, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ decision: "allow", user_id: userId }),
      redirect: "manual",
    });
    expect(decided.status).toBe(302);
    const callback = new URL(decided.headers.get("location") ?? "");
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    expect(callback.searchParams.get("state")).toBe("state-abc");
    const code = callback.searchParams.get("code") as string;

    // The code exchange, the client authenticated with HTTP Basic (client_secret_basic).
    const tokens = await getJson(discovery.token_endpoint as string, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(app.client_id)}:${encodeURIComponent(app.client_secret)}`).toString("base64")}`,
      },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI }),
    });
    expect(tokens).toMatchObject({ ok: true, token_type: "Bearer" });
    expect(tokens.access_token).toMatch(/^xoxp-\d+-\d+-\d+-[0-9a-f]{32}$/);

    // The ID token verifies against the keys the discovery names: issuer, audience, signature, expiry, nonce.
    const jwks = createRemoteJWKSet(new URL(discovery.jwks_uri as string));
    const keys = await getJson(discovery.jwks_uri as string);
    expect(decodeProtectedHeader(tokens.id_token as string)).toEqual({ alg: "RS256", typ: "JWT", kid: keys.keys[0].kid });
    const { payload } = await jwtVerify(tokens.id_token as string, jwks, {
      issuer: discovery.issuer as string,
      audience: app.client_id,
      algorithms: ["RS256"],
      currentDate: new Date(clock.now()),
    });
    const now = Math.floor(clock.now() / 1000);
    expect(payload).toMatchObject({
      iss: issuerBase,
      sub: userId,
      aud: app.client_id,
      iat: now,
      exp: now + 300,
      auth_time: now,
      nonce: "nonce-xyz",
      "https://slack.com/user_id": userId,
      "https://slack.com/team_id": server.emulator.state.workspace.team.id,
      "https://slack.com/team_name": "Emulated Workspace",
      "https://slack.com/team_domain": server.emulator.state.workspace.team.domain,
      email_verified: true,
      locale: "en-US",
      "https://slack.com/team_image_default": true,
    });
    expect(payload.email).toMatch(/@emulated-[0-9a-f]+\.example\.com$/);
    expect(payload.name).toEqual(expect.any(String));
    expect(payload.picture).toBe(payload["https://slack.com/user_image_512"]);

    // The images the claims name are served.
    expect((await fetch(payload.picture as string)).headers.get("content-type")).toBe("image/svg+xml");
    expect((await fetch(payload["https://slack.com/team_image_230"] as string)).status).toBe(200);

    // userInfo with the access token: the same person, the same claims.
    const userInfo = await getJson(discovery.userinfo_endpoint as string, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const { iss, aud, exp, iat, auth_time, nonce, at_hash, ...personClaims } = payload;
    expect([iss, aud, exp, iat, auth_time, nonce, at_hash].every((claim) => claim !== undefined)).toBe(true);
    expect(userInfo).toEqual({ ok: true, ...personClaims });

    // The ID token lives 5 minutes of the emulator's clock: moved past it, jose refuses it as expired.
    clock.advance(301_000);
    await expect(
      jwtVerify(tokens.id_token as string, jwks, { issuer: issuerBase, audience: app.client_id, currentDate: new Date(clock.now()) }),
    ).rejects.toMatchObject({ code: "ERR_JWT_EXPIRED" });
    // A token for another client (audience) or another issuer is refused the same way.
    await expect(jwtVerify(tokens.id_token as string, jwks, { audience: "another-client", currentDate: new Date(now * 1000) })).rejects.toMatchObject({
      code: "ERR_JWT_CLAIM_VALIDATION_FAILED",
      claim: "aud",
    });
  });
});

/** Starts a sign-in in-process and answers the page's redirect (or error page). */
function signInHelpers(h: Harness) {
  function authorizeUrl(app: AdminApp, params: Record<string, string | null> = {}): string {
    const url = new URL(`${h.base}/openid/connect/authorize`);
    const all: Record<string, string | null> = {
      response_type: "code",
      client_id: app.client_id,
      scope: "openid profile email",
      redirect_uri: REDIRECT_URI,
      state: "s-1",
      nonce: "n-1",
      ...params,
    };
    for (const [key, value] of Object.entries(all)) if (value !== null) url.searchParams.set(key, value);
    return url.toString();
  }

  async function decide(url: string, form: Record<string, string>): Promise<Response> {
    return h.emulator.fetch(
      new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form) }),
    );
  }

  /** The first member the page offers. */
  async function firstMember(app: AdminApp): Promise<string> {
    const response = await h.emulator.fetch(new Request(authorizeUrl(app)));
    return offeredMembers(await response.text())[0] as string;
  }

  async function code(app: AdminApp, params: Record<string, string | null> = {}, userId?: string): Promise<string> {
    const response = await decide(authorizeUrl(app, params), { decision: "allow", user_id: userId ?? (await firstMember(app)) });
    expect(response.status).toBe(302);
    return new URL(response.headers.get("location") ?? "").searchParams.get("code") as string;
  }

  async function exchange(app: AdminApp, params: Record<string, string>) {
    return (await h.call("openid.connect.token", { client_id: app.client_id, client_secret: app.client_secret, grant_type: "authorization_code", ...params }))
      .body;
  }

  async function page(url: string): Promise<{ status: number; location: string | null; text: string }> {
    const response = await h.emulator.fetch(new Request(url));
    return { status: response.status, location: response.headers.get("location"), text: await response.text() };
  }

  return { authorizeUrl, decide, code, exchange, page };
}

async function setUp(options: Parameters<typeof createHarness>[0] = {}) {
  const h = createHarness(options);
  const { rotation, legacy } = await h.apps();
  return { h, app: rotation, other: legacy, ...signInHelpers(h) };
}

describe("the authorize page refuses a bad request with an error page, never a redirect", () => {
  it("an unknown client_id is invalid_client_id", async () => {
    const { app, authorizeUrl, page } = await setUp();
    const answer = await page(authorizeUrl(app, { client_id: "1234.5678" }));
    expect(answer).toMatchObject({ status: 400, location: null });
    expect(answer.text).toContain("(invalid_client_id)");
  });

  it("a redirect_uri that is not one of the app's redirect URLs is bad_redirect_uri", async () => {
    const { app, authorizeUrl, page } = await setUp();
    for (const redirect of ["https://evil.example/callback", "http://localhost:3000/elsewhere", "http://localhost:3000/oauth/callback/..%2f..%2fevil"]) {
      const answer = await page(authorizeUrl(app, { redirect_uri: redirect }));
      expect(answer, redirect).toMatchObject({ status: 400, location: null });
      expect(answer.text).toContain("(bad_redirect_uri)");
    }
  });

  it("scopes without openid, or beyond openid, profile and email, are invalid_scope", async () => {
    const { app, authorizeUrl, page } = await setUp();
    for (const scope of ["profile email", "", "openid chat:write", "openid,users:read"]) {
      const answer = await page(authorizeUrl(app, { scope }));
      expect(answer, scope).toMatchObject({ status: 400, location: null });
      expect(answer.text).toContain("(invalid_scope)");
    }
  });

  it("a response_type other than code is unsupported_response_type", async () => {
    const { app, authorizeUrl, page } = await setUp();
    for (const responseType of ["token", "id_token", null]) {
      const answer = await page(authorizeUrl(app, { response_type: responseType }));
      expect(answer).toMatchObject({ status: 400, location: null });
      expect(answer.text).toContain("(unsupported_response_type)");
    }
  });

  it("a member who cannot sign in (an app's bot user, an unknown id) is refused, and no code is made", async () => {
    const { h, app, authorizeUrl, decide } = await setUp();
    const botUserId = (await h.install(app)).bot_user_id as string;
    for (const userId of [botUserId, "U0NOBODY1", ""]) {
      const response = await decide(authorizeUrl(app), { decision: "allow", user_id: userId });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("Pick a member");
    }
    expect(h.emulator.state.signIns.codes.size).toBe(0);
  });

  it("a form past the body cap is refused with a page (413), as the install's consent form is", async () => {
    const { app, authorizeUrl, decide } = await setUp({ maxBodyBytes: { webApi: 200 } });
    const response = await decide(authorizeUrl(app), { decision: "allow", user_id: "U".repeat(300) });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  });

  it("Cancel redirects back with error=access_denied and the state", async () => {
    const { app, authorizeUrl, decide } = await setUp();
    const response = await decide(authorizeUrl(app), { decision: "deny" });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "");
    expect(Object.fromEntries(location.searchParams)).toEqual({ error: "access_denied", state: "s-1" });
  });
});

describe("openid.connect.token", () => {
  it("redeems a code once: the second exchange is invalid_code", async () => {
    const { app, code, exchange } = await setUp();
    const c = await code(app);
    expect(await exchange(app, { code: c, redirect_uri: REDIRECT_URI })).toMatchObject({ ok: true });
    expect(await exchange(app, { code: c, redirect_uri: REDIRECT_URI })).toEqual({ ok: false, error: "invalid_code" });
  });

  it("refuses a code past its 10 minutes once the emulator's clock has moved", async () => {
    const { h, app, code, exchange } = await setUp();
    const c = await code(app);
    expect((await h.admin("clock", { advance_s: 601 })).status).toBe(200);
    expect(await exchange(app, { code: c, redirect_uri: REDIRECT_URI })).toEqual({ ok: false, error: "invalid_code" });
  });

  it("refuses unknown and foreign codes: another app's, an install's; and a sign-in code is no install code", async () => {
    const { h, app, other, code, exchange } = await setUp();
    expect(await exchange(app, { code: "nope" })).toEqual({ ok: false, error: "invalid_code" });
    const c = await code(app);
    expect(await exchange(other, { code: c, redirect_uri: REDIRECT_URI })).toEqual({ ok: false, error: "invalid_code" });
    const installCode = await h.authorizeCode(app);
    expect(await exchange(app, { code: installCode, redirect_uri: REDIRECT_URI })).toEqual({ ok: false, error: "invalid_code" });
    const asInstall = await h.call("oauth.v2.access", { code: c, client_id: app.client_id, client_secret: app.client_secret });
    expect(asInstall.body).toEqual({ ok: false, error: "invalid_code" });
    // Neither refusal spent the sign-in code.
    expect(await exchange(app, { code: c, redirect_uri: REDIRECT_URI })).toMatchObject({ ok: true });
  });

  it("an unknown client_id is invalid_client_id and a wrong secret bad_client_secret, in the form or over HTTP Basic", async () => {
    const { h, app, code } = await setUp();
    const c = await code(app);
    const form = { code: c, redirect_uri: REDIRECT_URI, grant_type: "authorization_code" };
    expect((await h.call("openid.connect.token", { ...form, client_id: "1234.5678", client_secret: app.client_secret })).body).toEqual({
      ok: false,
      error: "invalid_client_id",
    });
    expect((await h.call("openid.connect.token", { ...form, client_id: app.client_id, client_secret: "wrong" })).body).toEqual({
      ok: false,
      error: "bad_client_secret",
    });
    expect((await h.call("openid.connect.token", form, { basic: { clientId: app.client_id, clientSecret: "wrong" } })).body).toEqual({
      ok: false,
      error: "bad_client_secret",
    });
    expect((await h.call("openid.connect.token", form)).body).toEqual({ ok: false, error: "invalid_client_id" });
    // The right secret over Basic still redeems the code: the refusals did not spend it.
    expect((await h.call("openid.connect.token", form, { basic: { clientId: app.client_id, clientSecret: app.client_secret } })).body).toMatchObject({
      ok: true,
    });
  });

  it("requires the redirect_uri that authorize was given, and only that one", async () => {
    const { app, code, exchange } = await setUp({ redirectUrls: ["http://localhost:3000/other/callback"] });
    const c = await code(app);
    expect(await exchange(app, { code: c })).toEqual({ ok: false, error: "bad_redirect_uri" });
    expect(await exchange(app, { code: c, redirect_uri: "http://localhost:3000/other/callback" })).toEqual({ ok: false, error: "bad_redirect_uri" });
    expect(await exchange(app, { code: c, redirect_uri: REDIRECT_URI })).toMatchObject({ ok: true });
    // Without redirect_uri at authorize (the app's first redirect URL is used), the exchange needs none.
    const withoutRedirect = await code(app, { redirect_uri: null });
    expect(await exchange(app, { code: withoutRedirect })).toMatchObject({ ok: true });
  });

  it("any grant_type but authorization_code is invalid_grant_type", async () => {
    const { app, code, exchange } = await setUp();
    const c = await code(app);
    expect(await exchange(app, { code: c, redirect_uri: REDIRECT_URI, grant_type: "refresh_token" })).toEqual({ ok: false, error: "invalid_grant_type" });
  });

  it("takes a JSON body too, and dates its tokens by the emulator's clock, moved or not", async () => {
    const { h, app, code } = await setUp();
    await h.admin("clock", { advance_s: 3600 });
    const c = await code(app);
    const { body } = await h.call(
      "openid.connect.token",
      { client_id: app.client_id, client_secret: app.client_secret, code: c, redirect_uri: REDIRECT_URI, grant_type: "authorization_code" },
      { json: true },
    );
    expect(body.ok).toBe(true);
    const payload = JSON.parse(Buffer.from((body.id_token as string).split(".")[1] as string, "base64url").toString()) as Json;
    expect(payload.iat).toBe(Math.floor(h.emulator.clock.now() / 1000));
    expect(payload.iat).toBe(Math.floor(Date.UTC(2026, 0, 1, 10, 0, 0) / 1000));
  });

  it("gives only the claims of the scopes granted, and no nonce when none was sent", async () => {
    const { h, app, code, exchange } = await setUp();
    const c = await code(app, { scope: "openid", nonce: null });
    const body = await exchange(app, { code: c, redirect_uri: REDIRECT_URI });
    const payload = JSON.parse(Buffer.from((body.id_token as string).split(".")[1] as string, "base64url").toString()) as Json;
    expect(Object.keys(payload).sort()).toEqual(
      [
        "iss",
        "sub",
        "aud",
        "exp",
        "iat",
        "auth_time",
        "at_hash",
        "https://slack.com/user_id",
        "https://slack.com/team_id",
        "https://slack.com/team_name",
        "https://slack.com/team_domain",
      ].sort(),
    );
    const info = await h.call("openid.connect.userInfo", {}, { token: body.access_token as string });
    expect(info.body.email).toBeUndefined();
    expect(info.body.sub).toBe(payload.sub);
    // The sign-in's token is for userInfo: it belongs to no installation, so other methods do not know it.
    expect(await h.authTest(body.access_token as string)).toEqual({ ok: false, error: "invalid_auth" });
  });

  it("signs a member in to the workspace the person chose", async () => {
    const { h, app, code, exchange } = await setUp({ workspaces: 2 });
    const second = [...h.emulator.state.workspaces.values()][1]!;
    const page = await h.emulator.fetch(new Request(signInHelpers(h).authorizeUrl(app, { team: second.team.id })));
    const member = offeredMembers(await page.text())[0] as string;
    const c = await code(app, { team: second.team.id }, member);
    const body = await exchange(app, { code: c, redirect_uri: REDIRECT_URI });
    const info = (await h.call("openid.connect.userInfo", {}, { token: body.access_token as string })).body;
    expect(info).toMatchObject({ ok: true, sub: member, "https://slack.com/team_id": second.team.id, "https://slack.com/team_name": "Emulated Workspace 2" });
  });
});

describe("openid.connect.userInfo", () => {
  it("refuses no token (not_authed), an unknown one (invalid_auth), an install's user token (missing_scope openid) and a bot token", async () => {
    const { h, app } = await setUp();
    expect((await h.call("openid.connect.userInfo", {})).body).toEqual({ ok: false, error: "not_authed" });
    expect((await h.call("openid.connect.userInfo", {}, { token: "xoxp-1-2-3-abc" })).body).toEqual({ ok: false, error: "invalid_auth" });
    const install = await h.install(app);
    expect((await h.call("openid.connect.userInfo", {}, { token: install.authed_user.access_token as string })).body).toEqual({
      ok: false,
      error: "missing_scope",
      needed: "openid",
      provided: "users:read",
    });
    expect((await h.call("openid.connect.userInfo", {}, { token: install.access_token as string })).body).toEqual({
      ok: false,
      error: "not_allowed_token_type",
    });
    expect((await h.call("openid.connect.userInfo", {}, { token: install.refresh_token as string })).body).toEqual({ ok: false, error: "invalid_auth" });
  });

  it("counts against its app and workspace at tier 3 when rate limits are on (50 calls a minute)", async () => {
    const { h, app, code, exchange } = await setUp({ rateLimits: true });
    const body = await exchange(app, { code: await code(app), redirect_uri: REDIRECT_URI });
    const answers = [];
    for (let i = 0; i < 50; i++) answers.push((await h.call("openid.connect.userInfo", {}, { token: body.access_token as string })).status);
    expect(answers.every((status) => status === 200)).toBe(true);
    const limited = await h.call("openid.connect.userInfo", {}, { token: body.access_token as string });
    expect(limited).toMatchObject({ status: 429, body: { ok: false, error: "ratelimited" } });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("shows each sign-in in the admin state, its token masked, and forgets them at a reset", async () => {
    const { h, app, code, exchange } = await setUp();
    const c = await code(app, { scope: "openid email" });
    const body = await exchange(app, { code: c, redirect_uri: REDIRECT_URI });
    const token = body.access_token as string;
    const { body: state } = await h.admin("state");
    expect(state.sign_ins).toEqual([
      {
        masked: `xoxp-…${token.slice(-4)}`,
        app_id: app.app_id,
        team_id: h.emulator.state.workspace.team.id,
        user_id: expect.stringMatching(/^U0/),
        scopes: ["openid", "email"],
        auth_time: "2026-01-01T09:00:00.000Z",
        issued_at: "2026-01-01T09:00:00.000Z",
      },
    ]);
    expect(JSON.stringify(state)).not.toContain(token);
    expect((await h.admin("reset", {})).status).toBe(200);
    expect((await h.call("openid.connect.userInfo", {}, { token: body.access_token as string })).body).toEqual({ ok: false, error: "invalid_auth" });
  });
});

describe("the emulator's index page", () => {
  it("names the issuer and links its discovery document", async () => {
    const h = createHarness({ basePath: "/emulator" });
    const html = await (await h.emulator.fetch(new Request(`${h.base}/`))).text();
    expect(html).toContain(`Issuer <code>${h.base}</code>`);
    expect(html).toContain(`href="${h.base}/.well-known/openid-configuration"`);
  });
});

describe("the emulator's catalogue", () => {
  it("lists openid.connect.token (app credentials) at tier 4 and openid.connect.userInfo (a user token with openid) at tier 3, as their pages say", async () => {
    const h = createHarness();
    const { body } = await h.admin("methods");
    const byName = new Map((body.methods as Json[]).map((m) => [m.name, m]));
    expect(byName.get("openid.connect.token")).toMatchObject({ tier: 4, auth: "client", json: true });
    expect(byName.get("openid.connect.userInfo")).toMatchObject({ tier: 3, scopes: { bot: null, user: ["openid"] } });
  });
});
