import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { ConfigError, getConfig, parseConfig } from "@/lib/config";
import { isAppError } from "@/lib/http/app-error";
import { RequestCookieJar, runWithCookieJar } from "@/lib/http/cookie-jar";
import { callWithFreshToken, refreshInstallationToken } from "@/lib/rotation/freshness";
import { getRefreshCoordinator } from "@/lib/rotation/process-refresh-coordinator";
import { getSessionInstallations } from "@/lib/installations/list-installations";
import { RedisRefreshCoordinator } from "@/lib/rotation/redis-refresh-coordinator";
import { refreshTokenKey } from "@/lib/rotation/refresh-coordinator";
import { type InstallationRecord } from "@/lib/installations/record";
import { getRotationRuntime, type RotationRuntime } from "@/lib/rotation/runtime";
import { emulatorState, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { freePort, startRedis, type TestRedis } from "../support/redis";

const HOUR_MS = 3600_000;
let redis: TestRedis;
let testConsole: TestConsole;
let inspector: Redis;
const opened: RedisRefreshCoordinator[] = [];

beforeAll(async () => {
  redis = await startRedis();
  // No grace period upstream: a second use of a refresh token fails at once, so only real coordination passes.
  testConsole = await startTestConsole({ REDIS_URL: redis.url }, { refreshGraceSeconds: 0 });
  inspector = new Redis(redis.url);
});
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  const global = getRefreshCoordinator();
  if (global instanceof RedisRefreshCoordinator) await global.close();
  inspector?.disconnect();
  await testConsole?.close();
  await redis?.stop();
});
beforeEach(async () => {
  await fetch(`${testConsole.origin}/emulator/admin/reset`, {
    method: "POST",
    headers: { origin: testConsole.origin, "content-type": "application/json" },
    body: "{}",
  });
  await inspector.flushall();
});

/** The coordinator of one more server instance: its own connection to the shared Redis. */
function serverInstance(options: { url?: string; lockTtlMs?: number; commandTimeoutMs?: number } = {}): RedisRefreshCoordinator {
  const coordinator = new RedisRefreshCoordinator({
    url: options.url ?? redis.url,
    passwords: getConfig().sessionPasswords,
    resultTtlMs: 10 * 60_000,
    lockTtlMs: options.lockTtlMs ?? 10_000,
    ...(options.commandTimeoutMs ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
  });
  opened.push(coordinator);
  return coordinator;
}

function runtimeOf(coordinator: RedisRefreshCoordinator): RotationRuntime {
  return { ...getRotationRuntime(), coordinator };
}

async function installed(): Promise<{ browser: TestBrowser; id: string; installation: InstallationRecord }> {
  const browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser)).status).toBe(303);
  const session = (await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] };
  const jar = new RequestCookieJar(browser.request("/"));
  const [installation] = await runWithCookieJar(jar, () => getSessionInstallations());
  if (!installation) throw new Error("no installation");
  return { browser, id: session.installations[0]?.id ?? "", installation };
}

async function refreshGrants(): Promise<number> {
  const state = await emulatorState(testConsole.origin);
  return state.installations.reduce((sum, i) => sum + i.refresh_grants, 0);
}

/** Every key in Redis with its value (strings only: the coordinator keeps nothing else). */
async function redisContents(): Promise<{ key: string; value: string }[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await inspector.scan(cursor, "COUNT", 100);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  return Promise.all(keys.map(async (key) => ({ key, value: (await inspector.get(key)) ?? "" })));
}

