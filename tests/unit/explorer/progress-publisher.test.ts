import { describe, expect, it } from "vitest";
import { progressPublisher, type PublishScheduler } from "@/lib/explorer/progress-publisher";

/** A browser's timers and animation frames on a clock the test moves: a frame every 16 ms. */
function virtualBrowser() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const frames = new Map<number, () => void>();
  const scheduler: PublishScheduler = {
    now: () => now,
    after(ms, fn) {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return () => timers.delete(id);
    },
    frame(fn) {
      const id = nextId++;
      frames.set(id, fn);
      return () => frames.delete(id);
    },
  };
  /** Moves the clock to `to`, running the timers due and a frame at every multiple of 16 ms on the way. */
  const advance = (to: number) => {
    while (now < to) {
      const nextFrame = (Math.floor(now / 16) + 1) * 16;
      const due = [...timers].filter(([, t]) => t.at <= Math.min(nextFrame, to)).sort((a, b) => a[1].at - b[1].at)[0];
      if (due) {
        now = Math.max(now, due[1].at);
        timers.delete(due[0]);
        due[1].fn();
        continue;
      }
      if (nextFrame > to) {
        now = to;
        break;
      }
      now = nextFrame;
      const callbacks = [...frames.values()];
      frames.clear();
      for (const fn of callbacks) fn();
    }
  };
  return { scheduler, advance, pending: () => timers.size + frames.size };
}

describe("the publisher of a walk's progress", () => {
  it("publishes a walk of a thousand pages a few times a second, not once a page or once a frame", () => {
    const browser = virtualBrowser();
    const published: number[] = [];
    let pages = 0;
    const publisher = progressPublisher(() => published.push(pages), 100, browser.scheduler);
    // A page every 2 ms for 2 s: a thousand requests.
    for (let page = 1; page <= 1000; page++) {
      browser.advance(page * 2);
      pages = page;
      publisher.request();
    }
    browser.advance(2500);

    // At most one publication per 100 ms (the first may come at once), where a frame each would be 125.
    expect(published.length).toBeLessThanOrEqual(2000 / 100 + 2);
    expect(published.length).toBeGreaterThanOrEqual(15);
    // What was asked last is shown: the last publication came after the last page.
    expect(published.at(-1)).toBe(1000);
    expect(browser.pending()).toBe(0);
  });

  it("shows the first change after a quiet spell in the next frame, and flush publishes at once", () => {
    const browser = virtualBrowser();
    const published: number[] = [];
    const publisher = progressPublisher(() => published.push(browser.scheduler.now()), 100, browser.scheduler);
    browser.advance(1000);
    publisher.request();
    publisher.request();
    browser.advance(1020);
    expect(published).toEqual([1008]);

    // A request inside the interval waits for it; flush (a walk's last word) does not, and cancels the wait.
    publisher.request();
    browser.advance(1050);
    expect(published).toEqual([1008]);
    publisher.flush();
    expect(published).toEqual([1008, 1050]);
    browser.advance(1500);
    expect(published).toEqual([1008, 1050]);
  });

  it("publishes nothing more once cancelled", () => {
    const browser = virtualBrowser();
    let count = 0;
    const publisher = progressPublisher(() => count++, 100, browser.scheduler);
    publisher.request();
    publisher.cancel();
    browser.advance(1000);
    expect(count).toBe(0);
    expect(browser.pending()).toBe(0);
  });
});
