/**
 * (issue 41) A channel of 10,000 messages on the Workspace page, in Chromium: how long it takes to open (to
 * its newest message), then the frame times while a script scrolls it one screenful per frame from the
 * newest message to the very first (the page reading older pages from the emulator as the top comes near)
 * and back to the newest. Beside it, in the same browser and run, a bare virtual list of the same rows
 * (bench/fixtures/bare-virtual-list.tsx: the same texts with @tanstack/react-virtual, no blocks, no
 * reactions, no paging), scrolled by the same script. The goal: the page's p95 frame time within 1.5× of the
 * bare list's. Chromium runs without its 60 Hz cap, as in console-scroll.ts, so the time between
 * requestAnimationFrame callbacks is what a frame took. Frames spent only waiting for an older page (the
 * list at its top, nothing scrolled, nothing added) are left out; the frame that draws a page that came in is
 * counted. The two lists take turns, ROUNDS times each, their frames pooled.
 */
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium, type Page } from "playwright-core";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { admin, CHROMIUM_ARGS, CHROMIUM_PATH, ORIGIN, percentile, resetWorkspace, startConsole, stopConsole } from "./console-server";

const MESSAGES = benchSetting("BENCH_WORKSPACE_MESSAGES", 10_000, 1_000);
/**
 * Rounds of the two lists, one after the other (page, bare list, page, bare list…), each a fresh page
 * load, their frames pooled: one pass of each put the bare list's p95 anywhere from 2.9 to 4.9 ms from one
 * run to the next minutes apart (the machine's state, not the list), and the ratio with it.
 */
const ROUNDS = benchSetting("BENCH_WORKSPACE_ROUNDS", 5, 1);
/**
 * Posts in flight at once while seeding, each an admin act/post over HTTP to the console's embedded emulator
 * (measured: 1,000 in 22 s at 8 at a time with the machine's load average at 25; 1.7 ms each in-process).
 */
const SEED_CONCURRENCY = 16;
const BARE_PATH = "/__bench/bare-virtual-list";

/** A row as both lists show it: who wrote it, and its text (the time is written by each list). */
interface Row {
  author: string;
  ts: string;
  text: string;
}

/** Every tenth message runs over several lines, every 50th gets a reaction and every 100th a thread reply: rows of varying height. */
const textOf = (i: number) =>
  i % 10 === 3
    ? `message ${i}: a longer one, as people write when they explain something — it wraps over more than one line at this width, and *bold*, _italic_ and \`code\` are drawn as mrkdwn.\nA second paragraph.`
    : `message ${i}: short and to the point`;

async function seed(channel: string): Promise<number> {
  const started = performance.now();
  const post = async (i: number) => {
    const { ts } = (await admin("act/post", { channel, text: textOf(i) })) as { ts: string };
    if (i % 50 === 7) await admin("act/react", { channel, ts, name: "+1" });
    if (i % 100 === 11) await admin("act/post", { channel, text: `a reply to message ${i}`, thread_ts: ts });
  };
  for (let i = 0; i < MESSAGES; i += SEED_CONCURRENCY)
    await Promise.all(Array.from({ length: Math.min(SEED_CONCURRENCY, MESSAGES - i) }, (_, k) => post(i + k)));
  return performance.now() - started;
}

