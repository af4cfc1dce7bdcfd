import { describe, expect, it } from "vitest";
import { RefreshLockTimeoutError } from "@/lib/store";
import { processRefreshLock } from "@/lib/store/refresh-lock";

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

describe("the in-process refresh lock", () => {
  it("keeps the queue's order when a waiter in the middle gives up: the one behind it still waits for the holder", async () => {
    const withLock = processRefreshLock();
    const events: string[] = [];
    let release!: () => void;
    const holding = new Promise<void>((resolve) => (release = resolve));
    const holder = withLock("k", async () => {
      events.push("holder in");
      await holding;
      events.push("holder out");
    });
    await tick();
    const impatient = withLock("k", async () => events.push("impatient in"), { waitMs: 50 });
    const patient = withLock("k", async () => events.push("patient in"), { waitMs: 5_000 });
    await expect(impatient).rejects.toBeInstanceOf(RefreshLockTimeoutError);
    await tick(100);
    expect(events).toEqual(["holder in"]);
    release();
    await Promise.all([holder, patient]);
    expect(events).toEqual(["holder in", "holder out", "patient in"]);
  });

  it("gives the lock back when the holder throws", async () => {
    const withLock = processRefreshLock();
    await expect(withLock("k", async () => Promise.reject(new Error("upstream failed")))).rejects.toThrow("upstream failed");
    expect(await withLock("k", async () => "next", { waitMs: 100 })).toBe("next");
  });
});
