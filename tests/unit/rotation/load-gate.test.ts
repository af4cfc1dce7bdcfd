import { describe, expect, it } from "vitest";
import { asRequestRefresh, LoadGate, watchEventLoopDelay } from "@/lib/installations/rotation/load-gate";

/**
 * Issue 43: a backlog of every token at once must drain without starving the console's own requests. The
 * refresher's gate lets at most REFRESHER_CONCURRENCY refreshes be under way, fewer while the event loop lags
 * (halved at each late window, never below its floor), one more at each window that keeps up.
 */

/** Takes `n` turns and answers how many were given at once (the rest wait). */
async function take(gate: LoadGate, n: number): Promise<{ given: () => number }> {
  let given = 0;
  for (let i = 0; i < n; i++) void gate.acquire().then(() => given++);
  await Promise.resolve();
  await Promise.resolve();
  return { given: () => given };
}

describe("the refresher's load gate", () => {
  it("gives at most its bound at once while the loop keeps up, and the next turn when one is given back", async () => {
    const gate = new LoadGate({ bound: 4, floor: 1, targetMs: 20 });
    const turns = await take(gate, 6);
    expect(turns.given()).toBe(4);
    expect(gate.inFlight).toBe(4);
    gate.release();
    await Promise.resolve();
    expect(turns.given()).toBe(5);
    expect(gate.inFlight).toBe(4);
  });

  it("halves what it allows at each window the loop lags, never below its floor, and never takes a turn back", async () => {
    const gate = new LoadGate({ bound: 16, floor: 4, targetMs: 20 });
    const turns = await take(gate, 20);
    expect(turns.given()).toBe(16);
    gate.adjust(35);
    expect(gate.allowed).toBe(8);
    gate.adjust(500);
    expect(gate.allowed).toBe(4);
    gate.adjust(500);
    expect(gate.allowed).toBe(4);
    // The 16 under way finish; only the floor's worth of waiters go on.
    for (let i = 0; i < 16; i++) gate.release();
    await Promise.resolve();
    expect(gate.inFlight).toBe(4);
    expect(turns.given()).toBe(20);
  });

  it("lets one more at each window that keeps up, back to its bound, and the waiters go as it does", async () => {
    const gate = new LoadGate({ bound: 6, floor: 2, targetMs: 20 });
    gate.adjust(100);
    gate.adjust(100);
    expect(gate.allowed).toBe(2);
    const turns = await take(gate, 6);
    expect(turns.given()).toBe(2);
    gate.adjust(20);
    await Promise.resolve();
    expect(gate.allowed).toBe(3);
    expect(turns.given()).toBe(3);
    for (let i = 0; i < 5; i++) gate.adjust(0);
    await Promise.resolve();
    expect(gate.allowed).toBe(6);
    expect(turns.given()).toBe(6);
  });

  it("makes room for a refresh a request waits for: the refresher starts one fewer until it ends, never fewer than its floor", async () => {
    const gate = new LoadGate({ bound: 4, floor: 2, targetMs: 20 });
    let endRequests!: () => void;
    const requestsEnd = new Promise<void>((resolve) => (endRequests = resolve));
    const requests = [1, 2, 3].map(() => asRequestRefresh(() => requestsEnd));
    const turns = await take(gate, 4);
    // Three requests' refreshes under way: the bound less three is one, the floor keeps two.
    expect(turns.given()).toBe(2);
    endRequests();
    await Promise.all(requests);
    await Promise.resolve();
    expect(turns.given()).toBe(4);
  });

  it("reads a blocked event loop as lag beyond the target", async () => {
    const windows: number[] = [];
    const stop = watchEventLoopDelay(400, (lag) => windows.push(lag));
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      // A refresh's worth of synchronous work, far longer than any timer's resolution.
      const until = performance.now() + 150;
      while (performance.now() < until);
      await expect.poll(() => windows.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
      expect(Math.max(...windows)).toBeGreaterThan(100);
    } finally {
      stop();
    }
  });
});
