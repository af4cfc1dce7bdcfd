/**
 * Where a Fetch all's main-thread time goes (not a suite; docs/benchmarks.md, section i): one walk of PAGES
 * pages of 2 in Chromium (ROUNDS walks in one tab context; the last is analysed), traced with the timeline
 * and, unless NO_SAMPLER=1, V8's sampler. It prints the TOP longest tasks of the page's main thread with
 * when they ran after the click, what they held (script, style, layout, paint; self times) and, sampled,
 * which functions and which components. Production builds are minified: for names, build with
 * `turbopackMinify: false` in a dist folder of its own. TRACE_OUT keeps the trace; TRACE_IN reads one.
 *   BENCH_DIST_DIR=.next-e2e-3140 BENCH_CONSOLE_PORT=3440 npx tsx bench/profile-fetch-all.ts
 */
import { writeFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { browserCookies, CHROMIUM_ARGS, CHROMIUM_PATH, installThroughConsole, ORIGIN, resetWorkspace, startConsole } from "./suites/console-server";

const PAGES = Number(process.env.PAGES ?? 1000);
const TOP = Number(process.env.TOP ?? 6);
const CATEGORIES = [
  "toplevel",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.frame",
  "v8.execute",
  "blink.user_timing",
  ...(process.env.NO_SAMPLER ? [] : ["disabled-by-default-v8.cpu_profiler"]),
];

interface Ev {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  id?: string;
  args?: Record<string, unknown> & { data?: Record<string, unknown> };
}

async function main() {
  await startConsole();
  await resetWorkspace(PAGES * 4);
  const session = await installThroughConsole();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies(browserCookies(session.cookie));
  let buffer: Buffer = Buffer.alloc(0);
  for (let round = 0; round < Number(process.env.ROUNDS ?? 1); round++) {
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/explorer?method=users.list&as=bot&p.limit=2`);
    await page.getByRole("button", { name: "Fetch all", exact: true }).waitFor();
    await page.getByLabel("Page cap").fill(String(PAGES));
    await page.getByTestId("row-count").waitFor();
    await page.evaluate("new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100)))");
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.getByRole("button", { name: "Fetch all", exact: true }).click();
    await page.getByText(/Stopped at the page cap|Every page fetched/).waitFor({ timeout: 300_000 });
    await page.evaluate("new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100)))");
    buffer = await browser.stopTracing();
    await page.close();
  }
  await browser.close();
  if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, buffer);
  analyse(JSON.parse(buffer.toString("utf8")).traceEvents as Ev[]);
}

function analyse(events: Ev[]) {
  const main = events.find((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain");
  if (!main) throw new Error("no main thread");
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const tasks = onMain.filter((e) => e.ph === "X" && e.name === "RunTask").sort((a, b) => (process.env.SORT === "cpu" ? b.tdur! - a.tdur! : b.dur! - a.dur!));
  const all = onMain.filter((e) => e.ph === "X").sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const samples = cpuSamples(events, main.pid, main.tid);
  const durs = tasks.map((t) => t.dur! / 1000);
  const click = all.find((e) => e.name === "EventDispatch" && e.args?.data?.type === "click");
  const zero = click?.ts ?? Math.min(...tasks.map((t) => t.ts));
  const lastTask = Math.max(...tasks.map((t) => t.ts));
  console.log(`trace spans ${((lastTask - zero) / 1000).toFixed(0)} ms after the click`);
  console.log(
    `tasks: ${tasks.length}; >=16ms: ${durs.filter((d) => d >= 16).length}; >=30ms: ${durs.filter((d) => d >= 30).length}; >=50ms: ${durs.filter((d) => d >= 50).length}`,
  );
  // Totals over the whole walk, by event self time.
  const total = selfTimes(all, zero, Infinity);
  console.log("whole walk, self time by event (ms):", top(total, 12));
  console.log("whole walk, JS self by function (ms):", top(byFunction(samples, 0, Infinity), 25));
  console.log("whole walk, by component (ms):", top(byComponent(samples, zero, Infinity), 25));
  for (const task of tasks.slice(0, TOP)) {
    const end = task.ts + task.dur!;
    console.log(
      `\n== task ${(task.dur! / 1000).toFixed(1)} ms wall, ${((task.tdur ?? 0) / 1000).toFixed(1)} ms cpu at ${((task.ts - zero) / 1000).toFixed(0)} ms after the click`,
    );
    const inside = all.filter((e) => e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && e !== task);
    console.log(
      "  events:",
      inside
        .filter((e) => e.dur! > 500)
        .map(
          (e) =>
            `${e.name}${e.args?.data?.type ? `(${e.args.data.type})` : ""}${e.args?.data?.functionName ? `(${e.args.data.functionName})` : ""} ${(e.dur! / 1000).toFixed(1)}`,
        )
        .slice(0, 30)
        .join(" | "),
    );
    console.log("  self by event:", top(selfTimes(inside, task.ts, end), 10));
    console.log("  JS self by function:", top(byFunction(samples, task.ts, end), 15));
    console.log("  by component:", top(byComponent(samples, task.ts, end), 15));
    console.log("  JS inclusive by function:", top(byFunction(samples, task.ts, end, true), 25));
  }
}

function selfTimes(evs: Ev[], from: number, to: number): Map<string, number> {
  const out = new Map<string, number>();
  const stack: Ev[] = [];
  const selfOf = new Map<Ev, number>();
  for (const e of evs) {
    if (e.ts < from || e.ts > to || !e.dur) continue;
    while (stack.length && stack[stack.length - 1]!.ts + stack[stack.length - 1]!.dur! <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) selfOf.set(parent, (selfOf.get(parent) ?? parent.dur!) - e.dur);
    selfOf.set(e, selfOf.get(e) ?? e.dur);
    stack.push(e);
  }
  for (const [e, self] of selfOf) {
    const key =
      e.name +
      (e.name === "EventDispatch" || e.name === "TimerFire" || e.name === "FunctionCall"
        ? `(${String(e.args?.data?.type ?? e.args?.data?.functionName ?? "")})`
        : "");
    out.set(key, (out.get(key) ?? 0) + self / 1000);
  }
  return out;
}

interface Sample {
  ts: number;
  stack: string[];
}

function cpuSamples(events: Ev[], pid: number, tid: number): Sample[] {
  const nodes = new Map<number, { parent?: number; name: string }>();
  const out: Sample[] = [];
  const profiles = events.filter((e) => e.name === "Profile" && e.pid === pid);
  const ids = new Set(profiles.filter((p) => p.tid === tid).map((p) => p.id));
  let startTime = 0;
  for (const p of profiles) if (ids.has(p.id)) startTime = (p.args?.data as { startTime: number }).startTime;
  let ts = startTime;
  for (const e of events) {
    if (e.name !== "ProfileChunk" || !ids.has(e.id)) continue;
    const data = e.args!.data as {
      cpuProfile?: {
        nodes?: Array<{ id: number; parent?: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }>;
        samples?: number[];
      };
      timeDeltas?: number[];
    };
    for (const n of data.cpuProfile?.nodes ?? []) {
      const f = n.callFrame;
      const file = (f.url ?? "").split("/").pop();
      nodes.set(n.id, { parent: n.parent, name: `${f.functionName || "(anon)"}@${file}:${f.lineNumber}:${f.columnNumber}` });
    }
    const s = data.cpuProfile?.samples ?? [];
    const d = data.timeDeltas ?? [];
    for (let i = 0; i < s.length; i++) {
      ts += d[i] ?? 0;
      const stack: string[] = [];
      for (let id: number | undefined = s[i]; id !== undefined; id = nodes.get(id)?.parent) stack.push(nodes.get(id)?.name ?? "?");
      out.push({ ts, stack });
    }
  }
  return out;
}

function byFunction(samples: Sample[], from: number, to: number, inclusive = false): Map<string, number> {
  const out = new Map<string, number>();
  const inWindow = samples.filter((s) => s.ts >= from && s.ts <= to);
  for (let i = 0; i < inWindow.length; i++) {
    const dt = i + 1 < inWindow.length ? Math.min(inWindow[i + 1]!.ts - inWindow[i]!.ts, 2000) : 100;
    const names = inclusive ? [...new Set(inWindow[i]!.stack)] : [inWindow[i]!.stack[0]!];
    for (const n of names) out.set(n, (out.get(n) ?? 0) + dt / 1000);
  }
  return out;
}

function top(m: Map<string, number>, n: number): string {
  return [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${k} ${v.toFixed(1)}`)
    .join("; ");
}

const run = process.env.TRACE_IN
  ? async () => analyse(JSON.parse((await import("node:fs")).readFileSync(process.env.TRACE_IN!, "utf8")).traceEvents as Ev[])
  : main;
run().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);

/** Samples attributed to the innermost component (a capitalised function outside React's own chunk). */
export function byComponent(samples: Sample[], from: number, to: number): Map<string, number> {
  const out = new Map<string, number>();
  const inWindow = samples.filter((s) => s.ts >= from && s.ts <= to);
  for (let i = 0; i < inWindow.length; i++) {
    const dt = i + 1 < inWindow.length ? Math.min(inWindow[i + 1]!.ts - inWindow[i]!.ts, 2000) : 100;
    const stack = inWindow[i]!.stack;
    const component = stack.find((f) => /^[A-Z][A-Za-z]+@/.test(f) && !f.startsWith("URL@"));
    const react = stack.some((f) => /^(commitRoot|flushMutationEffects|flushLayoutEffects|flushPassiveEffects)@/.test(f));
    const key = component
      ? component.replace(/:\d+:\d+$/, "")
      : react
        ? "(react commit)"
        : stack.some((f) => f.startsWith("renderRootSync@"))
          ? "(react render, no component)"
          : stack[0] === "(program)@:undefined:undefined" || stack[0] === "(idle)@:undefined:undefined"
            ? stack[0]!
            : "(other js)";
    out.set(key, (out.get(key) ?? 0) + dt / 1000);
  }
  return out;
}
