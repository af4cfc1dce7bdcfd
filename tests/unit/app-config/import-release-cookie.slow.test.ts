/**
 * Upgrading from the release before the store (b414481): the app configuration token pair it sealed in the
 * `sb_appcfg` cookie moves into the store on the first request that carries it, and the cookie is cleared.
 * Of two browsers' pairs, the one rotated later wins.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as overviewRoute } from "@/app/api/app-config/route";
import type { AppConfigOverview } from "@/lib/app-config/universal/types";
import { maskToken } from "@/lib/platform";
import { getStore } from "@/lib/store";
import { releaseConfigTokenCookie, type ReleaseConfigToken } from "../support/release-b414481-cookies";
import { forgetConfigToken, openTestStore } from "../support/store";
import { issueConfigToken, startAppConfigConsole, type AppConfigConsole } from "./support/console";

let console: AppConfigConsole;
beforeAll(async () => {
  console = await startAppConfigConsole("emulator");
  await openTestStore();
});
afterAll(() => console.close());
beforeEach(() => forgetConfigToken());

const password = () => process.env.SESSION_PASSWORD!;

/** A pair the emulator issued, as the previous release kept it after rotating it `rotatedAt`. */
async function keptPair(rotatedAt: number): Promise<ReleaseConfigToken> {
  const pair = await issueConfigToken(console);
  return { token: pair.token, refreshToken: pair.refresh_token, expiresAt: rotatedAt + 12 * 3600_000, rotatedAt };
}

async function overviewWith(cookie: [string, string]) {
  const browser = console.browser();
  browser.cookies.set(...cookie);
  const response = await browser.send(overviewRoute, "/api/app-config");
  return { browser, response };
}

describe("a configuration token sealed in a cookie by the previous release", () => {
  it("is imported into the store on the first request and its cookie cleared; the settings page then uses it", async () => {
    const pair = await keptPair(Date.now());
    const { browser, response } = await overviewWith(await releaseConfigTokenCookie(pair, password()));
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("sb_appcfg=;") && /Max-Age=0/.test(c))).toBe(true);
    expect(browser.cookies.has("sb_appcfg")).toBe(false);
    expect(await response.json()).toMatchObject({ backend: "manifest-api", configToken: { maskedToken: maskToken(pair.token) } });
    expect((await (await getStore()).configTokens.get(null))?.refreshToken).toBe(pair.refreshToken);
  });

  it("never replaces a pair rotated later with an older browser's", async () => {
    const newer = await keptPair(Date.now());
    const older = await keptPair(Date.now() - 3600_000);
    await overviewWith(await releaseConfigTokenCookie(newer, password()));
    const { response } = await overviewWith(await releaseConfigTokenCookie(older, password()));
    expect(((await response.json()) as AppConfigOverview).configToken?.maskedToken).toBe(maskToken(newer.token));
    // The other way round, the later one replaces the earlier.
    await forgetConfigToken();
    await overviewWith(await releaseConfigTokenCookie(older, password()));
    const { response: later } = await overviewWith(await releaseConfigTokenCookie(newer, password()));
    expect(((await later.json()) as AppConfigOverview).configToken?.maskedToken).toBe(maskToken(newer.token));
  });

  it("answers 400 config_token_unreadable for a cookie that does not unseal, with none kept, and clears it", async () => {
    const { browser, response } = await overviewWith(await releaseConfigTokenCookie(await keptPair(Date.now()), "q".repeat(40)));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "config_token_unreadable", message: expect.stringContaining("paste a configuration token again") });
    expect(browser.cookies.has("sb_appcfg")).toBe(false);
    expect(((await (await browser.send(overviewRoute, "/api/app-config")).json()) as AppConfigOverview).backend).toBe("emulator-admin");
  });
});
