/**
 * (issue 42) The explorer's lasting history in Chromium: the History page over 1,000 entries (paging
 * through them 100 at a time, then a method typed key by key into the search), and the compare view's
 * diff of two 1 MB answers (two JSON files, parsed and diffed in its Web Worker). For each, the main
 * thread's longest task from a trace (bench/chromium-trace.ts): wall time and thread (CPU) time. Goal: under
 * 50 ms each. The 1,000 entries are real calls made through /api/call, which records each one.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { MAIN_THREAD_TRACE_CATEGORIES, mainThreadTasks, type TraceTask } from "../chromium-trace";
import { expectOk } from "../http";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { browserCookies, CHROMIUM_ARGS, CHROMIUM_PATH, consoleHeaders, installThroughConsole, ORIGIN, startConsole } from "./console-server";

const ENTRIES = benchSetting("BENCH_HISTORY_ENTRIES", 1_000, 60);
const ROUNDS = benchSetting("BENCH_HISTORY_ROUNDS", 3, 1);
const ANSWER_BYTES = benchSetting("BENCH_HISTORY_DIFF_BYTES", 1_000_000, 100_000);
const CALLS = [
  ["auth.test", {}],
  ["users.list", { limit: "5" }],
  ["conversations.list", { limit: "5" }],
  ["team.info", {}],
] as const;

/** Makes `ENTRIES` calls through the console: each is one entry of the session's person's history. */
async function seedHistory(cookie: string, installation: string): Promise<void> {
  const headers = { ...consoleHeaders(cookie), origin: ORIGIN };
  await expectOk(await fetch(`${ORIGIN}/api/history`, { method: "DELETE", headers }), "DELETE /api/history");
  for (let i = 0; i < ENTRIES; i++) {
    const [method, params] = CALLS[i % CALLS.length]!;
    const query = new URLSearchParams({ installation, ...params });
    await expectOk(await fetch(`${ORIGIN}/api/call/${method}?${query}`, { headers }), `GET /api/call/${method}`);
  }
}

/** Two answers of about `bytes` each, the second with every third member's title changed and one member more. */
function answers(bytes: number): [string, string] {
  const member = (i: number, title: string) => ({
    id: `U${String(i).padStart(8, "0")}`,
    name: `member-${i}`,
    profile: { title, tz: "Europe/Paris", phone: "" },
  });
  const one = JSON.stringify(member(0, "dev")).length + 1;
  const n = Math.ceil(bytes / one);
  const before = { ok: true, members: Array.from({ length: n }, (_, i) => member(i, "dev")) };
  const after = { ok: true, members: [...before.members.map((m, i) => (i % 3 === 0 ? member(i, "lead") : m)), member(n, "new")] };
  return [JSON.stringify(before), JSON.stringify(after)];
}

const frame = (page: Page) => page.evaluate("new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100)))");

async function traced(browser: Browser, page: Page, act: () => Promise<void>): Promise<{ longest: TraceTask; mostCpu: TraceTask; ms: number }> {
  await frame(page);
  await browser.startTracing(page, { categories: MAIN_THREAD_TRACE_CATEGORIES });
  const started = performance.now();
  await act();
  const ms = performance.now() - started;
  await frame(page);
  const tasks = mainThreadTasks(await browser.stopTracing());
  if (tasks.length === 0) throw new Error("the trace holds no task of the page's main thread");
  return { longest: tasks.reduce((a, b) => (b.wall > a.wall ? b : a)), mostCpu: tasks.reduce((a, b) => (b.cpu > a.cpu ? b : a)), ms };
}

