import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { getRefreshCoordinator } from "@/lib/rotation/process-refresh-coordinator";
import { RedisRefreshCoordinator } from "@/lib/rotation/redis-refresh-coordinator";
import { emulatorState, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { freePort } from "../support/redis";

const HOUR_MS = 3600_000;
let testConsole: TestConsole;
beforeAll(async () => {
  // REDIS_URL points at a port where nothing listens: the Redis this deployment relies on is down.
  testConsole = await startTestConsole({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` }, { refreshGraceSeconds: 0 });
});
afterAll(async () => {
  const coordinator = getRefreshCoordinator();
  if (coordinator instanceof RedisRefreshCoordinator) await coordinator.close();
  await testConsole?.close();
});

describe("the console while its Redis is unreachable", () => {
  it("still answers calls whose token is fresh, then answers 503 for one that needs a refresh, keeping the cookie", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect((await installIn(browser)).status).toBe(303);
    const session = (await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] };
    const id = session.installations[0]?.id ?? "";
    const call = () => browser.send(callRoute, `/api/call/auth.test?installation=${id}&token=bot`, { params: { method: "auth.test" } });

    const fresh = await call();
    expect(fresh.status).toBe(200);

    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);
    const expired = await call();
    const body = (await expired.json()) as { ok: boolean; error: string; message: string };
    expect(expired.status).toBe(503);
    expect(expired.headers.get("retry-after")).toBe("5");
    expect(body).toMatchObject({ ok: false, error: "refresh_coordination_unavailable" });
    expect(body.message).toMatch(/refresh coordination unavailable/);
    expect(body.message).not.toMatch(/xox/);
    expect(expired.headers.getSetCookie()).toEqual([]);
    const state = await emulatorState(testConsole.origin);
    expect(state.installations.reduce((sum, i) => sum + i.refresh_grants, 0)).toBe(0);
  });
});
