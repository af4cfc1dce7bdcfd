import { describe, expect, it } from "vitest";
import { pruneWaits } from "@/lib/installations/rotation/refresher";

// The background refresher keeps, per process, each failing token's backoff and each rate-limited
// installation's Retry-After. At 100,000 installations neither may grow with every token that ever waited.
describe("the refresher's waits", () => {
  it("forgets Retry-Afters that have passed and backoffs long over, keeps those still running", () => {
    const now = 1_000_000_000;
    const rateLimited = new Map([
      ["I-past", now - 1],
      ["I-now", now],
      ["I-later", now + 30_000],
    ]);
    const backoff = new Map([
      ["long-over", { failures: 3, retryAt: now - 60 * 60_000 }],
      ["just-due", { failures: 1, retryAt: now - 1_000 }],
      ["waiting", { failures: 2, retryAt: now + 15_000 }],
    ]);
    pruneWaits({ backoff, rateLimited }, now);
    expect([...rateLimited.keys()]).toEqual(["I-later"]);
    expect([...backoff.keys()]).toEqual(["just-due", "waiting"]);
  });

  it("keeps at most 100,000 of each, the oldest set dropped first", () => {
    const now = 1_000_000_000;
    const rateLimited = new Map(Array.from({ length: 100_010 }, (_, n) => [`I${n}`, now + 60_000] as [string, number]));
    const backoff = new Map(
      Array.from({ length: 100_010 }, (_, n) => [`T${n}`, { failures: 1, retryAt: now + 60_000 }] as [string, { failures: number; retryAt: number }]),
    );
    pruneWaits({ backoff, rateLimited }, now);
    expect(rateLimited.size).toBe(100_000);
    expect(backoff.size).toBe(100_000);
    expect(rateLimited.has("I0")).toBe(false);
    expect(rateLimited.has("I100009")).toBe(true);
  });
});
