import { describe, expect, it } from "vitest";
import { progressPublisher, type PublishScheduler } from "@/lib/explorer/progress-publisher";

/** A browser's timers on a clock the test moves. */
function virtualBrowser() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const scheduler: PublishScheduler = {
    now: () => now,
    after(ms, fn) {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return () => timers.delete(id);
    },
  };
  /** Moves the clock to `to`, running the timers due on the way, in order. */
  const advance = (to: number) => {
    for (;;) {
      const due = [...timers].filter(([, t]) => t.at <= to).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      now = Math.max(now, due[1].at);
      timers.delete(due[0]);
      due[1].fn();
    }
    now = to;
  };
  return { scheduler, advance, pending: () => timers.size };
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

    // At most one publication per 100 ms (the first may come at once), where one a page would be 1,000.
    expect(published.length).toBeLessThanOrEqual(2000 / 100 + 2);
    expect(published.length).toBeGreaterThanOrEqual(15);
    // What was asked last is shown: the last publication came after the last page.
    expect(published.at(-1)).toBe(1000);
    expect(browser.pending()).toBe(0);
  });

  it("shows the first change after a quiet spell at once, and flush publishes at once", () => {
    const browser = virtualBrowser();
    const published: number[] = [];
    const publisher = progressPublisher(() => published.push(browser.scheduler.now()), 100, browser.scheduler);
    browser.advance(1000);
    publisher.request();
    publisher.request();
    browser.advance(1020);
    expect(published).toEqual([1000]);

    // A request inside the interval waits for it; flush (a walk's last word) does not, and cancels the wait.
    publisher.request();
    browser.advance(1050);
    expect(published).toEqual([1000]);
    publisher.flush();
    expect(published).toEqual([1000, 1050]);
    browser.advance(1500);
    expect(published).toEqual([1000, 1050]);
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
