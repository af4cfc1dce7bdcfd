import { describe, expect, it } from "vitest";
import { isConsoleError } from "@/lib/http/app-error";
import { MAX_WALKS_PER_PROCESS, MAX_WALKS_PER_SESSION, WalkLimits } from "@/lib/call/walk-limits";

const refusal = (admit: () => unknown) => {
  try {
    admit();
  } catch (error) {
    return error;
  }
  throw new Error("the walk was admitted");
};

describe("the console's bounds on Fetch all walks", () => {
  it("admits 2 walks per session and 20 per process, and refuses the next with 429 too_many_walks and Retry-After", () => {
    expect([MAX_WALKS_PER_SESSION, MAX_WALKS_PER_PROCESS]).toEqual([2, 20]);
    const limits = new WalkLimits();
    const releases = Array.from({ length: 10 }, (_, s) => [limits.admit(`s${s}`), limits.admit(`s${s}`)]).flat();
    expect(limits.runningWalks).toBe(20);

    const sessionFull = refusal(() => limits.admit("s0"));
    expect(isConsoleError(sessionFull, "too_many_walks")).toBe(true);
    expect((sessionFull as { message: string }).message).toMatch(/installation already has 2 Fetch all walks/);
    const processFull = refusal(() => limits.admit("a new session"));
    expect(isConsoleError(processFull, "too_many_walks")).toBe(true);
    expect((processFull as { status: number; headers: Record<string, string> }).status).toBe(429);
    expect(Number((processFull as { headers: Record<string, string> }).headers["Retry-After"])).toBeGreaterThan(0);

    // A walk that ends gives its place back, once however often it says so.
    releases[0]!();
    releases[0]!();
    expect(limits.runningWalks).toBe(19);
    limits.admit("a new session");
    expect(() => limits.admit("another")).toThrow();
    releases[1]!();
    expect(limits.admit("s0")).toBeTypeOf("function");
  });
});
