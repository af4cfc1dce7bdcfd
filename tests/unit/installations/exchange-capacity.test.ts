import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as sessionRoute } from "@/app/api/session/route";
import { POST as exchangeRoute } from "@/app/api/tokens/exchange/route";
import { defaultAppCredentials } from "@/lib/emulator";
import { RequestCookieJar, runWithCookieJar } from "@/lib/http/cookie-jar";
import { getSessionInstallations } from "@/lib/installations/list-installations";
import { MAX_INSTALLATIONS } from "@/lib/installations/store";
import { saveInstallation } from "@/lib/installations/store";
import { consentAt, REDIRECT_URI, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
});
afterAll(() => testConsole.close());
beforeEach(async () => {
  await fetch(`${testConsole.origin}/emulator/admin/reset`, {
    method: "POST",
    headers: { origin: testConsole.origin, "content-type": "application/json" },
    body: "{}",
  });
});

/** A long-lived token of the emulator's legacy app, obtained outside the console, as a developer would have one. */
async function legacyToken(): Promise<string> {
  const legacy = defaultAppCredentials("session-tests", "legacy");
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
  return access.access_token;
}

/** Token rotation turned on for the legacy app: its long-lived tokens can now be exchanged. */
async function turnOnRotation() {
  const apps = (await (await fetch(`${testConsole.origin}/emulator/admin/apps`)).json()) as { apps: unknown[] };
  const legacyApp = apps.apps.find((a) => JSON.stringify(a).includes("Switchboard Legacy")) as { manifest: { settings: Record<string, unknown> } };
  const manifest = legacyApp.manifest;
  const turnedOn = await fetch(`${testConsole.origin}/emulator/admin/apps`, {
    method: "POST",
    headers: { origin: testConsole.origin, "content-type": "application/json" },
    body: JSON.stringify({ ...manifest, settings: { ...manifest.settings, token_rotation_enabled: true } }),
  });
  expect(turnedOn.status).toBe(200);
}

/** Fills the browser's session up to the maximum with copies of its first installation under other team ids. */
async function fillSession(browser: TestBrowser) {
  const jar = new RequestCookieJar(browser.request("/"));
  await runWithCookieJar(jar, async () => {
    const [held] = await getSessionInstallations();
    if (!held) throw new Error("no installation");
    // More workspaces than the emulator has: the same record under other team ids.
    for (let n = 1; n < MAX_INSTALLATIONS; n++) await saveInstallation({ ...held, id: `T${n}-${held.appId}`, team: { id: `T${n}`, name: `Team ${n}` } });
  });
  browser.absorb(jar.applyTo(new Response(null)));
  const session = (await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: unknown[] };
  expect(session.installations).toHaveLength(MAX_INSTALLATIONS);
}

async function upstreamAuthTest(token: string): Promise<{ ok: boolean }> {
  const response = await fetch(`${testConsole.origin}/emulator/api/auth.test`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
  return (await response.json()) as { ok: boolean };
}

describe("exchanging a pasted token in a full session", () => {
  it("refuses with 409 before asking the platform, so the pasted token keeps working", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect((await installIn(browser)).status).toBe(303);
    await fillSession(browser);
    const pasted = await legacyToken();
    await turnOnRotation();

    const response = await browser.send(exchangeRoute, "/api/tokens/exchange", { method: "POST", json: { pastedToken: pasted, app: "legacy", confirm: true } });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: string }).error).toBe("too_many_installations");
    expect(response.headers.getSetCookie()).toEqual([]);
    // Never exchanged: the original still works upstream.
    expect((await upstreamAuthTest(pasted)).ok).toBe(true);
  });

  it("still exchanges a pasted token of a team and app the full session already holds", async () => {
    const browser = new TestBrowser(testConsole.origin);
    // The session tracks this team's legacy-app installation, plus others up to the maximum.
    expect((await installIn(browser, "?app=legacy")).status).toBe(303);
    await fillSession(browser);
    const pasted = await legacyToken();
    await turnOnRotation();

    const response = await browser.send(exchangeRoute, "/api/tokens/exchange", { method: "POST", json: { pastedToken: pasted, app: "legacy", confirm: true } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { installation: { bot: { rotating: boolean } } }).installation.bot.rotating).toBe(true);
  });
});
