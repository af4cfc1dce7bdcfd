/**
 * Issue 23, item 1, as a shared suite: a configuration refresh token the platform has spent must not hand
 * out the live pair through the console, whichever emulator stands in for the platform. `platform` gives
 * the test's way to the emulator (its admin surface) and a browser on the console.
 */
import { expect, it } from "vitest";
import { GET as settingsRoute } from "@/app/api/app-config/apps/[appId]/route";
import { POST as rotateRoute } from "@/app/api/app-config/token/rotate/route";
import { POST as tokenRoute } from "@/app/api/app-config/token/route";
import type { ConfigTokenView } from "@/lib/app-config/universal/types";
import type { TestBrowser } from "../../support/console";

export interface SpentTokenPlatform {
  browser(): TestBrowser;
  admin<T>(path: string, body?: unknown): Promise<T>;
  appId(): Promise<string>;
}

const TWO_HOURS_S = 7_200;

const paste = (b: TestBrowser, pair: { token: string; refresh_token: string }) =>
  b.send(tokenRoute, "/api/app-config/token", { method: "POST", json: { token: pair.token, refreshToken: pair.refresh_token } });
const rotateNow = (b: TestBrowser) => b.send(rotateRoute, "/api/app-config/token/rotate", { method: "POST" });
const configTokenOf = async (response: Response) => ((await response.json()) as { configToken: ConfigTokenView }).configToken;

export function spentRefreshTokenSuite(platform: () => SpentTokenPlatform) {
  it("refuses a pasted refresh token the platform spent (grace period over) and hands out nothing of the live pair", async () => {
    const p = platform();
    const pair = await p.admin<{ token: string; refresh_token: string }>("config-tokens", {});
    const owner = p.browser();
    const first = await paste(owner, pair);
    expect(first.status).toBe(200);
    const live = await configTokenOf(first);

    // Two hours on by the platform's clock: the pasted refresh token was spent long ago.
    await p.admin("clock", { advance_s: TWO_HOURS_S });
    const stranger = p.browser();
    const again = await paste(stranger, pair);
    const text = await again.text();
    expect(again.status).toBe(409);
    expect(JSON.parse(text)).toMatchObject({ error: "config_token_refused", message: expect.stringContaining("invalid_refresh_token") });
    expect(text).not.toContain(live.maskedToken.slice(-4));
    expect(text).not.toContain(live.maskedRefreshToken.slice(-4));
    expect(stranger.cookies.size).toBe(0);

    // The person who pasted it first still has the live pair.
    const appId = await p.appId();
    const settings = await owner.send(settingsRoute, `/api/app-config/apps/${appId}`, { params: { appId } });
    expect(settings.status).toBe(200);
    expect(((await settings.json()) as { configToken: ConfigTokenView }).configToken.maskedToken).toBe(live.maskedToken);
  });

  it("spends the kept refresh token once for concurrent rotations, and rotates the newest pair after the grace period", async () => {
    const p = platform();
    const owner = p.browser();
    expect((await paste(owner, await p.admin("config-tokens", {}))).status).toBe(200);
    // Two tabs press Rotate at once: one rotation, both see its pair.
    const [one, two] = await Promise.all([rotateNow(owner), rotateNow(p.browser())]);
    expect([one.status, two.status]).toEqual([200, 200]);
    const [first, second] = await Promise.all([configTokenOf(one), configTokenOf(two)]);
    expect(second.maskedToken).toBe(first.maskedToken);

    // Past the grace period (60 s, the emulator's), the store still holds the newest pair, so it rotates.
    await p.admin("clock", { advance_s: 61 });
    const later = await rotateNow(p.browser());
    expect(later.status).toBe(200);
    expect((await configTokenOf(later)).maskedToken).not.toBe(first.maskedToken);
  });
}