/** The History page: 100 a page (its most), through every page, then a method typed key by key. */
async function browseHistory(page: Page): Promise<void> {
  const rows = page.getByRole("rowgroup", { name: "History entries" }).getByRole("row");
  await page.getByLabel("Per page").selectOption("100");
  await rows.nth(Math.min(ENTRIES, 100) - 1).waitFor();
  const pages = Math.ceil(ENTRIES / 100);
  for (let p = 1; p < pages; p++) {
    const first = await rows.first().getAttribute("data-entry");
    await page.getByRole("button", { name: "Older" }).click();
    await page.waitForFunction((before) => document.querySelector('[aria-label="History entries"] tr')?.getAttribute("data-entry") !== before, first);
  }
  if (pages > 1) await page.getByRole("button", { name: "Newer" }).click();
  await page.getByRole("searchbox", { name: "Method" }).pressSequentially("conversations", { delay: 30 });
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[aria-label="History entries"] tr')].every((tr) => tr.textContent?.includes("conversations.list")),
  );
}

const ms = (x: number) => `${x.toFixed(0)} ms`;

export const consoleHistorySuite: BenchSuite = {
  name: "console: the explorer's history page with 1,000 entries, and the diff of two 1 MB answers (Chromium, main thread)",
  async run() {
    await startConsole();
    const session = await installThroughConsole();
    const seeded = performance.now();
    await seedHistory(session.cookie, session.installationId);
    console.log(`    ${ENTRIES} calls made through /api/call (each recorded) in ${ms(performance.now() - seeded)}`);
    const folder = mkdtempSync(join(tmpdir(), "switchboard-bench-diff-"));
    const [before, after] = answers(ANSWER_BYTES);
    writeFileSync(join(folder, "before.json"), before);
    writeFileSync(join(folder, "after.json"), after);
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const history: Array<Awaited<ReturnType<typeof traced>>> = [];
    const diffs: Array<Awaited<ReturnType<typeof traced>> & { worker: string }> = [];
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addCookies(browserCookies(session.cookie));
      for (let round = 0; round < ROUNDS; round++) {
        const page = await context.newPage();
        await page.goto(`${ORIGIN}/explorer/history`);
        await page
          .getByRole("rowgroup", { name: "History entries" })
          .getByRole("row")
          .nth(Math.min(ENTRIES, 50) - 1)
          .waitFor();
        history.push(await traced(browser, page, () => browseHistory(page)));

        await page.getByLabel("Before").setInputFiles(join(folder, "before.json"));
        await page.getByLabel("After").setInputFiles(join(folder, "after.json"));
        const result = await traced(browser, page, async () => {
          await page.getByRole("button", { name: "Compare files" }).click();
          await page.getByText(/changed · .* added · .* removed/).waitFor({ timeout: 120_000 });
        });
        const worker = (await page.getByText(/^From before\.json/).textContent())?.match(/in ([\d.]+ m?s)\.$/)?.[1] ?? "?";
        diffs.push({ ...result, worker });
        await page.close();
      }
    } finally {
      await browser.close();
      rmSync(folder, { recursive: true, force: true });
    }
    console.log(`  the History page over ${ENTRIES} entries: 100 a page through all of them, then "conversations" typed key by key (${ROUNDS} rounds)`);
    for (const [i, r] of history.entries()) {
      console.log(
        `    round ${i + 1}: ${ms(r.ms)}; longest task ${ms(r.longest.wall)} wall (${ms(r.longest.cpu)} CPU); most CPU in one task ${ms(r.mostCpu.cpu)}`,
      );
    }
    console.log(`    longest task over all rounds ${ms(Math.max(...history.map((r) => r.longest.wall)))} wall  (goal: < 50 ms)`);
    console.log(
      `  the compare view: two answers of ${(before.length / 1e6).toFixed(2)} MB and ${(after.length / 1e6).toFixed(2)} MB diffed in its Web Worker (${ROUNDS} rounds)`,
    );
    for (const [i, r] of diffs.entries()) {
      console.log(
        `    round ${i + 1}: shown after ${ms(r.ms)} (the worker's read, parse and diff: ${r.worker}); longest task ${ms(r.longest.wall)} wall (${ms(r.longest.cpu)} CPU); most CPU in one task ${ms(r.mostCpu.cpu)}`,
      );
    }
    console.log(`    longest task over all rounds ${ms(Math.max(...diffs.map((r) => r.longest.wall)))} wall  (goal: < 50 ms)`);
  },
};
