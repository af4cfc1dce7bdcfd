/**
 * (g) The explorer's method picker in Chromium: the time from a keystroke to the frame that shows the
 * filtered list, over the whole catalog, for queries typed a character at a time (and erased again). Each
 * keystroke is the input event the browser sends, dispatched in the page so that no automation round trip
 * is counted; the time runs until the frame after React has rendered the list. Chromium runs without its
 * 60 Hz cap, so waiting for that frame costs the frame itself, not the display's refresh interval.
 */
import { chromium } from "playwright-core";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { browserCookies, CHROMIUM_ARGS, CHROMIUM_PATH, installThroughConsole, ORIGIN, percentile, startConsole } from "./console-server";

const ROUNDS = benchSetting("BENCH_PICKER_ROUNDS", 5, 1);
const QUERIES = ["conversations.history", "post message", "users", "admin.apps.requests.list", "cnvhist", "files.remote", "oauth.v2.exchange", "reminders"];

/** Types each query a character at a time, then erases it, and returns each keystroke's time (ms). */
const typeScript = (queries: string[], rounds: number) => `(async () => {
  const input = document.querySelector('[role="combobox"]');
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const times = [];
  input.focus();
  const key = async (text) => {
    const started = performance.now();
    setValue.call(input, text);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    await frame();
    times.push(performance.now() - started);
  };
  for (let round = 0; round < ${rounds}; round++) {
    for (const query of ${JSON.stringify(queries)}) {
      for (let i = 1; i <= query.length; i++) await key(query.slice(0, i));
      for (let i = query.length - 1; i >= 0; i--) await key(query.slice(0, i));
    }
  }
  return { times, options: Number(document.querySelector('[role="option"]')?.getAttribute("aria-setsize") ?? 0) };
})()`;

export const consolePickerSuite: BenchSuite = {
  name: "console: the explorer's method picker, time per keystroke over the whole catalog (Chromium)",
  async run() {
    await startConsole();
    const session = await installThroughConsole();
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, "--disable-frame-rate-limit", "--disable-gpu-vsync"] });
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addCookies(browserCookies(session.cookie));
      const page = await context.newPage();
      await page.goto(`${ORIGIN}/explorer`);
      // The catalog has loaded once the method field says what users.list does.
      await page.getByText("Lists all users in a Slack team.").waitFor();
      const { times, options } = (await page.evaluate(typeScript(QUERIES, ROUNDS))) as { times: number[]; options: number };
      times.sort((a, b) => a - b);
      console.log(`    ${times.length} keystrokes (${QUERIES.length} queries typed and erased, ${ROUNDS} rounds); the empty query lists ${options} methods`);
      console.log(
        `    keystroke to frame  p50 ${percentile(times, 50).toFixed(2)} ms   p95 ${percentile(times, 95).toFixed(2)} ms   max ${times.at(-1)!.toFixed(2)} ms  (goal: p95 < 16 ms)`,
      );
    } finally {
      await browser.close();
    }
  },
};
