import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callGet, POST as callPost } from "@/app/api/call/[method]/route";
import { DELETE as forgetRoute } from "@/app/api/installations/[id]/route";
import { POST as uninstallRoute } from "@/app/api/installations/[id]/uninstall/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { POST as exchangeRoute } from "@/app/api/tokens/exchange/route";
import { POST as refreshRoute } from "@/app/api/tokens/refresh/route";
import { POST as revokeRoute } from "@/app/api/tokens/revoke/route";
import { POST as testRoute } from "@/app/api/tokens/test/route";
import { defaultAppCredentials } from "@/lib/emulator";
import { encodeCursorParam } from "@/lib/platform/cursor";
import { consentAt, emulatorState, REDIRECT_URI, startTestConsole, TestBrowser, type TestConsole, forgetAllInstallations } from "../support/console";
import { installIn } from "../support/install";

const RAW_TOKEN = /xox[abpe][.-][A-Za-z0-9-]{10,}/;
let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole({ UPSTREAM_TIMEOUT_MS: "300" });
});
afterAll(() => testConsole.close());
beforeEach(async () => {
  await forgetAllInstallations();
  await fetch(`${testConsole.origin}/emulator/admin/reset`, {
    method: "POST",
    headers: { origin: testConsole.origin, "content-type": "application/json" },
    body: "{}",
  });
});

interface View {
  id: string;
  state: string;
  app: { key: string };
  bot: { masked: string; rotating: boolean; revoked: boolean; expiresAt: number | null } | null;
  uninstalledAt: number | null;
  timeline: { type: string }[];
}

async function session(browser: TestBrowser): Promise<View[]> {
  return ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: View[] }).installations;
}

async function installed(query = "") {
  const browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser, query)).status).toBe(303);
  const [view] = await session(browser);
  return { browser, id: view?.id ?? "" };
}

const call = (browser: TestBrowser, method: string, query: string, init: RequestInit & { json?: unknown } = {}) =>
  browser.send(init.method === "POST" ? callPost : callGet, `/api/call/${method}?${query}`, { ...init, params: { method } });