describe("several instances sharing one Redis", () => {
  it("refresh once upstream for concurrent calls with an expired token through two instances, and every call answers ok", async () => {
    const { installation } = await installed();
    const instances = [runtimeOf(serverInstance()), runtimeOf(serverInstance())];
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => callWithFreshToken(installation, { tokenKind: "bot", method: "auth.test" }, instances[i % 2]!)),
    );
    expect(outcomes.every((o) => o.result.ok)).toBe(true);
    expect(outcomes.every((o) => o.refreshed)).toBe(true);
    expect(new Set(outcomes.map((o) => o.installation.bot?.value)).size).toBe(1);
    expect(await refreshGrants()).toBe(1);
  });

  it("gives a late request on the other instance, holding the old refresh token, the same new pair", async () => {
    const { installation } = await installed();
    const first = await refreshInstallationToken(installation, "bot", runtimeOf(serverInstance()));
    const late = await refreshInstallationToken(installation, "bot", runtimeOf(serverInstance()));
    expect(first.outcome).toBe("refreshed");
    expect(late.outcome).toBe("refreshed");
    expect(late.installation.bot).toEqual(first.installation.bot);
    expect(await refreshGrants()).toBe(1);
  });

  it("keeps only hashed keys and sealed values in Redis: no token in clear", async () => {
    const { installation } = await installed();
    const outcome = await refreshInstallationToken(installation, "bot", runtimeOf(serverInstance()));
    const secrets = [installation.bot?.value, installation.bot?.refreshToken, outcome.installation.bot?.value, outcome.installation.bot?.refreshToken];
    const oldRefreshToken = installation.bot?.refreshToken ?? "";
    const contents = await redisContents();
    expect(contents.length).toBeGreaterThan(0);
    for (const { key, value } of contents) {
      expect(key).not.toMatch(/xox/);
      expect(key).not.toContain(refreshTokenKey(oldRefreshToken));
      expect(value).not.toMatch(/xox/);
      for (const secret of secrets) expect(value).not.toContain(secret);
      // iron-session's seal format.
      expect(value).toMatch(/^Fe26\.2\*/);
    }
  });

  it("hands the refresh to a waiter when the holder's lock expires (a crashed instance)", async () => {
    const stuck = serverInstance({ lockTtlMs: 300 });
    const survivor = serverInstance({ lockTtlMs: 300 });
    void stuck.run("crash-key", () => new Promise<string>(() => {}));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await survivor.run("crash-key", async () => "refreshed by the survivor")).toBe("refreshed by the survivor");
  });

  it("uses Redis for the console's routes when REDIS_URL is set: fifty concurrent calls, one refresh", async () => {
    expect(getRefreshCoordinator()).toBeInstanceOf(RedisRefreshCoordinator);
    const { browser, id } = await installed();
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => browser.fork().send(callRoute, `/api/call/auth.test?installation=${id}&token=bot`, { params: { method: "auth.test" } })),
    );
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as { ok: boolean }[];
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(bodies.every((b) => b.ok)).toBe(true);
    expect(await refreshGrants()).toBe(1);
    expect((await redisContents()).some(({ key }) => key.startsWith("switchboard:refresh:result:"))).toBe(true);
  });
});

describe("Redis unreachable", () => {
  async function expectUnavailable(coordinator: RedisRefreshCoordinator) {
    let ran = false;
    const error = await coordinator
      .run("down-key", async () => {
        ran = true;
        return "refreshed without coordination";
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(ran).toBe(false);
    expect(isAppError(error) && error.status).toBe(503);
    expect(isAppError(error) && error.code).toBe("refresh_coordination_unavailable");
    expect((error as Error).message).toMatch(/refresh coordination unavailable/);
  }

  it("fails with a clear 503 instead of refreshing uncoordinated when nothing listens", async () => {
    await expectUnavailable(serverInstance({ url: `redis://127.0.0.1:${await freePort()}`, commandTimeoutMs: 500 }));
  });

  it("fails with a clear 503 when Redis stops after the instance connected", async () => {
    const ownRedis = await startRedis();
    try {
      const coordinator = serverInstance({ url: ownRedis.url, commandTimeoutMs: 500 });
      expect(await coordinator.run("up-key", async () => "while up")).toBe("while up");
      await ownRedis.stop();
      await expectUnavailable(coordinator);
    } finally {
      await ownRedis.stop();
    }
  });

  it("fails a call whose token expired with the 503, and spends no refresh token upstream", async () => {
    const { installation } = await installed();
    const ownRedis = await startRedis();
    const coordinator = serverInstance({ url: ownRedis.url, commandTimeoutMs: 500 });
    await ownRedis.stop();
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);
    const error = await callWithFreshToken(installation, { tokenKind: "bot", method: "auth.test" }, runtimeOf(coordinator)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAppError(error) && error.status).toBe(503);
    expect(await refreshGrants()).toBe(0);
  });
});

describe("REDIS_URL", () => {
  it("takes redis:// and rediss:// URLs, and says how to write one when it is something else", () => {
    expect(parseConfig({ REDIS_URL: "redis://cache.internal:6379/2" }).redisUrl).toBe("redis://cache.internal:6379/2");
    expect(parseConfig({ REDIS_URL: "rediss://user:pw@cache.internal:6380" }).redisUrl).toBe("rediss://user:pw@cache.internal:6380");
    expect(parseConfig({ REDIS_URL: "" }).redisUrl).toBeUndefined();
    expect(() => parseConfig({ REDIS_URL: "http://cache.internal:6379" })).toThrow(ConfigError);
    expect(() => parseConfig({ REDIS_URL: "http://cache.internal:6379" })).toThrow(/REDIS_URL: must use redis:\/\/ or rediss:\/\//);
  });
});
