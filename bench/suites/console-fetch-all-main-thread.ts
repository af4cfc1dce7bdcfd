/**
 * (i) The browser's main thread during a Fetch all of 1,000 small pages (users.list, limit 2) in Chromium:
 * the longest task while the walk runs, from a trace of the page's main thread (bench/chromium-trace.ts):
 * its wall time, and its thread time (the CPU the task itself used).
 * Also the tasks of 50 ms and more that Chromium's long-task observer reports, and the longest gap between
 * animation frames. A person presses Cancel between tasks, so the longest task is how long Cancel can go
 * unanswered (issue 22, item 6: one task of 3.5 s).
 */
import { chromium } from "playwright-core";
import { MAIN_THREAD_TRACE_CATEGORIES, mainThreadTasks } from "../chromium-trace";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { browserCookies, CHROMIUM_ARGS, CHROMIUM_PATH, installThroughConsole, ORIGIN, resetWorkspace, startConsole } from "./console-server";

const PAGES = benchSetting("BENCH_MAIN_THREAD_PAGES", 1_000, 100);
const LIMIT = 2;
const ROUNDS = benchSetting("BENCH_MAIN_THREAD_ROUNDS", 3, 1);

/**
 * Installed before the page's own scripts: records every long task and the time between animation frames
 * from the moment `window.__walk.start()` is called. A string, not a function: the bench runs through tsx,
 * whose helpers would not exist in the page.
 */
const OBSERVER_SCRIPT = `(() => {
  const walk = { recording: false, longTasks: [], frameGaps: [] };
  window.__walk = walk;
  new PerformanceObserver((list) => {
    if (!walk.recording) return;
    for (const entry of list.getEntries()) walk.longTasks.push(entry.duration);
  }).observe({ type: "longtask", buffered: false });
  let last = 0;
  const frame = (t) => {
    if (walk.recording && last !== 0) walk.frameGaps.push(t - last);
    last = t;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  walk.start = () => { walk.recording = true; walk.longTasks = []; walk.frameGaps = []; };
  walk.stop = () => { walk.recording = false; return { longTasks: walk.longTasks, frameGaps: walk.frameGaps }; };
})();`;

interface Round {
  ms: number;
  longTasks: number[];
  frameGaps: number[];
  /** The main thread's longest task by wall time, and by thread (CPU) time, in ms. */
  longestWall: { wall: number; cpu: number };
  longestCpu: { wall: number; cpu: number };
}

export const consoleFetchAllMainThreadSuite: BenchSuite = {
  name: `console: the browser's main thread during a fetch all of ${PAGES.toLocaleString("en-US")} pages of ${LIMIT} (longest task)`,
  async run() {
    await startConsole();
    // The emulator sends short pages now and then, as the platform may: with twice the members the pages
    // hold, the walk always stops at its page cap, PAGES pages.
    await resetWorkspace(PAGES * LIMIT * 2);
    const session = await installThroughConsole();
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const rounds: Round[] = [];
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addCookies(browserCookies(session.cookie));
      await context.addInitScript(OBSERVER_SCRIPT);
      for (let round = 0; round < ROUNDS; round++) {
        const page = await context.newPage();
        await page.goto(`${ORIGIN}/explorer?method=users.list&as=bot&p.limit=${LIMIT}&installation=${encodeURIComponent(session.installationId)}`);
        await page.getByRole("button", { name: "Fetch all", exact: true }).waitFor();
        await page.getByLabel("Page cap").fill(String(PAGES));
        // The link's method is a read, so the page sends it once on load: its answer is rendered before the
        // trace starts, which then holds the walk and nothing of the page's own loading.
        await page.getByTestId("row-count").waitFor();
        await page.evaluate("new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100)))");
        await page.evaluate("window.__walk.start()");
        await browser.startTracing(page, { categories: MAIN_THREAD_TRACE_CATEGORIES });
        const started = performance.now();
        await page.getByRole("button", { name: "Fetch all", exact: true }).click();
        await page.getByText(/Stopped at the page cap/).waitFor({ timeout: 300_000 });
        const ms = performance.now() - started;
        // The frame after the last page's render, so that its task is counted too.
        await page.evaluate("new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100)))");
        const recorded = (await page.evaluate("window.__walk.stop()")) as { longTasks: number[]; frameGaps: number[] };
        const tasks = mainThreadTasks(await browser.stopTracing());
        if (tasks.length === 0) throw new Error("the trace holds no task of the page's main thread");
        const longestWall = tasks.reduce((a, b) => (b.wall > a.wall ? b : a));
        const longestCpu = tasks.reduce((a, b) => (b.cpu > a.cpu ? b : a));
        const pages = await page.getByTestId("fetch-all-pages").textContent();
        if (Number(pages?.replace(/\D/g, "")) !== PAGES) throw new Error(`the walk showed ${pages} pages, expected ${PAGES}`);
        rounds.push({ ms, ...recorded, longestWall, longestCpu });
        await page.close();
      }
    } finally {
      await browser.close();
      await resetWorkspace(3000);
    }
    const longest = (xs: number[]) => (xs.length === 0 ? 0 : Math.max(...xs));
    const ms = (x: number) => `${x.toFixed(0)} ms`;
    console.log(`  users.list, ${PAGES.toLocaleString("en-US")} pages of ${LIMIT}, ${ROUNDS} rounds (a fresh tab each); main-thread tasks from a trace:`);
    for (const [i, r] of rounds.entries()) {
      const observed = r.longTasks.length === 0 ? "none of 50 ms or more" : `${r.longTasks.length} of 50 ms or more`;
      console.log(
        `    round ${i + 1}: walk ${(r.ms / 1000).toFixed(2)} s; longest task ${ms(r.longestWall.wall)} wall (${ms(r.longestWall.cpu)} CPU); most CPU in one task ${ms(r.longestCpu.cpu)} (${ms(r.longestCpu.wall)} wall); long-task observer: ${observed}; longest gap between frames ${ms(longest(r.frameGaps))}`,
      );
    }
    console.log(
      `    over all rounds: longest task ${ms(longest(rounds.map((r) => r.longestWall.wall)))} wall, most CPU in one task ${ms(longest(rounds.map((r) => r.longestCpu.cpu)))}  (goal: longest task < 50 ms)`,
    );
  },
};
