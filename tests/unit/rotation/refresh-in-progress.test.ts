import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { getConfig } from "@/lib/config";
import { RequestCookieJar, runWithCookieJar } from "@/lib/http/cookie-jar";
import { getSessionInstallations } from "@/lib/installations/list-installations";
import { InMemoryRefreshCoordinator, refreshTokenKey, type RefreshCoordinator } from "@/lib/rotation/refresh-coordinator";
import { RedisRefreshCoordinator } from "@/lib/rotation/redis-refresh-coordinator";
import { REFRESH_RESULT_TTL_MS } from "@/lib/rotation/refresh-coordinator";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { startRedis, type TestRedis } from "../support/redis";

// Issue 23, item 6: a call that joins a refresh another request holds, and waits as long as a request may,
// answers 503 refresh_in_progress with Retry-After: the platform was not slow, another holder was.
const HOUR_MS = 3600_000;
const COORDINATOR = Symbol.for("switchboard.refreshCoordinator");
let redis: TestRedis;
let testConsole: TestConsole;
const opened: RedisRefreshCoordinator[] = [];

beforeAll(async () => {
  redis = await startRedis();
  testConsole = await startTestConsole({ UPSTREAM_TIMEOUT_MS: "500" }, { refreshGraceSeconds: 60 });
});
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await testConsole?.close();
  await redis?.stop();
});
beforeEach(async () => {
  await admin("reset", {});
});

async function admin(path: string, body: unknown) {
  const response = await fetch(`${testConsole.origin}/emulator/admin/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: testConsole.origin },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`admin/${path}: ${response.status} ${await response.text()}`);
}

/** The coordinator of the instance that serves the next request. */
function on(instance: RefreshCoordinator) {
  (globalThis as Record<symbol, RefreshCoordinator>)[COORDINATOR] = instance;
}

function redisInstance(): RedisRefreshCoordinator {
  const coordinator = new RedisRefreshCoordinator({
    url: redis.url,
    passwords: getConfig().sessionPasswords,
    resultTtlMs: REFRESH_RESULT_TTL_MS,
    lockTtlMs: 10_000,
  });
  opened.push(coordinator);
  return coordinator;
}

async function installed(): Promise<{ browser: TestBrowser; id: string; botRefreshToken: string }> {
  const browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser)).status).toBe(303);
  const id = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] }).installations[0]!.id;
  const [installation] = await runWithCookieJar(new RequestCookieJar(browser.request("/")), () => getSessionInstallations());
  return { browser, id, botRefreshToken: installation!.bot!.refreshToken! };
}

const call = (browser: TestBrowser, id: string) =>
  browser.fork().send(callRoute, `/api/call/auth.test?installation=${id}&token=bot`, { params: { method: "auth.test" } });

async function expectRefreshInProgress(response: Response) {
  expect(response.status).toBe(503);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await response.json()).toMatchObject({
    ok: false,
    error: "refresh_in_progress",
    message: expect.stringContaining("Another request is refreshing this token"),
  });
}

describe("a call that needs a refresh another request holds", () => {
  it("answers 503 refresh_in_progress with Retry-After while another instance holds the lock (its process killed mid-refresh)", async () => {
    const { browser, id, botRefreshToken } = await installed();
    // Instance A took the refresh's lock and died before finishing: its lock stays until it expires.
    const killed = redisInstance();
    void killed.run(refreshTokenKey(botRefreshToken), () => new Promise<never>(() => {}));
    await new Promise((resolve) => setTimeout(resolve, 100));
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);

    on(redisInstance());
    const started = Date.now();
    await expectRefreshInProgress(await call(browser, id));
    expect(Date.now() - started).toBeLessThan(5_000);
    // Nothing was spent meanwhile: the installation still works once the holder is gone (here, a fresh coordinator).
    on(new InMemoryRefreshCoordinator());
    const later = await call(browser, id);
    expect(later.status).toBe(200);
    expect(((await later.json()) as { ok: boolean }).ok).toBe(true);
  });

  it("answers 503 refresh_in_progress to a request that joined a refresh of this process still waiting for the platform", async () => {
    on(new InMemoryRefreshCoordinator());
    const { browser, id } = await installed();
    await admin("faults", { latency_ms: 3_000, methods: ["oauth.v2.access"] });
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);

    // The request that started the refresh saw the platform not answer within UPSTREAM_TIMEOUT_MS: 504.
    const starter = call(browser, id);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const joiner = call(browser, id);
    const first = await starter;
    expect(first.status).toBe(504);
    expect(await first.json()).toMatchObject({ error: "upstream_timeout" });
    await expectRefreshInProgress(await joiner);

    // The refresh goes on in the background; once it lands, the next call gets its pair.
    await admin("faults", { latency_ms: 0, methods: [] });
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const later = await call(browser, id);
    expect(later.status).toBe(200);
    expect(((await later.json()) as { ok: boolean }).ok).toBe(true);
  });
});
