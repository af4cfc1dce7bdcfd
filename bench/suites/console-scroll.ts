/**
 * (d) Scrolling the explorer's table of 100,000 members in Chromium: the 95th-percentile frame time while a
 * script scrolls it a screenful per frame. Chromium runs without its 60 Hz cap (--disable-frame-rate-limit,
 * --disable-gpu-vsync), so the time between requestAnimationFrame callbacks is the time a frame took
 * (script, style, layout, paint) rather than the display's refresh interval.
 */
import { chromium } from "playwright-core";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import {
  browserCookies,
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  installThroughConsole,
  ORIGIN,
  percentile,
  resetWorkspace,
  startConsole,
  stopConsole,
} from "./console-server";

const MEMBERS = benchSetting("BENCH_SCROLL_USERS", 100_000, 2_000);
const FRAMES = benchSetting("BENCH_SCROLL_FRAMES", 600, 60);

/**
 * Scrolls the table one screenful per frame for `frames` frames and returns the time between frames. A
 * string, not a function: the bench runs through tsx, whose helpers would not exist in the page.
 */
const scrollScript = (frames: number) => `new Promise((done) => {
  const scroller = document.querySelector('[data-testid="results-scroll"]');
  const step = scroller.clientHeight;
  const deltas = [];
  let last = 0;
  const frame = (t) => {
    if (last !== 0) deltas.push(t - last);
    last = t;
    if (deltas.length >= ${frames}) return done(deltas);
    scroller.scrollTop = (scroller.scrollTop + step) % (scroller.scrollHeight - scroller.clientHeight);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`;

export const consoleScrollSuite: BenchSuite = {
  name: `console: scrolling the ${MEMBERS.toLocaleString("en-US")}-row members table (p95 frame time)`,
  async run() {
    await startConsole();
    await resetWorkspace(MEMBERS);
    const session = await installThroughConsole();
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, "--disable-frame-rate-limit", "--disable-gpu-vsync"],
    });
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addCookies(browserCookies(session.cookie));
      const page = await context.newPage();
      await page.goto(`${ORIGIN}/explorer?method=users.list&as=bot&p.limit=1000&installation=${encodeURIComponent(session.installationId)}`);
      await page.getByRole("button", { name: "Fetch all", exact: true }).click();
      await page.getByText("Every page fetched").waitFor({ timeout: 240_000 });
      const rows = await page.getByTestId("row-count").textContent();
      const frames = (await page.evaluate(scrollScript(FRAMES))) as number[];
      frames.sort((a, b) => a - b);
      console.log(`    table: ${rows}; ${FRAMES} frames, each scrolled one screenful (~30 rows) further`);
      console.log(
        `    frame time  p50 ${percentile(frames, 50).toFixed(2)} ms   p95 ${percentile(frames, 95).toFixed(2)} ms   max ${frames.at(-1)!.toFixed(2)} ms  (goal: p95 < 16 ms)`,
      );
    } finally {
      await browser.close();
      await resetWorkspace(3000);
      stopConsole();
    }
  },
};
