/**
 * The app configuration token as the console keeps it: pasted, rotated at once, sealed in the server's store
 * and never answered; rotated with tooling.tokens.rotate before it expires, or when the platform's clock says
 * it has; its single-use refresh token spent once however many requests need it; and a clear request for a
 * new paste when the refresh token can no longer be used.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as overviewRoute } from "@/app/api/app-config/route";
import { GET as settingsRoute } from "@/app/api/app-config/apps/[appId]/route";
import { POST as generateRoute } from "@/app/api/app-config/token/generate/route";
import { POST as rotateRoute } from "@/app/api/app-config/token/rotate/route";
import { DELETE as forgetRoute, POST as tokenRoute } from "@/app/api/app-config/token/route";
import type { AppConfigOverview, AppSettingsView, ConfigTokenView } from "@/lib/app-config/universal/types";
import { maskToken } from "@/lib/platform";
import { getStore } from "@/lib/store";
import type { TestBrowser } from "../support/console";
import { forgetConfigToken, openTestStore } from "../support/store";
import { issueConfigToken, RAW_TOKEN, startAppConfigConsole, type AppConfigConsole } from "./support/console";

const TWELVE_HOURS_S = 43_200;
let console: AppConfigConsole;
let appId: string;

beforeAll(async () => {
  // No grace period: a refresh token sent twice is refused at once, so a second use cannot go unnoticed.
  console = await startAppConfigConsole("emulator", { refreshGraceSeconds: 0 });
  await openTestStore();
  appId = (await console.appIds()).rotation;
});
afterAll(() => console.close());
// Each test starts with no pair kept (the console's operator owns the one pair there is).
beforeEach(() => forgetConfigToken());
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
  it("rotates the pair at once and keeps the new one sealed in the store, in no cookie; answers show it masked only", async () => {
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

    expect(response.headers.getSetCookie()).toEqual([]);
    const kept = await (await getStore()).configTokens.get(null);
    expect(kept && maskToken(kept.token)).toBe(configToken.maskedToken);

    // Another browser of the console's operator finds it kept.
    const overview = await console.browser().send(overviewRoute, "/api/app-config");
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
    expect(await (await getStore()).configTokens.get(null)).toBeNull();
  });

  it("refuses what is not a configuration token pair before asking the platform anything", async () => {
    const b = console.browser();
    const response = await b.send(tokenRoute, "/api/app-config/token", {
      method: "POST",
      // A bot token's shape (made up, and put together here so that no token-like literal is committed).
      json: { token: ["xoxb", "1234567890", "abcdefghij"].join("-"), refreshToken: "xoxe-1-abcdefghijkl" },
    });
    expect(response.status).toBe(422);
    expect(await (await getStore()).configTokens.get(null)).toBeNull();
  });
});

describe("a kept configuration token", () => {
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

  it("is rotated before it expires by this server's clock, once for concurrent requests, and a request after them spends nothing", async () => {
    const b = console.browser();
    const pasted = ((await (await paste(b, await issueConfigToken(console))).json()) as { configToken: ConfigTokenView }).configToken;
    const another = console.browser();
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

    const late = await openSettings(another);
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
    expect(await (await getStore()).configTokens.get(null)).toBeNull();
  });

  it("rotates on request, and is forgotten on request", async () => {
    const b = console.browser();
    const pasted = ((await (await paste(b, await issueConfigToken(console))).json()) as { configToken: ConfigTokenView }).configToken;
    const rotated = await b.send(rotateRoute, "/api/app-config/token/rotate", { method: "POST" });
    expect(rotated.status).toBe(200);
    expect(((await rotated.json()) as { configToken: ConfigTokenView }).configToken.maskedToken).not.toBe(pasted.maskedToken);

    expect((await b.send(forgetRoute, "/api/app-config/token", { method: "DELETE" })).status).toBe(200);
    expect(await (await getStore()).configTokens.get(null)).toBeNull();
    expect(((await (await b.send(overviewRoute, "/api/app-config")).json()) as AppConfigOverview).backend).toBe("emulator-admin");
  });
});

describe("the emulator's Generate Token helper", () => {
  it("keeps a new pair sealed in the store without the browser ever seeing it", async () => {
    const b = console.browser();
    const response = await b.send(generateRoute, "/api/app-config/token/generate", { method: "POST" });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toMatch(RAW_TOKEN);
    expect(JSON.parse(text)).toMatchObject({ configToken: { maskedToken: expect.stringMatching(/^xoxe\.xoxp-…/) } });
    expect(b.cookies.size).toBe(0);
    expect(await (await getStore()).configTokens.get(null)).not.toBeNull();
    expect((await openSettings(b)).status).toBe(200);
  });
});
