/**
 * The app configuration token as the console keeps it: pasted, rotated at once, sealed in its own HttpOnly
 * cookie and never answered; rotated with tooling.tokens.rotate before it expires, or when the platform's
 * clock says it has; its single-use refresh token spent once whatever the browser sends back; and a clear
 * request for a new paste when the cookie or the refresh token can no longer be used.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as overviewRoute } from "@/app/api/app-config/route";
import { GET as settingsRoute } from "@/app/api/app-config/apps/[appId]/route";
import { POST as generateRoute } from "@/app/api/app-config/token/generate/route";
import { POST as rotateRoute } from "@/app/api/app-config/token/rotate/route";
import { DELETE as forgetRoute, POST as tokenRoute } from "@/app/api/app-config/token/route";
import type { AppConfigOverview, AppSettingsView, ConfigTokenView } from "@/lib/app-config/types";
import type { TestBrowser } from "../support/console";
import { issueConfigToken, RAW_TOKEN, startAppConfigConsole, type AppConfigConsole } from "./support/console";

const TWELVE_HOURS_S = 43_200;
let console: AppConfigConsole;
let appId: string;

beforeAll(async () => {
  // No grace period: a refresh token sent twice is refused at once, so a second use cannot go unnoticed.
  console = await startAppConfigConsole("emulator", { refreshGraceSeconds: 0 });
  appId = (await console.appIds()).rotation;
});
afterAll(() => console.close());
afterEach(() => vi.restoreAllMocks());

interface ConfigTokenState {
  config_tokens: { kind: "access" | "refresh"; masked: string; state: string; used_at: string | null }[];
}
const configTokens = async () => (await console.admin<ConfigTokenState>("state")).config_tokens;
const tail = (token: string) => token.slice(-4);

async function paste(b: TestBrowser, pair: { token: string; refresh_token: string }) {
  return b.send(tokenRoute, "/api/app-config/token", { method: "POST", json: { token: pair.token, refreshToken: pair.refresh_token } });
}

async function openSettings(b: TestBrowser) {
  return b.send(settingsRoute, `/api/app-config/apps/${appId}`, { params: { appId } });
}

describe("pasting a configuration token", () => {
  it("rotates the pair at once and seals the new one in an HttpOnly, SameSite=Lax cookie; answers show it masked only", async () => {
    const b = console.browser();
    const pair = await issueConfigToken(console);
    const response = await paste(b, pair);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toMatch(RAW_TOKEN);
    const { configToken } = JSON.parse(text) as { configToken: ConfigTokenView };
    expect(configToken).toMatchObject({ maskedToken: expect.stringMatching(/^xoxe\.xoxp-…/), maskedRefreshToken: expect.stringMatching(/^xoxe-…/) });
    // The pasted refresh token is spent: the console holds the pair it was exchanged for.
    expect(configToken.maskedRefreshToken).not.toBe(`xoxe-…${tail(pair.refresh_token)}`);
    expect(configToken.expiresAt - Date.now()).toBeGreaterThan((TWELVE_HOURS_S - 60) * 1000);
    expect((await configTokens()).find((t) => t.masked === `xoxe-…${tail(pair.refresh_token)}`)?.used_at).not.toBeNull();

    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("sb_appcfg="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toContain(pair.token);
    expect(decodeURIComponent(cookie)).not.toMatch(RAW_TOKEN);

    const overview = await b.send(overviewRoute, "/api/app-config");
    const overviewText = await overview.text();
    expect(overviewText).not.toMatch(RAW_TOKEN);
    expect(JSON.parse(overviewText)).toMatchObject({ backend: "manifest-api", configToken });
  });

  it("refuses a pair whose refresh token was already used, keeps nothing, and asks for a new paste", async () => {
    const b = console.browser();
    const pair = await issueConfigToken(console);
    const spent = await fetch(`${console.emulatorOrigin}/emulator/api/tooling.tokens.rotate`, {
      method: "POST",
      body: new URLSearchParams({ refresh_token: pair.refresh_token }),
    });
    expect(await spent.json()).toMatchObject({ ok: true });

    const response = await paste(b, pair);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: "config_token_refused", message: expect.stringContaining("Paste a new app configuration token") });
    expect(b.cookies.has("sb_appcfg")).toBe(false);
  });

  it("refuses what is not a configuration token pair before asking the platform anything", async () => {
    const b = console.browser();
    const response = await b.send(tokenRoute, "/api/app-config/token", {
      method: "POST",
      // A bot token's shape (made up, and put together here so that no token-like literal is committed).
      json: { token: ["xoxb", "1234567890", "abcdefghij"].join("-"), refreshToken: "xoxe-1-abcdefghijkl" },
    });
    expect(response.status).toBe(422);
    expect(b.cookies.has("sb_appcfg")).toBe(false);
  });
});

describe("a kept configuration token", () => {
  it("answers a clear error when its cookie was tampered with, and clears it", async () => {
    const b = console.browser();
    expect((await paste(b, await issueConfigToken(console))).status).toBe(200);
    const seal = b.cookies.get("sb_appcfg")!;
    b.cookies.set("sb_appcfg", `${seal.slice(0, 40)}${seal[40] === "A" ? "B" : "A"}${seal.slice(41)}`);

    const response = await openSettings(b);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "config_token_unreadable", message: expect.stringContaining("paste a configuration token again") });
    expect(b.cookies.has("sb_appcfg")).toBe(false);
    // Nothing kept now: back to the emulator's admin surface.
    expect(((await (await b.send(overviewRoute, "/api/app-config")).json()) as AppConfigOverview).backend).toBe("emulator-admin");
  });

  it("is rotated and the call retried when the platform's clock has moved 12 hours on", async () => {
    const b = console.browser();
    const pasted = ((await (await paste(b, await issueConfigToken(console))).json()) as { configToken: ConfigTokenView }).configToken;
    await console.admin("clock", { advance_s: TWELVE_HOURS_S });

    const response = await openSettings(b);
    expect(response.status).toBe(200);
    const { configToken } = (await response.json()) as AppSettingsView;
    expect(configToken!.maskedToken).not.toBe(pasted.maskedToken);
    const tokens = await configTokens();
    expect(tokens.find((t) => t.masked === pasted.maskedToken)?.state).toBe("expired");
    expect(tokens.find((t) => t.masked === pasted.maskedRefreshToken)?.used_at).not.toBeNull();
    expect(tokens.find((t) => t.masked === configToken!.maskedToken)?.state).toBe("active");
  });

  it("is rotated before it expires by this server's clock, once for concurrent requests, and a cookie sent back late spends nothing", async () => {
    const b = console.browser();
    const pasted = ((await (await paste(b, await issueConfigToken(console))).json()) as { configToken: ConfigTokenView }).configToken;
    const stale = b.fork();
    const issuedBefore = (await configTokens()).length;

    const later = Date.now() + (TWELVE_HOURS_S - 300) * 1000;
    vi.spyOn(Date, "now").mockImplementation(() => later);
    const answers = await Promise.all([b.fork(), b.fork(), b.fork(), b.fork(), b].map((tab) => openSettings(tab)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const seen = new Set(await Promise.all(answers.map(async (a) => ((await a.json()) as AppSettingsView).configToken!.maskedToken)));
    expect(seen.size).toBe(1);
    expect([...seen][0]).not.toBe(pasted.maskedToken);
    // One rotation: one new pair, and the refresh token (with no grace period) never sent a second time.
    expect((await configTokens()).length).toBe(issuedBefore + 2);

    const late = await openSettings(stale);
    expect(late.status).toBe(200);
    expect(((await late.json()) as AppSettingsView).configToken!.maskedToken).toBe([...seen][0]);
    expect((await configTokens()).length).toBe(issuedBefore + 2);
  });

  it("asks for a new paste, and forgets the pair, when the platform refuses its refresh token", async () => {
    const b = console.browser();
    expect((await paste(b, await issueConfigToken(console))).status).toBe(200);
    // The emulator forgets every token, as a platform would after the token was revoked.
    await console.admin("reset", {});

    const response = await b.send(rotateRoute, "/api/app-config/token/rotate", { method: "POST" });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: "config_token_refused", message: expect.stringContaining("invalid_refresh_token") });
    expect(b.cookies.has("sb_appcfg")).toBe(false);
  });

  it("rotates on request, and is forgotten on request", async () => {
    const b = console.browser();
    const pasted = ((await (await paste(b, await issueConfigToken(console))).json()) as { configToken: ConfigTokenView }).configToken;
    const rotated = await b.send(rotateRoute, "/api/app-config/token/rotate", { method: "POST" });
    expect(rotated.status).toBe(200);
    expect(((await rotated.json()) as { configToken: ConfigTokenView }).configToken.maskedToken).not.toBe(pasted.maskedToken);

    expect((await b.send(forgetRoute, "/api/app-config/token", { method: "DELETE" })).status).toBe(200);
    expect(b.cookies.has("sb_appcfg")).toBe(false);
  });
});

describe("the emulator's Generate Token helper", () => {
  it("seals a new pair without the browser ever seeing it", async () => {
    const b = console.browser();
    const response = await b.send(generateRoute, "/api/app-config/token/generate", { method: "POST" });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toMatch(RAW_TOKEN);
    expect(JSON.parse(text)).toMatchObject({ configToken: { maskedToken: expect.stringMatching(/^xoxe\.xoxp-…/) } });
    expect(b.cookies.has("sb_appcfg")).toBe(true);
    expect((await openSettings(b)).status).toBe(200);
  });
});
