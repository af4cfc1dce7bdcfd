import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { GET as readyRoute } from "@/app/api/ready/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { startRedis, type TestRedis } from "../support/redis";

/**
 * Issue 28: GET /api/ready, what a load balancer asks each instance of the hosted shape, against a real
 * PostgreSQL and a real redis-server: ready while both answer, not ready (saying which failed and why) once
 * either is gone, and the store's and Redis's errors counted in the metrics.
 */
const METRICS_TOKEN = randomBytes(32).toString("base64url");
let postgres: TestPostgres;
let redis: TestRedis;
let testConsole: TestConsole;
let browser: TestBrowser;

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  testConsole = await startTestConsole({
    DATABASE_URL: await postgres.createDatabase("readiness"),
    REDIS_URL: redis.url,
    METRICS_TOKEN,
    BACKGROUND_REFRESH: "false",
  });
  browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser)).status).toBe(303);
}, 120_000);
afterAll(async () => {
  await testConsole?.close();
  await redis?.stop();
  await postgres?.stop();
});

interface ReadyBody {
  ready: boolean;
  shuttingDown: boolean;
  checks: Record<"store" | "redis", { ok: boolean; ms?: number; error?: string; skipped?: string }>;
}

async function ready(): Promise<{ status: number; body: ReadyBody }> {
  const response = await readyRoute();
  expect(response.headers.get("cache-control")).toBe("no-store");
  return { status: response.status, body: (await response.json()) as ReadyBody };
}

async function metric(series: string): Promise<number> {
  const text = await (await metricsRoute(new Request(`${testConsole.origin}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }))).text();
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("GET /api/ready", () => {
  it("answers 200 while the store and Redis both answer, with how long each took", async () => {
    const { status, body } = await ready();
    expect(status).toBe(200);
    expect(body).toMatchObject({ ready: true, shuttingDown: false, checks: { store: { ok: true }, redis: { ok: true } } });
    expect(body.checks.store.ms).toBeGreaterThanOrEqual(0);
    expect(body.checks.redis.ms).toBeLessThan(2_000);
  });

  it("answers 503 once Redis is gone, saying so, within its 2-second bound; the store still answers and Redis's errors are counted", async () => {
    const errorsBefore =
      (await metric('switchboard_redis_errors_total{source="publisher"}')) + (await metric('switchboard_redis_errors_total{source="subscriber"}'));
    await redis.stop();
    const started = Date.now();
    const { status, body } = await ready();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(status).toBe(503);
    expect(body.ready).toBe(false);
    expect(body.checks.store.ok).toBe(true);
    expect(body.checks.redis).toMatchObject({ ok: false, error: expect.any(String) });
    await expect
      .poll(
        async () =>
          (await metric('switchboard_redis_errors_total{source="publisher"}')) + (await metric('switchboard_redis_errors_total{source="subscriber"}')),
      )
      .toBeGreaterThan(errorsBefore);
  });

  it("answers 503 once PostgreSQL is gone, naming the store and never its password; the store's errors are counted", async () => {
    const before = await metric('switchboard_store_errors_total{kind="postgres"}');
    await postgres.stop();
    const { status, body } = await ready();
    expect(status).toBe(503);
    expect(body.checks.store).toMatchObject({
      ok: false,
      error: expect.stringMatching(/store \(PostgreSQL at 127\.0\.0\.1:\d+\/readiness \(DATABASE_URL\)\) is unavailable/),
    });
    expect(JSON.stringify(body)).not.toMatch(/postgres:\/\//);
    // What a person meets meanwhile: 503 store_unavailable, counted.
    expect((await browser.send(sessionRoute, "/api/session")).status).toBe(503);
    expect(await metric('switchboard_store_errors_total{kind="postgres"}')).toBeGreaterThan(before);
  });
});
