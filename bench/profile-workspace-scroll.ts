/**
 * Where the Workspace page's scroll frames go (issue 41): the bench's console with #general seeded, the page
 * opened in Chromium, scrolled to its first message, then down a screenful per frame for `FRAMES` frames while a
 * trace records the renderer's main thread; prints the time per trace event (script, style, layout, paint…)
 * and the page's functions with the most self time (from the trace's V8 samples).
 *
 *   BENCH_CONSOLE_PORT=3652 npx tsx bench/profile-workspace-scroll.ts [messages] [frames]
 */
import { writeFileSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { bareListBundle } from "./suites/console-workspace-scroll";
import { admin, CHROMIUM_ARGS, CHROMIUM_PATH, ORIGIN, resetWorkspace, startConsole, stopConsole } from "./suites/console-server";

const MESSAGES = Number(process.argv[2] ?? 2000);
const FRAMES = Number(process.argv[3] ?? 300);
/** "up": trace the scroll from the newest message up to the first (older pages read as the top comes near), as the bench's first half. */
const UP = process.argv[4] === "up";

/** Up a screenful per frame to the very first row (waiting at the top while an older page loads), or down FRAMES frames. */
const scrollScript = UP
  ? `new Promise((done) => {
    const scroller = document.querySelector('[data-testid="message-scroller"]');
    const beginning = () => { const s = scroller.querySelector('[role="status"]'); return !s || (s.textContent ?? "").startsWith("This is the very beginning"); };
    const deltas = []; let last = 0, stepped = false, lastHeight = scroller.scrollHeight;
    const frame = (t) => {
      const height = scroller.scrollHeight;
      if (last && (stepped || height !== lastHeight)) deltas.push(t - last);
      last = t; lastHeight = height; stepped = false;
      if (scroller.scrollTop > 0) { scroller.scrollTop = Math.max(0, scroller.scrollTop - scroller.clientHeight); stepped = true; }
      else if (beginning()) return done(deltas);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })`
  : `new Promise((done) => {
    const scroller = document.querySelector('[data-testid="message-scroller"]');
    const deltas = []; let last = 0, n = 0;
    const frame = (t) => {
      if (last) deltas.push(t - last); last = t;
      scroller.scrollTop += scroller.clientHeight;
      if (++n < ${FRAMES} && scroller.scrollTop < scroller.scrollHeight - scroller.clientHeight - 1) requestAnimationFrame(frame); else done(deltas);
    };
    requestAnimationFrame(frame);
  })`;

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { cpuProfile?: CpuProfileChunk; timeDeltas?: number[] } };
}
interface CpuProfileChunk {
  nodes?: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; parent?: number }>;
  samples?: number[];
}

/** Traces a downward scroll, a screenful per frame, and prints its frame times, trace events and V8 self times. */
async function profile(browser: Browser, page: Page, label: string) {
  console.log(`\n=== ${label}`);
  if (process.env.NO_TRACE) {
    const frames = (await page.evaluate(scrollScript)) as number[];
    frames.sort((a, b) => a - b);
    const at = (p: number) => frames[Math.min(frames.length - 1, Math.floor(frames.length * p))]!.toFixed(2);
    console.log(`${frames.length} frames (untraced): p50 ${at(0.5)} ms, p90 ${at(0.9)}, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms`);
    return;
  }
  await browser.startTracing(page, {
    categories: ["toplevel", "blink", "cc", "disabled-by-default-devtools.timeline", "v8.execute", "disabled-by-default-v8.cpu_profiler"],
  });
  const deltas = (await page.evaluate(scrollScript)) as number[];
  const raw = await browser.stopTracing();
  if (process.env.SAVE_TRACE) writeFileSync(`${process.env.SAVE_TRACE}-${label.replace(/\W+/g, "-")}.json`, raw);
  const trace = JSON.parse(raw.toString("utf8")) as { traceEvents: TraceEvent[] };
  deltas.sort((a, b) => a - b);
  console.log(
    `${deltas.length} frames: p50 ${deltas[Math.floor(deltas.length / 2)]!.toFixed(2)} ms, p95 ${deltas[Math.floor(deltas.length * 0.95)]!.toFixed(2)} ms`,
  );
  const mains = new Set(
    trace.traceEvents.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`),
  );
  const byName = new Map<string, [number, number]>();
  for (const e of trace.traceEvents) {
    if (e.ph !== "X" || !mains.has(`${e.pid}:${e.tid}`)) continue;
    const [ms, count] = byName.get(e.name) ?? [0, 0];
    byName.set(e.name, [ms + (e.dur ?? 0) / 1000, count + 1]);
  }
  console.log("\ntrace events on the main thread (inclusive ms, nested events overlap):");
  for (const [name, [ms, count]] of [...byName].sort((a, b) => b[1][0] - a[1][0]).slice(0, 40))
    console.log(`  ${ms.toFixed(1).padStart(9)}  ${String(count).padStart(6)}×  ${name}`);

  const nodes = new Map<number, { name: string; self: number }>();
  for (const e of trace.traceEvents) {
    const chunk = e.args?.data?.cpuProfile;
    if (!chunk) continue;
    for (const n of chunk.nodes ?? []) {
      const url = (n.callFrame.url ?? "").split("/").pop() ?? "";
      nodes.set(n.id, { name: `${n.callFrame.functionName || "(anonymous)"} ${url}:${n.callFrame.lineNumber}`, self: nodes.get(n.id)?.self ?? 0 });
    }
    const deltasUs = e.args?.data?.timeDeltas ?? [];
    (chunk.samples ?? []).forEach((id, i) => {
      const node = nodes.get(id);
      if (node) node.self += (deltasUs[i] ?? 0) / 1000;
    });
  }
  const bySelf = new Map<string, number>();
  for (const n of nodes.values()) bySelf.set(n.name, (bySelf.get(n.name) ?? 0) + n.self);
  console.log("\nV8 samples, self time by function (ms):");
  for (const [name, ms] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${ms.toFixed(1).padStart(9)}  ${name}`);
}