const admin = (path: string, body: unknown) =>
  fetch(`${testConsole.origin}/emulator/admin/${path}`, {
    method: "POST",
    headers: { origin: testConsole.origin, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("GET and POST /api/call/{method}", () => {
  it("answers the platform's JSON as it came, with the upstream time, the refresh flag and the masked request", async () => {
    const { browser, id } = await installed();
    const response = await call(browser, "auth.test", `installation=${id}&token=bot`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { ok: boolean; team_id: string; bot_id: string };
    expect(body).toMatchObject({ ok: true });
    expect(body.bot_id).toBeTruthy();
    expect(Number(response.headers.get("x-upstream-time-ms"))).toBeGreaterThanOrEqual(0);
    expect(response.headers.get("x-token-refreshed")).toBe("0");
    const wire = JSON.parse(response.headers.get("x-upstream-request") ?? "{}") as { method: string; url: string; headers: Record<string, string> };
    expect(wire.method).toBe("GET");
    expect(wire.url).toBe(`${testConsole.origin}/emulator/api/auth.test`);
    expect(wire.headers.authorization).toMatch(/^Bearer xoxe\.xoxb-…[A-Za-z0-9]{4}$/);
    expect(response.headers.get("x-upstream-request")).not.toMatch(RAW_TOKEN);
  });

  it("walks users.list with the cursor sent as %3D", async () => {
    const { browser, id } = await installed();
    const first = (await (await call(browser, "users.list", `installation=${id}&limit=3`)).json()) as {
      members: unknown[];
      response_metadata: { next_cursor: string };
    };
    // Pages may come short (spec 4.7): only next_cursor says whether there is more.
    expect(first.members.length).toBeGreaterThan(0);
    expect(first.members.length).toBeLessThanOrEqual(3);
    const cursor = first.response_metadata.next_cursor;
    expect(cursor).toMatch(/=$/);
    const second = await call(browser, "users.list", `installation=${id}&limit=3&cursor=${encodeURIComponent(cursor)}`);
    expect(((await second.json()) as { ok: boolean }).ok).toBe(true);
    const wire = JSON.parse(second.headers.get("x-upstream-request") ?? "{}") as { url: string };
    expect(wire.url).toContain(encodeCursorParam(cursor));
    expect(encodeCursorParam(cursor)).toMatch(/%3D$/);
  });

  it("forwards a POST's JSON or form parameters, each in its own encoding", async () => {
    const { browser, id } = await installed();
    const json = await call(browser, "auth.test", `installation=${id}`, { method: "POST", json: { ping: true } });
    expect(((await json.json()) as { ok: boolean }).ok).toBe(true);
    expect(JSON.parse(json.headers.get("x-upstream-request") ?? "{}")).toMatchObject({
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: '{"ping":true}',
    });
    const form = await call(browser, "users.list", `installation=${id}`, {
      method: "POST",
      body: "limit=4",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(((await form.json()) as { ok: boolean }).ok).toBe(true);
    expect(JSON.parse(form.headers.get("x-upstream-request") ?? "{}")).toMatchObject({ method: "POST", body: "limit=4" });
  });

  it("keeps the wire header small for a large body", async () => {
    const { browser, id } = await installed();
    const response = await call(browser, "chat.postMessage", `installation=${id}`, { method: "POST", json: { channel: "general", text: "x".repeat(20_000) } });
    const header = response.headers.get("x-upstream-request") ?? "";
    expect(header.length).toBeLessThanOrEqual(2048);
    const record = JSON.parse(header) as { body: string; cut: { body: number } };
    expect(record.cut.body).toBe(JSON.stringify({ channel: "general", text: "x".repeat(20_000) }).length);
    expect(record.body).toMatch(/^\{"channel":"general","text":"x+$/);
  });

  it("refuses a method name outside [A-Za-z0-9.]", async () => {
    const { browser, id } = await installed();
    for (const method of ["auth.test%2F..", "auth_test", "auth test"]) {
      const response = await browser.send(callGet, `/api/call/x?installation=${id}`, { params: { method: decodeURIComponent(method) } });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe("invalid_method");
    }
  });

  it("answers 404 for an installation this session does not hold", async () => {
    const { browser } = await installed();
    const response = await call(browser, "auth.test", "installation=T000-A000");
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: string }).error).toBe("unknown_installation");
  });

  it("answers 413 for an oversized body and 403 for another origin", async () => {
    const { browser, id } = await installed();
    const big = await call(browser, "chat.postMessage", `installation=${id}`, { method: "POST", json: { text: "x".repeat(70_000) } });
    expect(big.status).toBe(413);
    const foreign = await call(browser, "auth.test", `installation=${id}`, { method: "POST", headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    const crossSiteGet = await call(browser, "auth.revoke", `installation=${id}`, { headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSiteGet.status).toBe(403);
  });

  it("passes an upstream 429 on with Retry-After", async () => {
    const { browser, id } = await installed();
    await admin("rate-limits", { enabled: true });
    let limited: Response | undefined;
    for (let i = 0; i < 30 && !limited; i++) {
      const response = await call(browser, "users.list", `installation=${id}&limit=1`);
      if (response.status === 429) limited = response;
    }
    await admin("rate-limits", { enabled: false });
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await limited?.json()) as { error: string }).error).toBe("ratelimited");
  });

  it("answers 504 when the platform is slower than UPSTREAM_TIMEOUT_MS, and keeps the installation", async () => {
    const { browser, id } = await installed();
    await admin("faults", { latency_ms: 1500, methods: ["auth.test"] });
    const response = await call(browser, "auth.test", `installation=${id}`);
    await admin("faults", { latency_ms: 0, methods: [] });
    expect(response.status).toBe(504);
    expect(((await response.json()) as { error: string; message: string }).message).toMatch(/did not answer auth\.test within 300 ms/);
    expect(await session(browser)).toHaveLength(1);
  });
});

describe("token actions", () => {
  it("answers Test with who the token is, as auth.test says: team, user and url, for beside the button", async () => {
    const { browser, id } = await installed();
    const test = await browser.send(testRoute, "/api/tokens/test", { method: "POST", json: { installation: id, token: "bot" } });
    const answer = (await test.json()) as { ok: boolean; identity: Record<string, string | null> };
    expect(answer.ok).toBe(true);
    expect(answer.identity).toMatchObject({ team: "Emulated Workspace", url: expect.stringMatching(/^https:\/\/emulated-[0-9a-f]+\.slack\.com\/$/) });
    expect(answer.identity.user).toBeTruthy();
    expect(answer.identity.teamId).toMatch(/^T/);
    expect(answer.identity.userId).toMatch(/^[UW]/);
  });

  it("tests, refreshes, revokes and refreshes again", async () => {
    const { browser, id } = await installed();
    const test = await browser.send(testRoute, "/api/tokens/test", { method: "POST", json: { installation: id, token: "bot" } });
    expect(((await test.json()) as { ok: boolean }).ok).toBe(true);

    const before = (await session(browser))[0]?.bot?.masked;
    const refreshed = await browser.send(refreshRoute, "/api/tokens/refresh", { method: "POST", json: { installation: id, token: "bot" } });
    expect(refreshed.status).toBe(200);
    expect((await session(browser))[0]?.bot?.masked).not.toBe(before);

    const revoked = await browser.send(revokeRoute, "/api/tokens/revoke", { method: "POST", json: { installation: id, token: "bot" } });
    expect(((await revoked.json()) as { ok: boolean; platform: { revoked: boolean } }).platform.revoked).toBe(true);
    expect((await session(browser))[0]?.bot?.revoked).toBe(true);
    const afterRevoke = (await (await call(browser, "auth.test", `installation=${id}`)).json()) as { ok: boolean; error: string };
    expect(afterRevoke).toMatchObject({ ok: false, error: "token_revoked" });

    await browser.send(refreshRoute, "/api/tokens/refresh", { method: "POST", json: { installation: id, token: "bot" } });
    expect((await session(browser))[0]?.bot?.revoked).toBe(false);
    expect(((await (await call(browser, "auth.test", `installation=${id}`)).json()) as { ok: boolean }).ok).toBe(true);
  });

  it("refuses token actions without the console's Origin", async () => {
    const { browser, id } = await installed();
    const request = new Request(`${testConsole.origin}/api/tokens/refresh`, {
      method: "POST",
      headers: { cookie: browser.cookieHeader(), "content-type": "application/json" },
      body: JSON.stringify({ installation: id }),
    });
    const response = await refreshRoute(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toBe("missing_origin");
  });

  it("uninstalls upstream, and keeps the installation as uninstalled, without its tokens, with its timeline", async () => {
    const { browser, id } = await installed();
    const response = await browser.send(uninstallRoute, `/api/installations/${id}/uninstall`, { method: "POST", params: { id } });
    expect(((await response.json()) as { ok: boolean }).ok).toBe(true);
    const [view] = await session(browser);
    expect(view).toMatchObject({ id, state: "needs_reinstall", problem: "uninstalled", bot: null, user: null, incomingWebhook: null });
    expect(view?.uninstalledAt).toEqual(expect.any(Number));
    expect(view?.timeline.map((e) => e.type)).toEqual(["uninstalled", "installed"]);
    const upstream = await emulatorState(testConsole.origin);
    expect(upstream.tokens.filter((t) => t.state === "active")).toEqual([]);
    // Calls with it say to reinstall; Forget removes it.
    expect((await call(browser, "auth.test", `installation=${id}&token=bot`)).status).toBe(409);
    expect((await browser.send(forgetRoute, `/api/installations/${id}`, { method: "DELETE", params: { id } })).status).toBe(200);
    expect(await session(browser)).toEqual([]);
  });

  it("answers an upstream 429 on uninstall with Retry-After, and keeps the installation", async () => {
    // apps.uninstall is tier 1: one call a minute per workspace and app.
    await admin("rate-limits", { enabled: true });
    try {
      const first = await installed();
      const done = await first.browser.send(uninstallRoute, `/api/installations/${first.id}/uninstall`, { method: "POST", params: { id: first.id } });
      expect(done.status).toBe(200);
      const second = await installed();
      const limited = await second.browser.send(uninstallRoute, `/api/installations/${second.id}/uninstall`, { method: "POST", params: { id: second.id } });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await limited.json()) as { error: string }).error).toBe("ratelimited");
      expect(await session(second.browser)).toHaveLength(1);
    } finally {
      await admin("rate-limits", { enabled: false });
    }
  });

  it("forgets an installation locally with DELETE, and 404s the second time", async () => {
    const { browser, id } = await installed();
    expect((await browser.send(forgetRoute, `/api/installations/${id}`, { method: "DELETE", params: { id } })).status).toBe(200);
    expect(await session(browser)).toEqual([]);
    expect((await browser.send(forgetRoute, `/api/installations/${id}`, { method: "DELETE", params: { id } })).status).toBe(404);
  });
});

describe("exchange", () => {
  it("requires the confirmation", async () => {
    const { browser, id } = await installed("?app=legacy");
    const response = await browser.send(exchangeRoute, "/api/tokens/exchange", { method: "POST", json: { installation: id, token: "bot" } });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { message: string }).message).toMatch(/must not be revoked/);
  });

  it("says token_rotation_not_enabled for a token of an app without rotation, and keeps the token", async () => {
    const { browser, id } = await installed("?app=legacy");
    const [before] = await session(browser);
    expect(before?.bot).toMatchObject({ rotating: false, expiresAt: null });
    const response = await browser.send(exchangeRoute, "/api/tokens/exchange", { method: "POST", json: { installation: id, token: "bot", confirm: true } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("token_rotation_not_enabled");
    const [after] = await session(browser);
    expect(after?.bot).toEqual(before?.bot);
    expect(after?.state).toBe("active");
    expect(after?.timeline[0]).toMatchObject({
      type: "exchange_failed",
      token: "bot",
      masked: before?.bot?.masked,
      error: "token_rotation_not_enabled",
      by: "Exchange button",
    });
  });

  it("exchanges a pasted long-lived token once rotation is on, and tracks it as an installation", async () => {
    const legacy = defaultAppCredentials("session-tests", "legacy");
    // A long-lived token obtained outside the console, as a developer would have one.
    const authorize = new URL(`${testConsole.origin}/emulator/oauth/v2/authorize`);
    authorize.search = new URLSearchParams({ client_id: legacy.clientId, scope: "users:read,chat:write", redirect_uri: REDIRECT_URI, state: "x" }).toString();
    const code = new URL(await consentAt(authorize.toString())).searchParams.get("code") ?? "";
    const access = (await (
      await fetch(`${testConsole.origin}/emulator/api/oauth.v2.access`, {
        method: "POST",
        body: new URLSearchParams({ client_id: legacy.clientId, client_secret: legacy.clientSecret, code, redirect_uri: REDIRECT_URI }),
      })
    ).json()) as { access_token: string };
    expect(access.access_token).toMatch(/^xoxb-/);

    const apps = (await (await fetch(`${testConsole.origin}/emulator/admin/apps`)).json()) as { apps: { manifest?: unknown; name?: string }[] };
    const legacyApp = apps.apps.find((a) => JSON.stringify(a).includes("Switchboard Legacy"));
    expect(legacyApp).toBeDefined();
    const manifest = (legacyApp as { manifest: { settings: Record<string, unknown> } }).manifest;
    expect((await admin("apps", { ...manifest, settings: { ...manifest.settings, token_rotation_enabled: true } })).status).toBe(200);

    const browser = new TestBrowser(testConsole.origin);
    const response = await browser.send(exchangeRoute, "/api/tokens/exchange", {
      method: "POST",
      json: { pastedToken: access.access_token, app: "legacy", confirm: true },
    });
    const body = (await response.json()) as { ok: boolean; installation: View };
    expect(response.status).toBe(200);
    expect(body.installation.bot).toMatchObject({ rotating: true });
    expect(body.installation.bot?.masked).toMatch(/^xoxe\.xoxb-…/);
    expect(JSON.stringify(body)).not.toMatch(RAW_TOKEN);
    const [tracked] = await session(browser);
    expect(tracked?.app.key).toBe("legacy");
    expect(((await (await call(browser, "auth.test", `installation=${tracked?.id}`)).json()) as { ok: boolean }).ok).toBe(true);

    // The original stops working, and cannot be exchanged a second time.
    const original = (await (
      await fetch(`${testConsole.origin}/emulator/api/auth.test`, { method: "POST", headers: { authorization: `Bearer ${access.access_token}` } })
    ).json()) as { ok: boolean };
    expect(original.ok).toBe(false);
    const again = await browser.send(exchangeRoute, "/api/tokens/exchange", {
      method: "POST",
      json: { pastedToken: access.access_token, app: "legacy", confirm: true },
    });
    expect(again.status).toBeGreaterThanOrEqual(400);
  });

  it("takes the legacy app by its former key too (emulator-legacy), as scripts written before it had one name send it", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const exchange = (app: string) =>
      browser.send(exchangeRoute, "/api/tokens/exchange", { method: "POST", json: { pastedToken: "xoxb-0000-never-issued", app, confirm: true } });
    // The legacy app's credentials went upstream: its app, not the console's, has no token rotation.
    const former = await exchange("emulator-legacy");
    expect(former.status).toBe(400);
    expect(((await former.json()) as { error: string }).error).toBe("token_rotation_not_enabled");
    expect((await exchange("another-app")).status).toBe(422);
  });
});
