/** The timers and animation frames a publisher waits on: the browser's, or a test's virtual clock. */
export interface PublishScheduler {
  now(): number;
  /** Runs `fn` after `ms`; the function returned cancels it. */
  after(ms: number, fn: () => void): () => void;
  /** Runs `fn` in the next animation frame, just before the browser paints; the function returned cancels it. */
  frame(fn: () => void): () => void;
}

const BROWSER: PublishScheduler = {
  now: () => performance.now(),
  after(ms, fn) {
    const id = setTimeout(fn, ms);
    return () => clearTimeout(id);
  },
  frame(fn) {
    const id = requestAnimationFrame(fn);
    return () => cancelAnimationFrame(id);
  },
};

/**
 * Calls `publish` at most once per `intervalMs` however often `request` is called, in an animation frame:
 * a walk of small pages asks on every page, hundreds of times a second, and a render for each (or even one
 * a frame) kept the main thread busy for little a person can read; counts that change ten times a second
 * still look live. The first request after a quiet spell is shown in the next frame, and the last request
 * is always published, later if it must. `flush` publishes now (a walk's last word).
 */
export function progressPublisher(publish: () => void, intervalMs: number, scheduler: PublishScheduler = BROWSER) {
  let last = -Infinity;
  let pending: (() => void) | null = null;
  const run = () => {
    pending = null;
    last = scheduler.now();
    publish();
  };
  const cancel = () => {
    pending?.();
    pending = null;
  };
  return {
    request() {
      if (pending) return;
      const wait = last + intervalMs - scheduler.now();
      if (wait <= 0) {
        pending = scheduler.frame(run);
        return;
      }
      let cancelFrame: (() => void) | null = null;
      const cancelTimer = scheduler.after(wait, () => {
        cancelFrame = scheduler.frame(run);
      });
      pending = () => (cancelFrame ? cancelFrame() : cancelTimer());
    },
    flush() {
      cancel();
      run();
    },
    cancel,
  };
}