async function main() {
  await startConsole();
  await resetWorkspace(3000);
  const member = (await admin("workspace/member")) as { conversations: Array<{ id: string; name: string }> };
  const general = member.conversations.find((c) => c.name === "general")!.id;
  for (let i = 0; i < MESSAGES; i += 16)
    await Promise.all(
      Array.from({ length: Math.min(16, MESSAGES - i) }, async (_, k) => {
        const n = i + k;
        const text = n % 10 === 3 ? `message ${n}: a longer one, *bold*, _italic_ and \`code\`, over lines.\nA second paragraph.` : `message ${n}: short`;
        const { ts } = (await admin("act/post", { channel: general, text })) as { ts: string };
        if (n % 50 === 7) await admin("act/react", { channel: general, ts, name: "+1" });
      }),
    );
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, "--disable-frame-rate-limit", "--disable-gpu-vsync"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${ORIGIN}/workspace`);
    await page.locator('[data-testid="message-scroller"] li').first().waitFor();
    await page.waitForTimeout(1000);
    const heights = await page.evaluate(() => [...document.querySelectorAll("li[data-index]")].map((li) => Math.round(li.getBoundingClientRect().height)));
    console.log(`row heights in the page: ${heights.join(" ")}`);
    await page.evaluate(`(() => {
      window.__styles = [];
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) {
          if (n.nodeName === "STYLE" || n.nodeName === "LINK" || (n.querySelectorAll && n.querySelectorAll("style,link").length)) window.__styles.push((n.nodeName) + " in " + (r.target.nodeName) + "." + (r.target.className || "") + ": " + (n.outerHTML || "").slice(0, 160));
        }
      }).observe(document, { childList: true, subtree: true });
    })()`);
    // Up to the very first message untraced (every older page read), then traced: down a screenful per frame.
    if (!UP)
      await page.evaluate(`new Promise((done) => {
      const scroller = document.querySelector('[data-testid="message-scroller"]');
      const frame = () => {
        scroller.scrollTop = 0;
        if ((scroller.querySelector('[role="status"]')?.textContent ?? "").startsWith("This is the very beginning")) done();
        else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    })`);
    await page.waitForTimeout(500);
    await profile(browser, page, "Workspace page");
    const added = (await page.evaluate("window.__styles")) as string[];
    console.log(
      `style or link elements added while scrolling: ${added.length}; ${await page.evaluate('document.querySelectorAll("style").length')} <style> in the page`,
    );
    for (const line of [...new Set(added)].slice(0, 10)) console.log(`  ${line}`);

    // The bench's bare list of the same rows (bench/fixtures/bare-virtual-list.tsx), profiled the same way.
    const history = (await admin(`workspace/history?channel=${general}&limit=${MESSAGES + 100}`)) as {
      messages: Array<{ ts: string; text: string; user?: string }>;
      names: Record<string, string>;
    };
    const time = new Intl.DateTimeFormat(undefined, { timeStyle: "short" });
    const rows = history.messages.map((m) => ({
      author: (m.user && history.names[m.user]) ?? "someone",
      text: m.text,
      time: time.format(Number(m.ts.split(".")[0]) * 1000),
    }));
    const styles = await page.evaluate(() => [...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => (l as HTMLLinkElement).href));
    const bundle = await bareListBundle();
    await page.route(`${ORIGIN}/__bench/bare`, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><html><head>${styles.map((href) => `<link rel="stylesheet" href="${href}">`).join("")}</head><body><div id="root"></div><script>window.BARE_ROWS = ${JSON.stringify(rows).replace(/</g, "\\u003c")};</script><script>${bundle}</script></body></html>`,
      }),
    );
    await page.goto(`${ORIGIN}/__bench/bare`);
    await page.locator('[data-testid="message-scroller"] li').first().waitFor();
    await page.waitForTimeout(500);
    if (UP) await page.evaluate(`document.querySelector('[data-testid="message-scroller"]').scrollTop = 1e9`);
    await page.waitForTimeout(300);
    await profile(browser, page, "bare virtual list");
  } finally {
    await browser.close();
    await resetWorkspace(3000);
    stopConsole();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
