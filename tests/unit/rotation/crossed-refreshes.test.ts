import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { getConfig } from "@/lib/config";
import { RequestCookieJar, runWithCookieJar } from "@/lib/http/cookie-jar";
import { maskToken } from "@/lib/platform";
import { getSessionInstallations } from "@/lib/installations/list-installations";
import { InMemoryRefreshCoordinator, type RefreshCoordinator } from "@/lib/rotation/refresh-coordinator";
import { RedisRefreshCoordinator } from "@/lib/rotation/redis-refresh-coordinator";
import { type InstallationRecord } from "@/lib/installations/record";
import { REFRESH_RESULT_TTL_MS } from "@/lib/rotation/refresh-coordinator";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { startRedis, type TestRedis } from "../support/redis";

// Two console instances behind one origin share Redis and SESSION_PASSWORD; the platform (the emulator,
// served over HTTP as a standalone server) answers users.list slowly. Both tokens are due together: the
// refresh window is as long as a token lives, so a call refreshes the kind it uses before calling.
const HOUR_MS = 3600_000;
const COORDINATOR = Symbol.for("switchboard.refreshCoordinator");
let redis: TestRedis;
let testConsole: TestConsole;
let inspector: Redis;
const instances: RedisRefreshCoordinator[] = [];

beforeAll(async () => {
  redis = await startRedis();
  // No grace period upstream: a spent refresh token fails at once, so a stale cookie shows at its next use.
  testConsole = await startTestConsole({ REDIS_URL: redis.url, REFRESH_WINDOW_S: "43200" }, { refreshGraceSeconds: 0 });
  inspector = new Redis(redis.url);
  for (let i = 0; i < 2; i++) {
    instances.push(
      new RedisRefreshCoordinator({ url: redis.url, passwords: getConfig().sessionPasswords, resultTtlMs: REFRESH_RESULT_TTL_MS, lockTtlMs: 10_000 }),
    );
  }
});
afterAll(async () => {
  await Promise.all(instances.map((c) => c.close()));
  inspector?.disconnect();
  await testConsole?.close();
  await redis?.stop();
});
beforeEach(async () => {
  await admin("reset", {});
  await inspector.flushall();
});

async function admin(path: string, body: unknown) {
  const response = await fetch(`${testConsole.origin}/emulator/admin/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: testConsole.origin },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`admin/${path}: ${response.status} ${await response.text()}`);
}

/** Which instance serves the next request: its coordinator becomes the process's (both share Redis). */
function on(instance: RefreshCoordinator) {
  (globalThis as Record<symbol, RefreshCoordinator>)[COORDINATOR] = instance;
}

async function storedIn(browser: TestBrowser): Promise<InstallationRecord> {
  const [installation] = await runWithCookieJar(new RequestCookieJar(browser.request("/")), () => getSessionInstallations());
  if (!installation) throw new Error("no installation");
  return installation;
}

/** The refresh tokens the platform has seen used (spent), by their masked value. */
async function spentRefreshTokens(): Promise<Set<string>> {
  const state = (await (await fetch(`${testConsole.origin}/emulator/admin/state`, { headers: { origin: testConsole.origin } })).json()) as {
    tokens: { kind: string; masked: string; used_at: string | null }[];
  };
  return new Set(state.tokens.filter((t) => t.kind === "refresh" && t.used_at !== null).map((t) => t.masked));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const call = (browser: TestBrowser, id: string, method: string, token: "bot" | "user") =>
  browser.fork().send(callRoute, `/api/call/${method}?installation=${id}&token=${token}`, { params: { method } });

describe("a slow bot call on one instance and a user call on another, same cookie, both tokens due", () => {
  for (const offsetMs of [300, 900, 1500]) {
    it(`leaves only unspent refresh tokens in the cookie the browser keeps (user call ${offsetMs} ms later), and a call after the kept results are gone works`, async () => {
      on(instances[0]!);
      const browser = new TestBrowser(testConsole.origin);
      expect((await installIn(browser)).status).toBe(303);
      const id = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] }).installations[0]!.id;
      await admin("faults", { latency_ms: 2000, methods: ["users.list"] });

      // A: the bot token refreshes, then users.list takes 2 s. B, on the other instance, refreshes the user token meanwhile.
      on(instances[0]!);
      const slowBotCall = call(browser, id, "users.list", "bot");
      await sleep(offsetMs);
      on(instances[1]!);
      const userCall = call(browser, id, "auth.test", "user");
      const finished = [await userCall, await slowBotCall];
      // The browser keeps the cookie that arrives last: the slow bot call's.
      for (const response of finished) {
        expect(response.status).toBe(200);
        expect(response.headers.get("x-token-refreshed")).toBe("1");
        browser.absorb(response);
      }
      const kept = await storedIn(browser);
      const spent = await spentRefreshTokens();
      expect(spent.has(maskToken(kept.bot!.refreshToken!))).toBe(false);
      expect(spent.has(maskToken(kept.user!.refreshToken!))).toBe(false);

      // Every kept refresh result gone (as if they had expired): the cookie alone must still work.
      await admin("faults", { latency_ms: 0, methods: [] });
      await inspector.flushall();
      on(new InMemoryRefreshCoordinator());
      for (const kind of ["user", "bot"] as const) {
        const later = await call(browser, id, "auth.test", kind);
        expect(later.status).toBe(200);
        expect(((await later.json()) as { ok: boolean }).ok).toBe(true);
        browser.absorb(later);
      }
    });
  }
});

describe("a stale cookie that comes back long after", () => {
  it("still finds the pair that replaced its refresh token, days later", async () => {
    let now = Date.now();
    const coordinator = new InMemoryRefreshCoordinator(REFRESH_RESULT_TTL_MS, () => now);
    on(coordinator);
    const browser = new TestBrowser(testConsole.origin);
    expect((await installIn(browser)).status).toBe(303);
    const id = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] }).installations[0]!.id;
    // A response computed before the user token's refresh, and carried to the browser after it.
    const stale = browser.fork();
    const refreshed = await call(browser, id, "auth.test", "user");
    expect(refreshed.headers.get("x-token-refreshed")).toBe("1");
    browser.absorb(refreshed);
    browser.cookies.clear();
    for (const [k, v] of stale.cookies) browser.cookies.set(k, v);

    // Three days on, the stale cookie is used: its user refresh token was spent by the refresh above.
    now += 3 * 24 * HOUR_MS;
    const later = await call(browser, id, "auth.test", "user");
    expect(later.status).toBe(200);
    expect(((await later.json()) as { ok: boolean }).ok).toBe(true);
  });
});
