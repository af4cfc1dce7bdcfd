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
  let running = false;
  // A `start` file that names its window (e.g. "token-api") gets profiles of their own, server-<pid>-<name>.*; a bench
  // may then profile several windows, removing `stop` and writing `start` again for each.
  let name = "";
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
    } else if (running && existsSync(join(dir, "stop"))) {
      running = false;
      if (!name) clearInterval(timer);
      const { profile } = await session.post("Profiler.stop");
      histogram.disable();
      writeFileSync(join(dir, `server-${process.pid}${name && `-${name}`}.cpuprofile`), JSON.stringify(profile));
      const ms = (ns) => Math.round(ns / 1e4) / 100;
      writeFileSync(
        join(dir, `server-${process.pid}${name && `-${name}`}.loop.json`),
        JSON.stringify({ p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), mean: ms(histogram.mean) }),
      );
    }
  }, 250);
  timer.unref();
}
