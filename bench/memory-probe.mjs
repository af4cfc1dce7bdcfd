// The hosted soak's memory probe, preloaded into each console instance (NODE_OPTIONS=--import, see
// bench/suites/hosted-console.ts): resident memory alone cannot tell a heap that grew and stays sized from
// one that leaks. On SIGUSR2 it appends one line of JSON to BENCH_MEMORY_PROBE_FILE with what
// process.memoryUsage() says, first running a full collection when the file `${BENCH_MEMORY_PROBE_FILE}.gc`
// exists (the process runs with --expose-gc), so that a reading can leave the heap as it is.
import { appendFileSync, existsSync } from "node:fs";

const file = process.env.BENCH_MEMORY_PROBE_FILE;
if (file) {
  process.on("SIGUSR2", () => {
    const collected = existsSync(`${file}.gc`) && typeof globalThis.gc === "function";
    if (collected) globalThis.gc();
    appendFileSync(file, `${JSON.stringify({ at: Date.now(), collected, ...process.memoryUsage() })}\n`);
  });
}