/** The channel's top-level messages, oldest first, read from the admin surface page by page. */
async function rowsOf(channel: string): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor = "";
  do {
    const page = (await admin(`workspace/history?channel=${channel}&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)) as {
      messages: Array<{ ts: string; text: string; user?: string; thread_ts?: string }>;
      names: Record<string, string>;
      response_metadata: { next_cursor: string };
    };
    const top = page.messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);
    rows.unshift(...top.map((m) => ({ ts: m.ts, text: m.text, author: (m.user && page.names[m.user]) ?? m.user ?? "someone" })));
    cursor = page.response_metadata.next_cursor;
  } while (cursor !== "");
  return rows;
}

/** The bare list (bench/fixtures/bare-virtual-list.tsx) bundled for a page of its own; also bench/profile-workspace-scroll.ts's. */
export async function bareListBundle(): Promise<string> {
  const built = await build({
    entryPoints: [fileURLToPath(new URL("../fixtures/bare-virtual-list.tsx", import.meta.url))],
    bundle: true,
    write: false,
    minify: true,
    format: "iife",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  return built.outputFiles[0]!.text;
}

/**
 * Scrolls the list up a screenful per frame to its first row (`beginning`: the page says so; the bare list
 * is there at scrollTop 0), then down to its last, and returns the time between frames. A string, not a
 * function: the bench runs through tsx, whose helpers would not exist in the page.
 */
const scrollScript = (waitForBeginning: boolean) => `new Promise((done) => {
  const scroller = document.querySelector('[data-testid="message-scroller"]');
  const beginning = () => !${waitForBeginning} || (scroller.querySelector('[role="status"]')?.textContent ?? "").startsWith("This is the very beginning");
  const deltas = [];
  let last = 0, lastHeight = scroller.scrollHeight, stepped = false, up = true, waits = 0;
  const frame = (t) => {
    const height = scroller.scrollHeight;
    if (last !== 0 && (stepped || height !== lastHeight)) deltas.push(t - last);
    last = t;
    lastHeight = height;
    stepped = false;
    const step = scroller.clientHeight;
    if (up) {
      if (scroller.scrollTop > 0) { scroller.scrollTop = Math.max(0, scroller.scrollTop - step); stepped = true; }
      else if (beginning()) up = false;
      else if (++waits > 100000) return done({ error: "the first message never came" });
    } else {
      if (scroller.scrollTop < scroller.scrollHeight - scroller.clientHeight - 1) { scroller.scrollTop += step; stepped = true; }
      else return done(deltas);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`;

interface Figures {
  frames: number[];
  rowsInPage: number;
}

async function scroll(page: Page, waitForBeginning: boolean): Promise<Figures> {
  const answer = (await page.evaluate(scrollScript(waitForBeginning))) as number[] | { error: string };
  if (!Array.isArray(answer)) throw new Error(answer.error);
  const rowsInPage = await page.locator('[data-testid="message-scroller"] ol[aria-label="Messages"] > li').count();
  return { frames: answer.sort((a, b) => a - b), rowsInPage };
}

const line = (label: string, f: Figures) =>
  `    ${label.padEnd(22)} ${String(f.frames.length).padStart(5)} frames   p50 ${percentile(f.frames, 50).toFixed(2)} ms   p95 ${percentile(f.frames, 95).toFixed(2)} ms   max ${f.frames.at(-1)!.toFixed(2)} ms   (${f.rowsInPage} rows in the page at the end)`;

export const consoleWorkspaceScrollSuite: BenchSuite = {
  name: `console: the Workspace page's ${MESSAGES.toLocaleString("en-US")}-message channel against a bare virtual list (p95 frame time)`,
  async run() {
    await startConsole();
    await resetWorkspace(3000);
    const member = (await admin("workspace/member")) as { conversations: Array<{ id: string; name: string }> };
    const general = member.conversations.find((c) => c.name === "general")!.id;
    const seedMs = await seed(general);
    const rows = await rowsOf(general);
    console.log(
      `    load average before: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")} (2 cores, shared)`,
    );
    console.log(
      `    seeded ${MESSAGES.toLocaleString("en-US")} messages (with reactions and thread replies) in ${(seedMs / 1000).toFixed(1)} s through the admin surface; #general holds ${rows.length.toLocaleString("en-US")} top-level rows`,
    );
    const bundle = await bareListBundle();
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, "--disable-frame-rate-limit", "--disable-gpu-vsync"] });
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      /** Opens the Workspace page at #general's newest message (every older page read afresh), in ms. */
      const open = async () => {
        const opening = performance.now();
        await page.goto(`${ORIGIN}/workspace`);
        await page
          .locator('[data-testid="message-scroller"] li')
          .filter({ hasText: rows.at(-1)!.text.split("\n")[0]! })
          .first()
          .waitFor({ timeout: 120_000 });
        return performance.now() - opening;
      };
      const openMs = await open();

      // The bare list, on the console's origin with the console's stylesheets (the same fonts and sizes).
      const styles = await page.evaluate(() => [...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => (l as HTMLLinkElement).href));
      const time = new Intl.DateTimeFormat(undefined, { timeStyle: "short" });
      const bareRows = rows.map((r) => ({ author: r.author, text: r.text, time: time.format(Number(r.ts.split(".")[0]) * 1000) }));
      await page.route(`${ORIGIN}${BARE_PATH}`, (route) =>
        route.fulfill({
          contentType: "text/html",
          body: `<!doctype html><html><head>${styles.map((href) => `<link rel="stylesheet" href="${href}">`).join("")}</head><body><div id="root"></div><script>window.BARE_ROWS = ${JSON.stringify(bareRows).replace(/</g, "\\u003c")};</script><script>${bundle}</script></body></html>`,
        }),
      );
      const openBare = async () => {
        await page.goto(`${ORIGIN}${BARE_PATH}`);
        await page.locator('[data-testid="message-scroller"] li').first().waitFor();
        // To its end, as the page opens at its newest row: a few frames, as the rows near the end are measured.
        await page.evaluate(`new Promise((done) => {
          const scroller = document.querySelector('[data-testid="message-scroller"]');
          let frames = 0;
          const frame = () => { scroller.scrollTop = scroller.scrollHeight; if (++frames < 20) requestAnimationFrame(frame); else done(); };
          requestAnimationFrame(frame);
        })`);
      };

      const pooled = { workspace: [] as number[], bare: [] as number[] };
      let workspace: Figures | undefined;
      let bare: Figures | undefined;
      for (let round = 1; round <= ROUNDS; round++) {
        // The lists take turns going first, so neither always follows the other's pass.
        if (round % 2 === 1) {
          if (round > 1) await open();
          workspace = await scroll(page, true);
          await openBare();
          bare = await scroll(page, false);
        } else {
          await openBare();
          bare = await scroll(page, false);
          await open();
          workspace = await scroll(page, true);
        }
        pooled.workspace.push(...workspace.frames);
        pooled.bare.push(...bare.frames);
        if (ROUNDS > 1)
          console.log(
            `    round ${round}: Workspace page p95 ${percentile(workspace.frames, 95).toFixed(2)} ms, bare list p95 ${percentile(bare.frames, 95).toFixed(2)} ms: ${(percentile(workspace.frames, 95) / percentile(bare.frames, 95)).toFixed(2)}×`,
          );
      }
      const all = {
        workspace: { frames: pooled.workspace.sort((a, b) => a - b), rowsInPage: workspace!.rowsInPage },
        bare: { frames: pooled.bare.sort((a, b) => a - b), rowsInPage: bare!.rowsInPage },
      };
      const ratio = percentile(all.workspace.frames, 95) / percentile(all.bare.frames, 95);
      console.log(`    opened #general at its newest message in ${openMs.toFixed(0)} ms`);
      console.log(line(ROUNDS > 1 ? `Workspace page (${ROUNDS} rounds)` : "Workspace page", all.workspace));
      console.log(line(ROUNDS > 1 ? `bare virtual list (${ROUNDS} rounds)` : "bare virtual list", all.bare));
      console.log(
        `    p95 ratio ${ratio.toFixed(2)}× over every round's frames (goal: ≤ 1.5×); load average after: ${loadavg()
          .map((l) => l.toFixed(2))
          .join(" ")}`,
      );
    } finally {
      await browser.close();
      await resetWorkspace(3000);
      stopConsole();
    }
  },
};
