import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callbackRoute } from "@/app/oauth/callback/route";
import { GET as installRoute } from "@/app/oauth/install/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { RequestCookieJar, runWithCookieJar } from "@/lib/http/cookie-jar";
import { writeSealedCookie } from "@/lib/http/sealed-cookie";
import { consumeOAuthState, createOAuthState, OAUTH_STATE_COOKIE, STATE_TTL_S } from "@/lib/oauth/state";
import { emulatorState, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { callbackPathFor, installIn } from "../support/install";

let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
});
afterAll(() => testConsole.close());

const browser = () => new TestBrowser(testConsole.origin);

async function sessionOf(b: TestBrowser) {
  const response = await b.send(sessionRoute, "/api/session");
  return (await response.json()) as { installations: { id: string; team: { id: string }; bot: { masked: string; expiresAt: number } | null; state: string }[] };
}

describe("Add to workspace", () => {
  it("redirects to the authorize URL with client_id, scopes, redirect_uri and a 256-bit state", async () => {
    const b = browser();
    const response = await b.send(installRoute, "/oauth/install?scope=users:read,chat:write&team=T0");
    expect(response.status).toBe(302);
    const url = new URL(response.headers.get("location") ?? "");
    expect(url.origin + url.pathname).toBe(`${testConsole.origin}/emulator/oauth/v2/authorize`);
    expect(url.searchParams.get("client_id")).toMatch(/^\d+\.\d+$/);
    expect(url.searchParams.get("scope")).toBe("users:read,chat:write");
    // The link names no user scopes: the app's manifest's (BOT_SCOPES and USER_SCOPES are unset).
    expect(url.searchParams.get("user_scope")?.split(",")).toEqual(["channels:history", "channels:read", "chat:write", "users:read"]);
    expect(url.searchParams.get("redirect_uri")).toBe("http://localhost:3000/oauth/callback");
    expect(url.searchParams.get("team")).toBe("T0");
    const state = url.searchParams.get("state") ?? "";
    expect(Buffer.from(state, "base64url").length).toBeGreaterThanOrEqual(16);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("sb_oauth_state="));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toContain(state);
  });

  it("generates a different state for every install", async () => {
    const b = browser();
    const states = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const response = await b.send(installRoute, "/oauth/install");
      states.add(new URL(response.headers.get("location") ?? "").searchParams.get("state") ?? "");
    }
    expect(states.size).toBe(5);
  });

  it("completes the install on the server (the installer's browser gets nothing but the redirect) and shows it, masked, to every browser", async () => {
    const b = browser();
    const response = await installIn(b);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toMatch(/^\/\?installed=/);
    // Only the pending OAuth states are rewritten (this one consumed): no installation, no token goes to the installer's browser.
    expect(response.headers.getSetCookie().map((c) => c.split("=")[0])).toEqual(["sb_oauth_state"]);
    const session = await sessionOf(browser());
    expect(session.installations).toHaveLength(1);
    const [installation] = session.installations;
    expect(installation?.bot?.masked).toMatch(/^xoxe\.xoxb-…[A-Za-z0-9]{4}$/);
    expect(installation?.bot?.expiresAt).toBeGreaterThan(Date.now() + 11 * 3600_000);
    expect(installation?.state).toBe("active");
    expect(JSON.stringify(session)).not.toMatch(/xox[abpe][.-][A-Za-z0-9-]{10,}/);
  });

  it("shows the incoming webhook as its host and last 4 characters, never its secret", async () => {
    const b = browser();
    await installIn(b);
    const response = await b.send(sessionRoute, "/api/session");
    const session = (await response.json()) as { installations: { incomingWebhook: { channelId: string; maskedUrl: string } | null }[] };
    const hook = session.installations[0]?.incomingWebhook;
    const secrets = [...testConsole.emulator.emulator.state.installations.values()].flatMap((i) => (i.incomingWebhook ? [i.incomingWebhook.secret] : []));
    expect(secrets.length).toBeGreaterThan(0);
    expect(hook?.maskedUrl).toMatch(/^[^/]+\/…[A-Za-z0-9_-]{4}$/);
    for (const secret of secrets) expect(JSON.stringify(session)).not.toContain(secret);
  });

  it("rejects a callback replayed after success with 400 replayed, and keeps the installation", async () => {
    const b = browser();
    const path = await callbackPathFor(b);
    expect((await b.send(callbackRoute, path)).status).toBe(303);
    const before = await sessionOf(b);
    const replay = await b.send(callbackRoute, path);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toMatch(/data-problem="replayed"[\s\S]*href="\/oauth\/install"[^>]*>Start again/);
    expect(replay.headers.getSetCookie().filter((c) => c.startsWith("sb_inst_"))).toEqual([]);
    expect((await sessionOf(b)).installations).toEqual(before.installations);
  });

  it("binds the state to the browser that started the install", async () => {
    const victim = browser();
    const before = (await sessionOf(victim)).installations;
    const path = await callbackPathFor(browser());
    const noCookie = await victim.send(callbackRoute, path);
    expect(noCookie.status).toBe(400);
    expect(await noCookie.text()).toContain('data-problem="missing"');
    await victim.send(installRoute, "/oauth/install");
    const otherState = await victim.send(callbackRoute, path);
    expect(otherState.status).toBe(400);
    expect(await otherState.text()).toContain('data-problem="mismatched"');
    expect((await sessionOf(victim)).installations).toEqual(before);
  });

  it("says missing when the callback carries no state", async () => {
    const response = await browser().send(callbackRoute, "/oauth/callback?code=abc");
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('data-problem="missing"');
  });

  it("reports access_denied when the person clicks Cancel", async () => {
    const b = browser();
    const response = await b.send(callbackRoute, await callbackPathFor(b, "deny"));
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('data-problem="access_denied"');
    expect(html).toContain("Start again");
  });

  it("shows a platform error code on the callback page, never free text from a crafted link", async () => {
    const b = browser();
    const coded = await (await b.send(callbackRoute, "/oauth/callback?error=invalid_scope&state=x")).text();
    expect(coded).toContain("invalid_scope");
    const phishing = "Your session expired, paste your token at evil.example";
    const crafted = await b.send(callbackRoute, `/oauth/callback?${new URLSearchParams({ error: phishing, state: "x" })}`);
    expect(crafted.status).toBe(400);
    const html = await crafted.text();
    expect(html).toContain('data-problem="access_denied"');
    expect(html).not.toContain("paste your token");
  });

  it("names the platform's known error codes, and shows any other code as unknown", async () => {
    const b = browser();
    const page = async (error: string) => (await b.send(callbackRoute, `/oauth/callback?${new URLSearchParams({ error, state: "x" })}`)).text();
    for (const code of [
      "access_denied",
      "invalid_request",
      "unauthorized_client",
      "unsupported_response_type",
      "invalid_scope",
      "server_error",
      "temporarily_unavailable",
    ]) {
      expect(await page(code)).toContain(`data-platform-error="${code}"`);
    }
    expect(await page("invalid_scope")).toContain("The platform stopped the install");
    // Shaped like a code, but words a crafted link chose: none of them reach the page.
    for (const crafted of ["your_session_expired_paste_your_token_at_evil_example", "constructor", "__proto__", "Visit evil.example now"]) {
      const html = await page(crafted);
      expect(html).toContain('data-platform-error="unknown"');
      expect(html).not.toContain(crafted);
    }
  });

  it("counts one installation upstream per app and team, reinstalling in place", async () => {
    const b = browser();
    await installIn(b);
    await installIn(b);
    expect((await sessionOf(b)).installations).toHaveLength(1);
    const upstream = await emulatorState(testConsole.origin);
    expect(upstream.installations.length).toBeGreaterThanOrEqual(1);
  });
});

