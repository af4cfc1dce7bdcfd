import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryRefreshCoordinator, type RefreshCoordinator } from "@/lib/rotation/refresh-coordinator";
import { RedisRefreshCoordinator } from "@/lib/rotation/redis-refresh-coordinator";
import { startRedis, type TestRedis } from "../support/redis";

/**
 * What every RefreshCoordinator promises, run against each implementation. `instances(n)` gives the
 * coordinators of n server instances that should coordinate with each other: for the in-memory one that
 * is one process, so the same object; for Redis, separate connections to one Redis.
 */
interface Implementation {
  name: string;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  instances(n: number, resultTtlMs: number): RefreshCoordinator[];
}

let redis: TestRedis;
const redisCoordinators: RedisRefreshCoordinator[] = [];

const PASSWORDS = { "1": randomBytes(32).toString("base64url") };

const implementations: Implementation[] = [
  {
    name: "InMemoryRefreshCoordinator",
    async setup() {},
    async teardown() {},
    instances(n, resultTtlMs) {
      const coordinator = new InMemoryRefreshCoordinator(resultTtlMs);
      return Array.from({ length: n }, () => coordinator);
    },
  },
  {
    name: "RedisRefreshCoordinator",
    async setup() {
      redis = await startRedis();
    },
    async teardown() {
      await Promise.all(redisCoordinators.map((c) => c.close()));
      await redis?.stop();
    },
    instances(n, resultTtlMs) {
      // A prefix per call keeps the tests apart in one Redis.
      const keyPrefix = `contract:${randomBytes(6).toString("hex")}:`;
      return Array.from({ length: n }, () => {
        const coordinator = new RedisRefreshCoordinator({ url: redis.url, passwords: PASSWORDS, resultTtlMs, lockTtlMs: 5_000, keyPrefix });
        redisCoordinators.push(coordinator);
        return coordinator;
      });
    },
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MINUTE_MS = 60_000;

describe.each(implementations)("$name (refresh coordinator contract)", (implementation) => {
  beforeAll(() => implementation.setup());
  afterAll(() => implementation.teardown());

  it("runs fn once for twenty concurrent callers of one key, and all get its result", async () => {
    const [coordinator] = implementation.instances(1, MINUTE_MS);
    let runs = 0;
    const refresh = async () => {
      runs++;
      await sleep(50);
      return { value: "new-access", refreshToken: "new-refresh", expiresAt: 123 };
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => coordinator!.run("key-1", refresh)));
    expect(runs).toBe(1);
    for (const result of results) expect(result).toEqual({ value: "new-access", refreshToken: "new-refresh", expiresAt: 123 });
  });

  it("runs fn once for concurrent callers spread over three instances", async () => {
    const coordinators = implementation.instances(3, MINUTE_MS);
    let runs = 0;
    const refresh = async () => {
      runs++;
      await sleep(100);
      return "the new pair";
    };
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => coordinators[i % 3]!.run("key-2", refresh)));
    expect(runs).toBe(1);
    expect(results).toEqual(Array(30).fill("the new pair"));
  });

  it("gives a late caller the kept result instead of running again", async () => {
    const [first, second] = implementation.instances(2, MINUTE_MS);
    expect(await first!.run("key-3", async () => "first")).toBe("first");
    let ranAgain = false;
    expect(
      await second!.run("key-3", async () => {
        ranAgain = true;
        return "second";
      }),
    ).toBe("first");
    expect(ranAgain).toBe(false);
  });

  it("shares a failure with the concurrent callers, keeps nothing, and lets the next call try again", async () => {
    const [coordinator] = implementation.instances(1, MINUTE_MS);
    let runs = 0;
    const failing = async () => {
      runs++;
      await sleep(30);
      throw new Error("upstream down");
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => coordinator!.run("key-4", failing)));
    expect(outcomes.map((o) => o.status)).toEqual(Array(5).fill("rejected"));
    expect(runs).toBe(1);
    expect(await coordinator!.lookup("key-4")).toBeUndefined();
    expect(await coordinator!.run("key-4", async () => "recovered")).toBe("recovered");
  });

  it("finds the result by lookup within its lifetime and nothing after it", async () => {
    const [coordinator, other] = implementation.instances(2, 1_000);
    expect(await coordinator!.lookup("key-5")).toBeUndefined();
    await coordinator!.run("key-5", async () => ({ value: "kept" }));
    expect(await coordinator!.lookup("key-5")).toEqual({ value: "kept" });
    expect(await other!.lookup("key-5")).toEqual({ value: "kept" });
    await sleep(1_300);
    expect(await coordinator!.lookup("key-5")).toBeUndefined();
    expect(await other!.lookup("key-5")).toBeUndefined();
    expect(await coordinator!.run("key-5", async () => ({ value: "next" }))).toEqual({ value: "next" });
  });

  it("keeps a result for keepForMs when a run asks for less than the coordinator's lifetime, on every instance", async () => {
    const [coordinator, other] = implementation.instances(2, MINUTE_MS);
    await coordinator!.run("key-6", async () => "short-lived", { keepForMs: 1_000 });
    expect(await other!.lookup("key-6")).toBe("short-lived");
    await sleep(1_300);
    expect(await coordinator!.lookup("key-6")).toBeUndefined();
    expect(await other!.lookup("key-6")).toBeUndefined();
    expect(await other!.run("key-6", async () => "asked again")).toBe("asked again");
  });

  it("keeps each key's result apart", async () => {
    const [coordinator] = implementation.instances(1, MINUTE_MS);
    const [a, b] = await Promise.all([coordinator!.run("key-a", async () => "for a"), coordinator!.run("key-b", async () => "for b")]);
    expect([a, b]).toEqual(["for a", "for b"]);
    expect(await coordinator!.lookup("key-a")).toBe("for a");
    expect(await coordinator!.lookup("key-b")).toBe("for b");
  });
});
