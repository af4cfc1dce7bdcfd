/**
 * (g) The dashboard with many installations (issue 26): 1,000 installations, one per workspace, installed
 * through the OAuth flow; then GET /api/session (the list route: a page of 50 with their timelines, searched
 * and filtered on the server) and GET / (the dashboard's HTML) are timed one after another: the first page,
 * a page deep in the list, a search, a filter by state. Goal: p95 under 100 ms for each. The installations
 * are forgotten at the end, so the suites after this one find the console as they expect it.
 */
import { expectOk } from "../http";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { admin, consoleHeaders, forgetAllInstallations, installThroughConsole, ORIGIN, percentile, resetWorkspace, startConsole } from "./console-server";

const INSTALLATIONS = benchSetting("BENCH_DASHBOARD_INSTALLATIONS", 1_000, 60);
const SAMPLES = benchSetting("BENCH_DASHBOARD_SAMPLES", 100, 10);
const INSTALL_CONCURRENCY = 8;

async function timed(path: string, headers: Record<string, string>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    const response = await expectOk(await fetch(`${ORIGIN}${path}`, { headers }), `GET ${path}`);
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

export const consoleDashboardSuite: BenchSuite = {
  name: `console: the dashboard and its list route with ${INSTALLATIONS.toLocaleString("en-US")} installations`,
  async run() {
    await startConsole();
    await admin("reset", { users: 20, workspaces: INSTALLATIONS });
    const { workspaces } = (await admin("state")) as { workspaces: Array<{ id: string; name: string }> };
    const started = performance.now();
    const queue = workspaces.slice(0, INSTALLATIONS);
    await Promise.all(
      Array.from({ length: INSTALL_CONCURRENCY }, async () => {
        for (let w = queue.shift(); w; w = queue.shift()) await installThroughConsole(w.id);
      }),
    );
    console.log(`  ${INSTALLATIONS.toLocaleString("en-US")} installations through the OAuth flow in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const headers = consoleHeaders("");
    const middle = workspaces[Math.floor(INSTALLATIONS / 2)]!;
    const cases: Array<[string, string]> = [
      ["GET /api/session (first page of 50)", "/api/session"],
      ["GET /api/session?offset (a page deep in the list)", `/api/session?offset=${Math.max(0, INSTALLATIONS - 50)}`],
      ["GET /api/session?q (a search by workspace id)", `/api/session?q=${encodeURIComponent(middle.id)}`],
      ["GET /api/session?state=rotating (a filter)", "/api/session?state=rotating"],
      ["GET / (the dashboard's HTML)", "/"],
    ];
    try {
      let worst = 0;
      for (const [label, path] of cases) {
        const times = await timed(path, headers);
        const p95 = percentile(times, 95);
        worst = Math.max(worst, p95);
        console.log(
          `  ${label.padEnd(52)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms   (${SAMPLES} samples)`,
        );
      }
      console.log(`  slowest p95 ${worst.toFixed(1)} ms (goal: under 100 ms)`);
    } finally {
      const forgotten = await forgetAllInstallations();
      console.log(`  ${forgotten.toLocaleString("en-US")} installations forgotten after the run`);
      await resetWorkspace(3000);
    }
  },
};
