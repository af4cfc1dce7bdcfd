/**
 * Issue 23, item 1, as a shared suite: a configuration refresh token the platform has spent must not hand
 * out the live pair through the console, whichever emulator stands in for the platform. `platform` gives
 * the test's way to the emulator (its admin surface) and a browser on the console.
 */
import { expect, it } from "vitest";
import { GET as settingsRoute } from "@/app/api/app-config/apps/[appId]/route";
import { POST as rotateRoute } from "@/app/api/app-config/token/rotate/route";
import { POST as tokenRoute } from "@/app/api/app-config/token/route";
import type { ConfigTokenView } from "@/lib/app-config/types";
import { InMemoryRefreshCoordinator, type RefreshCoordinator } from "@/lib/rotation/refresh-coordinator";
import { REFRESH_RESULT_TTL_MS } from "@/lib/rotation/refresh-coordinator";
import type { TestBrowser } from "../../support/console";

export interface SpentTokenPlatform {
  browser(): TestBrowser;
  admin<T>(path: string, body?: unknown): Promise<T>;
  appId(): Promise<string>;
}

const COORDINATOR = Symbol.for("switchboard.refreshCoordinator");
const TWO_HOURS_S = 7_200;

/** The console's coordinator from now on, with a clock the test moves (as the console's own would move). */
function coordinatorAt(clock: { now: number }): RefreshCoordinator {
  const coordinator = new InMemoryRefreshCoordinator(REFRESH_RESULT_TTL_MS, () => clock.now);
  (globalThis as Record<symbol, RefreshCoordinator>)[COORDINATOR] = coordinator;
  return coordinator;
}

const paste = (b: TestBrowser, pair: { token: string; refresh_token: string }) =>
  b.send(tokenRoute, "/api/app-config/token", { method: "POST", json: { token: pair.token, refreshToken: pair.refresh_token } });
const rotateNow = (b: TestBrowser) => b.send(rotateRoute, "/api/app-config/token/rotate", { method: "POST" });
const configTokenOf = async (response: Response) => ((await response.json()) as { configToken: ConfigTokenView }).configToken;

export function spentRefreshTokenSuite(platform: () => SpentTokenPlatform) {
  it("refuses a pasted refresh token the platform spent (grace period over) and hands out nothing of the live pair", async () => {
    const p = platform();
    coordinatorAt({ now: Date.now() });
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

  it("keeps a rotation of its own for late requests no longer than the platform's grace period", async () => {
    const p = platform();
    const clock = { now: Date.now() };
    coordinatorAt(clock);
    const owner = p.browser();
    expect((await paste(owner, await p.admin("config-tokens", {}))).status).toBe(200);
    const stale = owner.fork();
    const rotated = await rotateNow(owner);
    expect(rotated.status).toBe(200);
    const current = await configTokenOf(rotated);

    // A moment later, a request still holding the cookie from before gets the same new pair.
    const late = stale.fork();
    const moment = await rotateNow(late);
    expect(moment.status).toBe(200);
    expect((await configTokenOf(moment)).maskedToken).toBe(current.maskedToken);

    // Past the grace period (60 s, the console's REFRESH_GRACE_S and the emulator's), on both clocks.
    clock.now += 61_000;
    await p.admin("clock", { advance_s: 61 });
    const tooLate = await rotateNow(stale);
    const text = await tooLate.text();
    expect(tooLate.status).toBe(409);
    expect(JSON.parse(text)).toMatchObject({ error: "config_token_refused" });
    expect(text).not.toContain(current.maskedToken.slice(-4));
    expect(stale.cookies.has("sb_appcfg")).toBe(false);
  });
}
