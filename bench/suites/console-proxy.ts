/**
 * (a) The proxy's overhead: users.list with limit=200 through GET /api/call and directly at the emulator,
 * on the same production server, sequentially and interleaved so both see the same machine.
 */
import { expectPlatformOk } from "../http";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { consoleHeaders, directBotToken, EMULATOR_BASE, installThroughConsole, ORIGIN, percentile, resetWorkspace, startConsole } from "./console-server";

const WARMUP = benchSetting("BENCH_PROXY_WARMUP", 30, 5);
const SAMPLES = benchSetting("BENCH_PROXY_SAMPLES", 400, 20);

async function timed(url: string, headers: Record<string, string>, what: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await expectPlatformOk<{ members: unknown[] }>(response, what);
  return performance.now() - started;
}

export const consoleProxySuite: BenchSuite = {
  name: "console: proxy overhead (users.list limit=200, /api/call vs direct)",
  async run() {
    await startConsole();
    await resetWorkspace(3000);
    const session = await installThroughConsole();
    const token = await directBotToken();
    const proxied = () =>
      timed(
        `${ORIGIN}/api/call/users.list?${new URLSearchParams({ installation: session.installationId, token: "bot", limit: "200" })}`,
        consoleHeaders(session.cookie),
        "users.list through /api/call",
      );
    const direct = () => timed(`${EMULATOR_BASE}/api/users.list?limit=200`, { authorization: `Bearer ${token}` }, "users.list at the emulator");

    for (let i = 0; i < WARMUP; i++) {
      await proxied();
      await direct();
    }
    const through: number[] = [];
    const straight: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      // Alternate which goes first so neither always runs on a warmer cache.
      if (i % 2 === 0) {
        through.push(await proxied());
        straight.push(await direct());
      } else {
        straight.push(await direct());
        through.push(await proxied());
      }
    }
    through.sort((a, b) => a - b);
    straight.sort((a, b) => a - b);
    const row = (label: string, s: number[]) =>
      `    ${label.padEnd(22)} p50 ${percentile(s, 50).toFixed(2).padStart(7)} ms   p99 ${percentile(s, 99).toFixed(2).padStart(7)} ms`;
    console.log(`  ${SAMPLES} sequential requests each, interleaved, first page of a 3,000-member workspace:`);
    console.log(row("through /api/call", through));
    console.log(row("directly at emulator", straight));
    console.log(
      `    ratio (proxy / direct)  p50 ${(percentile(through, 50) / percentile(straight, 50)).toFixed(2)}x   p99 ${(percentile(through, 99) / percentile(straight, 99)).toFixed(2)}x`,
    );
    console.log(`    added by the proxy      p50 ${(percentile(through, 50) - percentile(straight, 50)).toFixed(2)} ms`);
  },
};
