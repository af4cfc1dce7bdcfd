// Where a console server's time goes under a bench's load (docs/benchmarks.md, "Where the soak's time goes"):
// preloaded with NODE_OPTIONS="--import ./bench/cpu-probe.mjs" and BENCH_CPU_PROBE_DIR set, a `next start`
// watches that folder. When a file `start` appears there it starts V8's sampling profiler and an event-loop
// delay histogram; when `stop` appears it writes `server-<pid>.cpuprofile` (open it in Chrome's DevTools, or
// summarise it with bench/cpu-profile-top.ts) and `server-<pid>.loop.json` (the event loop's delay, in ms).
// Other processes (a build, the bench itself) are left alone: only a process whose argv says `start` listens.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";

const dir = process.env.BENCH_CPU_PROBE_DIR;
if (dir && process.argv.includes("start")) {
  const session = new Session();
  session.connect();
  let histogram;
  // The event loop's worst delay in each second, to line up with a bench's own timeline (the clock's jump).
  let second;
  let perSecond = [];
  let secondTimer;
  let running = false;
  // A `start` file that names its window (e.g. "token-api") gets profiles of their own, server-<pid>-<name>.*; a bench
  // may then profile several windows, removing `stop` and writing `start` again for each.
  let name = "";
  const pglite = await watchPglite(() => running);
  const timer = setInterval(async () => {
    if (!running && existsSync(join(dir, "start")) && !existsSync(join(dir, "stop"))) {
      running = true;
      name = readFileSync(join(dir, "start"), "utf8")
        .trim()
        .replace(/[^\w-]/g, "");
      await session.post("Profiler.enable");
      // Every 1 ms (the default's 1 ms too, said for the reader): enough samples in a minute of soak.
      await session.post("Profiler.setSamplingInterval", { interval: 1000 });
      await session.post("Profiler.start");
      histogram = monitorEventLoopDelay({ resolution: 10 });
      histogram.enable();
      second = monitorEventLoopDelay({ resolution: 10 });
      second.enable();
      perSecond = [];
      pglite.reset();
      secondTimer = setInterval(() => {
        perSecond.push(Math.round(second.max / 1e6));
        second.reset();
        pglite.nextSecond();
      }, 1000);
    } else if (running && existsSync(join(dir, "stop"))) {
      running = false;
      if (!name) clearInterval(timer);
      const { profile } = await session.post("Profiler.stop");
      histogram.disable();
      clearInterval(secondTimer);
      second.disable();
      const file = (suffix) => join(dir, `server-${process.pid}${name && `-${name}`}.${suffix}`);
      writeFileSync(file("cpuprofile"), JSON.stringify(profile));
      const ms = (ns) => Math.round(ns / 1e4) / 100;
      writeFileSync(
        file("loop.json"),
        JSON.stringify({
          p50: ms(histogram.percentile(50)),
          p99: ms(histogram.percentile(99)),
          max: ms(histogram.max),
          mean: ms(histogram.mean),
          maxPerSecond: perSecond,
        }),
      );
      writeFileSync(file("pglite.json"), JSON.stringify(pglite.seconds));
      // Each second: PGlite calls begun, the ms the connection had one in flight (of 1000), the longest call.
      console.error(
        `[cpu-probe] PGlite per second (calls/busy ms/longest ms): ${pglite.seconds.map((x, i) => `${i}: ${x.calls}/${Math.round(x.busyMs)}/${Math.round(x.maxMs)}`).join(", ")}`,
      );
    }
  }, 250);
  timer.unref();
}

/**
 * PGlite's calls (query, exec, transaction: each waits for its one connection, then runs) timed per second
 * while the probe runs: how many began, how long one was in flight (the connection's busy time, waiting
 * included) and the longest. The server loads PGlite as an ES module from node_modules, the same instance
 * this import gets, so its prototype is the server's.
 */
async function watchPglite(isRunning) {
  const seconds = [];
  const fresh = () => ({ calls: 0, busyMs: 0, maxMs: 0, statements: {} });
  // Each statement's time by its text's start (a transaction's statements by what they ran), per second.
  const tallyStatement = (text, ms) => {
    const key = String(text).replace(/\s+/g, " ").slice(0, 70);
    const s = (current.statements[key] ??= { calls: 0, ms: 0 });
    s.calls++;
    s.ms += ms;
  };
  const timedStatements = (tx) =>
    new Proxy(tx, {
      get(target, name) {
        const value = Reflect.get(target, name);
        if ((name !== "query" && name !== "exec") || typeof value !== "function") return value;
        return async (...args) => {
          const started = performance.now();
          try {
            return await value.apply(target, args);
          } finally {
            tallyStatement(args[0], performance.now() - started);
          }
        };
      },
    });
  let current = fresh();
  let inFlight = 0;
  let busySince = 0;
  const probe = {
    seconds,
    reset() {
      seconds.length = 0;
      current = fresh();
      busySince = performance.now();
    },
    nextSecond() {
      const now = performance.now();
      if (inFlight > 0) current.busyMs += now - busySince;
      busySince = now;
      seconds.push(current);
      current = fresh();
    },
  };
  let PGlite;
  try {
    ({ PGlite } = await import("@electric-sql/pglite"));
  } catch {
    return probe;
  }
  for (const name of ["query", "exec", "transaction"]) {
    const original = PGlite.prototype[name];
    PGlite.prototype[name] = async function (...args) {
      if (!isRunning()) return original.apply(this, args);
      const started = performance.now();
      current.calls++;
      if (inFlight++ === 0) busySince = started;
      if (name === "transaction" && typeof args[0] === "function") {
        const body = args[0];
        args = [(tx) => body(timedStatements(tx)), ...args.slice(1)];
      }
      try {
        return await original.apply(this, args);
      } finally {
        const ended = performance.now();
        if (name !== "transaction") tallyStatement(args[0], ended - started);
        current.maxMs = Math.max(current.maxMs, ended - started);
        if (--inFlight === 0) current.busyMs += ended - busySince;
      }
    };
  }
  return probe;
}