describe("OAuth state", () => {
  const request = () => new Request(`${testConsole.origin}/oauth/callback`);

  it("is single use", async () => {
    const jar = new RequestCookieJar(request());
    await runWithCookieJar(jar, async () => {
      const now = Date.now();
      const state = await createOAuthState("console", now);
      expect(await consumeOAuthState(state, now)).toEqual({ ok: true, appKey: "console" });
      expect(await consumeOAuthState(state, now)).toEqual({ ok: false, problem: "replayed" });
    });
  });

  it("expires after 10 minutes and says so", async () => {
    const jar = new RequestCookieJar(request());
    await runWithCookieJar(jar, async () => {
      const now = Date.now();
      const state = await createOAuthState("console", now);
      expect(await consumeOAuthState(state, now + (STATE_TTL_S + 1) * 1000)).toEqual({ ok: false, problem: "expired" });
    });
  });

  it("keeps installs started in several tabs apart", async () => {
    const jar = new RequestCookieJar(request());
    await runWithCookieJar(jar, async () => {
      const now = Date.now();
      const first = await createOAuthState("console", now);
      const second = await createOAuthState("console", now);
      expect((await consumeOAuthState(second, now)).ok).toBe(true);
      expect((await consumeOAuthState(first, now)).ok).toBe(true);
      expect(await consumeOAuthState("forged-state", now)).toEqual({ ok: false, problem: "mismatched" });
    });
  });
  it("completes an install of the legacy app started when it was called emulator-legacy", async () => {
    const jar = new RequestCookieJar(request());
    await runWithCookieJar(jar, async () => {
      const now = Date.now();
      const state = "a-state-from-an-install-started-before";
      const pending = [{ hash: createHash("sha256").update(state).digest("base64url"), expiresAt: now + 60_000, appKey: "emulator-legacy" }];
      await writeSealedCookie(OAUTH_STATE_COOKIE, { pending, used: [] }, STATE_TTL_S);
      expect(await consumeOAuthState(state, now)).toEqual({ ok: true, appKey: "legacy" });
    });
  });
});
