/**
 * (j) The token API under load (issue 27): 100 installations (one per workspace) installed through the
 * OAuth flow; 20 backend clients, each with its own API key, ask GET /api/v1/installations/{team}/token for
 * random workspaces as fast as the console answers, for 20 s; halfway the platform's clock moves 11½ hours,
 * so every bot token has half an hour left, less than the hour the API promises, and each is refreshed on
 * its next request. Printed: answers a second, p50/p99, errors (429s apart), and refresh grants per token
 * rotated (goal: exactly one).
 */
import { expectJson } from "../http";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { admin, consoleHeaders, installThroughConsole, ORIGIN, percentile, resetWorkspace, startConsole } from "./console-server";
import { askTokensUntil, createApiKey } from "./token-api-clients";

const INSTALLATIONS = benchSetting("BENCH_TOKEN_API_INSTALLATIONS", 100, 10);
const CLIENTS = benchSetting("BENCH_TOKEN_API_CLIENTS", 20, 4);
const DURATION_S = benchSetting("BENCH_TOKEN_API_DURATION_S", 20, 3);
const INSTALL_CONCURRENCY = 8;

async function grants(): Promise<number> {
  const state = (await admin("state")) as { installations: Array<{ refresh_grants: number }> };
  return state.installations.reduce((n, i) => n + i.refresh_grants, 0);
}

export const consoleTokenApiSuite: BenchSuite = {
  name: `console: the token API, ${CLIENTS} backend clients across ${INSTALLATIONS} installations, the clock crossing an expiry`,
  async run() {
    await startConsole();
    await admin("reset", { users: 20, workspaces: INSTALLATIONS });
    const { workspaces } = (await admin("state")) as { workspaces: Array<{ id: string }> };
    const queue = workspaces.slice(0, INSTALLATIONS);
    await Promise.all(
      Array.from({ length: INSTALL_CONCURRENCY }, async () => {
        for (let w = queue.shift(); w; w = queue.shift()) await installThroughConsole(w.id);
      }),
    );
    const teams = workspaces.slice(0, INSTALLATIONS).map((w) => w.id);
    const keys = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => createApiKey(ORIGIN, `backend ${i + 1}`)));
    const grantsBefore = await grants();

    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    const askedAfterMove = new Set<string>();
    let movedAt = Infinity;
    const deadline = performance.now() + DURATION_S * 1000;
    const halfway = performance.now() + (DURATION_S * 1000) / 2;
    const mover = (async () => {
      await new Promise((resolve) => setTimeout(resolve, halfway - performance.now()));
      await expectJson(
        await fetch(`${ORIGIN}/api/platform-clock`, {
          method: "POST",
          headers: { ...consoleHeaders(""), origin: ORIGIN, "content-type": "application/json" },
          body: JSON.stringify({ advance_s: 11.5 * 3600 }),
        }),
        "POST /api/platform-clock",
      );
      movedAt = performance.now();
    })();
    await askTokensUntil(ORIGIN, keys, teams, deadline, (answer) => {
      latencies.push(answer.ms);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.sentAt >= movedAt && answer.status === 200) askedAfterMove.add(answer.team);
    });
    await mover;
    const rotated = (await grants()) - grantsBefore;
    latencies.sort((a, b) => a - b);
    const total = latencies.length;
    const errors = [...statuses].filter(([status]) => status !== 200 && status !== 429).reduce((n, [, c]) => n + c, 0);
    console.log(`  ${total.toLocaleString("en-US")} answers in ${DURATION_S} s: ${(total / DURATION_S).toFixed(0)} a second`);
    console.log(`  p50 ${percentile(latencies, 50).toFixed(1)} ms   p99 ${percentile(latencies, 99).toFixed(1)} ms`);
    console.log(`  statuses: ${[...statuses].map(([s, c]) => `${s} × ${c}`).join(", ")}; errors other than 429: ${errors} (goal: 0)`);
    console.log(
      `  refresh grants: ${rotated} for ${askedAfterMove.size} tokens asked for after the clock moved (${askedAfterMove.size > 0 ? (rotated / askedAfterMove.size).toFixed(2) : "n/a"} per rotation; goal: exactly 1)`,
    );
    await resetWorkspace(3000);
  },
};
