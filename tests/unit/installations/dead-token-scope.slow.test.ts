import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callGet } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { POST as exchangeRoute } from "@/app/api/tokens/exchange/route";
import { POST as revokeRoute } from "@/app/api/tokens/revoke/route";
import { POST as testRoute } from "@/app/api/tokens/test/route";
import { defaultAppCredentials } from "@/lib/emulator";
import { consentAt, REDIRECT_URI, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

/**
 * Issue 22, item 11: a token proven dead affects that token and what the spec's section 3 says dies with
 * it, nothing else; an exchanged token never brings back another. Driven through the console's routes,
 * with the emulator as the platform.
 */

let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole({ UPSTREAM_TIMEOUT_MS: "2000" });
});
afterAll(() => testConsole.close());

const admin = (path: string, body: unknown) =>
  fetch(`${testConsole.origin}/emulator/admin/${path}`, {
    method: "POST",
    headers: { origin: testConsole.origin, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

beforeEach(async () => {
  expect((await admin("reset", {})).status).toBe(200);
});

interface TokenView {
  masked: string;
  rotating: boolean;
  revoked: boolean;
  expiresAt: number | null;
}
interface View {
  id: string;
  state: string;
  problem: string | null;
  bot: TokenView | null;
  user: TokenView | null;
  timeline: { type: string; dropped?: string[]; verdict?: string; scope?: string }[];
}

async function session(browser: TestBrowser): Promise<View[]> {
  return ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: View[] }).installations;
}

async function installedLegacy() {
  const browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser, "?app=legacy")).status).toBe(303);
  const [view] = await session(browser);
  expect(view?.bot).toMatchObject({ rotating: false });
  expect(view?.user).toMatchObject({ rotating: false });
  return { browser, id: view?.id ?? "" };
}

/** Token rotation on for the emulator's legacy app, as App settings (or a manifest update) turns it on. */
async function turnOnLegacyRotation() {
  const apps = (await (await fetch(`${testConsole.origin}/emulator/admin/apps`)).json()) as { apps: { manifest: { settings: Record<string, unknown> } }[] };
  const legacy = apps.apps.find((a) => JSON.stringify(a).includes("Switchboard Legacy"));
  if (!legacy) throw new Error("no legacy app");
  expect((await admin("apps", { ...legacy.manifest, settings: { ...legacy.manifest.settings, token_rotation_enabled: true } })).status).toBe(200);
}

