import { describe, expect, it } from "vitest";
import { callMethod, platformClockFor } from "@/lib/platform";
import { PlatformClock, skewRangeFromDate } from "@/lib/platform/platform-clock";
import { readUpstreamAbout } from "@/lib/platform/upstream-about";

const LOCAL = Date.UTC(2026, 10, 25, 12, 0, 0, 400);
const HOUR = 3_600_000;
/** A server clock that stands still unless a test moves it. */
function localClock() {
  let now = LOCAL;
  return { now: () => now, set: (ms: number) => void (now = ms) };
}
const httpDate = (ms: number) => new Date(ms).toUTCString();

describe("the platform clock's skew, read from an answer's Date header", () => {
  it("follows a Date ahead of the server: the platform's time is the server's plus the skew", () => {
    const local = localClock();
    const clock = new PlatformClock(local.now);
    expect(clock.observeDate(httpDate(LOCAL + 12.5 * HOUR), LOCAL - 20, LOCAL)).toBe(true);
    expect(Math.abs(clock.now() - (LOCAL + 12.5 * HOUR))).toBeLessThan(1000);
    local.set(LOCAL + 60_000);
    expect(Math.abs(clock.now() - (LOCAL + 12.5 * HOUR + 60_000))).toBeLessThan(1000);
  });

  it("follows a Date behind the server", () => {
    const clock = new PlatformClock(localClock().now);
    clock.observeDate(httpDate(LOCAL - 5 * 60_000), LOCAL - 20, LOCAL);
    expect(clock.skewMs()).toBeLessThan(-5 * 60_000 + 1000);
    expect(clock.skewMs()).toBeGreaterThan(-5 * 60_000 - 1000);
  });

  it("keeps its skew when a Date is missing or garbled, and has none before any answer", () => {
    const clock = new PlatformClock(localClock().now);
    expect(clock.skewMs()).toBe(0);
    expect(clock.lastObservedAt()).toBeUndefined();
    clock.observeDate(httpDate(LOCAL + HOUR), LOCAL, LOCAL);
    const skew = clock.skewMs();
    for (const date of [null, undefined, "", "yesterday-ish", "Thu, 99 Foo 2026 25:61:00 GMT", httpDate(LOCAL + 300 * 365 * 24 * HOUR)]) {
      expect(clock.observeDate(date, LOCAL, LOCAL), String(date)).toBe(false);
      expect(clock.skewMs()).toBe(skew);
    }
    expect(skewRangeFromDate("garbled", LOCAL, LOCAL)).toBeUndefined();
  });

  it("does not jitter: an answer whose Date, rounded to the second, allows the current skew leaves it alone", () => {
    const local = localClock();
    const clock = new PlatformClock(local.now);
    // The platform's clock is the server's: each second's Date, truncated, still allows a skew of zero.
    for (let i = 0; i < 20; i++) {
      const at = LOCAL + i * 137;
      local.set(at);
      expect(clock.observeDate(httpDate(at - 10), at - 15, at)).toBe(false);
    }
    expect(clock.skewMs()).toBe(0);
    expect(clock.lastObservedAt()).toBe(LOCAL + 19 * 137);
  });

  it("takes the platform's time to the millisecond when an emulator says it so", () => {
    const clock = new PlatformClock(localClock().now);
    clock.observeTime(LOCAL + 45_000_000, LOCAL - 4, LOCAL);
    expect(Math.abs(clock.skewMs() - 45_000_000)).toBeLessThanOrEqual(4);
  });

  it("is fed by every answer callMethod gets", async () => {
    const baseUrl = "http://platform-clock.test/emulator";
    const ahead = Date.now() + 13 * HOUR;
    await callMethod({
      baseUrl,
      method: "auth.test",
      transport: async () => Response.json({ ok: false, error: "not_authed" }, { headers: { date: httpDate(ahead) } }),
    });
    expect(Math.abs(platformClockFor(baseUrl).now() - (Date.now() + 13 * HOUR))).toBeLessThan(1500);
  });
});

describe("asking the upstream whether it is an emulator", () => {
  it("takes a 404 (the real platform) as no emulator, and still reads its Date", async () => {
    const baseUrl = "http://platform-about.test";
    const about = await readUpstreamAbout(baseUrl, {
      timeoutMs: 1000,
      transport: async () => new Response("<html>not found</html>", { status: 404, headers: { date: httpDate(Date.now() - 2 * HOUR) } }),
    });
    expect(about).toEqual({ emulator: false });
    expect(platformClockFor(baseUrl).skewMs()).toBeLessThan(-2 * HOUR + 1500);
  });
});
