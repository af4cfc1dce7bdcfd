/** The timers a publisher waits on: the browser's, or a test's virtual clock. */
export interface PublishScheduler {
  now(): number;
  /** Runs `fn` in a task of its own after `ms`; the function returned cancels it. */
  after(ms: number, fn: () => void): () => void;
}

const BROWSER: PublishScheduler = {
  now: () => performance.now(),
  after(ms, fn) {
    const id = setTimeout(fn, ms);
    return () => clearTimeout(id);
  },
};

/**
 * Calls `publish` at most once per `intervalMs` however often `request` is called: a walk of small pages
 * asks on every page, hundreds of times a second, and a render for each (or even one a frame) kept the main
 * thread busy for little a person can read; counts that change ten times a second still look live. The
 * first request after a quiet spell is published in the next task, and the last request always is, later
 * if it must. `flush` publishes now (a walk's last word).
 *
 * A task of its own, not an animation frame: the render then runs apart from the style, layout and paint
 * of the frame that shows it, where in a frame callback both made one task (the walk's first rows, some
 * 40 ms of a busy machine's CPU, were the longest task of a walk).
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
      pending = scheduler.after(Math.max(0, last + intervalMs - scheduler.now()), run);
    },
    flush() {
      cancel();
      run();
    },
    cancel,
  };
}