/** A long-lived bot token of the legacy app obtained outside the console (another browser, a script). */
async function longLivedBotTokenElsewhere(): Promise<string> {
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

const tokenAction = (browser: TestBrowser, route: typeof testRoute, path: string, id: string, token: "bot" | "user") =>
  browser.send(route, path, { method: "POST", json: { installation: id, token } });

const authTest = async (browser: TestBrowser, id: string, token: "bot" | "user") =>
  (await (await browser.send(callGet, `/api/call/auth.test?installation=${id}&token=${token}`, { params: { method: "auth.test" } })).json()) as {
    ok: boolean;
    error?: string;
  };

describe("an exchanged token never brings back a dead one", () => {
  it("a pasted token exchanged into an installation that needs reinstalling keeps none of its dead tokens, and Test on the new one works", async () => {
    const { browser, id } = await installedLegacy();
    const [before] = await session(browser);
    // Revoking the long-lived user token of an app without rotation revokes the whole authorization.
    expect((await tokenAction(browser, revokeRoute, "/api/tokens/revoke", id, "user")).status).toBe(200);
    expect((await session(browser))[0]).toMatchObject({ state: "needs_reinstall" });

    const pasted = await longLivedBotTokenElsewhere();
    await turnOnLegacyRotation();
    const exchanged = await browser.send(exchangeRoute, "/api/tokens/exchange", {
      method: "POST",
      json: { pastedToken: pasted, app: "legacy", confirm: true },
    });
    expect(exchanged.status).toBe(200);

    const [after] = await session(browser);
    expect(after?.id).toBe(id);
    expect(after?.state).toBe("active");
    expect(after?.bot).toMatchObject({ rotating: true, revoked: false });
    // The revoked user token is not brought back as "long-lived · never expires".
    expect(after?.user).toBeNull();
    expect(after?.timeline[0]).toMatchObject({ type: "exchanged", dropped: [before?.user?.masked] });
    expect((await tokenAction(browser, testRoute, "/api/tokens/test", id, "user")).status).toBe(400);
    const test = await tokenAction(browser, testRoute, "/api/tokens/test", id, "bot");
    expect(((await test.json()) as { ok: boolean }).ok).toBe(true);
    expect((await session(browser))[0]).toMatchObject({ state: "active" });
  });
});

describe("a dead token kills what the spec says dies with it, nothing else", () => {
  it("once the app has rotation, revoking and testing the long-lived user token leave the exchanged bot token working", async () => {
    const { browser, id } = await installedLegacy();
    await turnOnLegacyRotation();
    expect(
      (await browser.send(exchangeRoute, "/api/tokens/exchange", { method: "POST", json: { installation: id, token: "bot", confirm: true } })).status,
    ).toBe(200);
    // With rotation, auth.revoke revokes that single token; the installation stays (row 6).
    expect((await tokenAction(browser, revokeRoute, "/api/tokens/revoke", id, "user")).status).toBe(200);
    const [revoked] = await session(browser);
    expect(revoked).toMatchObject({ state: "active", user: { revoked: true }, bot: { revoked: false } });
    expect(revoked?.timeline[0]).toMatchObject({ type: "revoked", scope: "token" });

    const test = await tokenAction(browser, testRoute, "/api/tokens/test", id, "user");
    expect(((await test.json()) as { platform: { error: string } }).platform.error).toBe("token_revoked");
    const [tested] = await session(browser);
    expect(tested).toMatchObject({ state: "active", bot: { revoked: false } });
    expect(tested?.timeline[0]).toMatchObject({ type: "tested", verdict: "token_revoked" });
    expect((await authTest(browser, id, "bot")).ok).toBe(true);
  });

  it("an installation whose tokens are all long-lived asks the other token: rotation on, only the revoked one dies", async () => {
    const { browser, id } = await installedLegacy();
    await turnOnLegacyRotation();
    expect((await tokenAction(browser, revokeRoute, "/api/tokens/revoke", id, "bot")).status).toBe(200);
    expect((await session(browser))[0]).toMatchObject({ state: "active", bot: { revoked: true }, user: { revoked: false } });
    expect((await authTest(browser, id, "user")).ok).toBe(true);
    // A call with the dead bot token proves it dead again, and still nothing else.
    expect((await authTest(browser, id, "bot")).error).toBe("token_revoked");
    expect((await session(browser))[0]).toMatchObject({ state: "active", user: { revoked: false } });
    // The last usable token dying leaves nothing to work with: a reinstall.
    expect((await tokenAction(browser, revokeRoute, "/api/tokens/revoke", id, "user")).status).toBe(200);
    expect((await session(browser))[0]).toMatchObject({ state: "needs_reinstall" });
  });

  it("without rotation, a long-lived token proven dead takes the installation with it, as its other token confirms", async () => {
    const { browser, id } = await installedLegacy();
    // The platform forgets every token.
    expect((await admin("reset", {})).status).toBe(200);
    const test = await tokenAction(browser, testRoute, "/api/tokens/test", id, "bot");
    expect(((await test.json()) as { platform: { error: string } }).platform.error).toBe("invalid_auth");
    expect((await session(browser))[0]).toMatchObject({ state: "needs_reinstall", problem: "invalid_auth" });
  });

  it("without rotation, revoking a long-lived token revokes the authorization", async () => {
    const { browser, id } = await installedLegacy();
    expect((await tokenAction(browser, revokeRoute, "/api/tokens/revoke", id, "bot")).status).toBe(200);
    const [after] = await session(browser);
    expect(after).toMatchObject({ state: "needs_reinstall", problem: "token_revoked" });
    expect(after?.timeline[0]).toMatchObject({ type: "revoked", scope: "installation" });
  });
});
