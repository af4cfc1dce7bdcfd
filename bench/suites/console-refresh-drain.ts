/**
 * The refresher's worst case at scale (issue 43): every rotating token due at once. The hosted shape
 * (hosted-console.ts: the standalone emulator with its per-workspace rate limits on, two instances on one
 * PostgreSQL, their refreshers on, each making at most REFRESHER_CONCURRENCY refreshes at once) is seeded
 * (npm run seed) with N installations whose bot and user tokens rotate, their expiries spread over the next
 * 12 hours; then, before any instance runs, the platform's clock jumps 11.5 hours, so every token is due and
 * the freshest have 30 minutes left. The instances start into that backlog. Goals: every token refreshed
 * exactly once (the emulator's grants), within those 30 minutes of platform time (the clock runs on with the
 * wall's); while the backlog drains, /api/health p99 < 100 ms and the token API p99 < 200 ms (clients asking
 * as fast as answers come); each instance's memory under 600 MB. A full run fails when one is not met; quick
 * mode judges exactly-once and the deadline alone.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { benchSetting, QUICK } from "../mode";
import type { BenchSuite } from "../suite";
import { percentile } from "./console-server";
import { startHostedConsole, type HostedConsole } from "./hosted-console";
import { count, MB } from "./soak-crowd";
import { askTokensUntil, createApiKey } from "./token-api-clients";

const INSTALLATIONS = benchSetting("BENCH_DRAIN_INSTALLATIONS", 50_000, 60);
const CONCURRENCY = benchSetting("BENCH_DRAIN_CONCURRENCY", 4, 4);
const HEALTH_CLIENTS = benchSetting("BENCH_DRAIN_HEALTH_CLIENTS", 2, 1);
const TOKEN_CLIENTS = benchSetting("BENCH_DRAIN_TOKEN_CLIENTS", 4, 2);
const JUMP_S = 11.5 * 3600;
/** What the tokens have left after the jump: the drain's deadline, in platform time (the clock runs on with the wall's). */
const LEFT_S = 12 * 3600 - JUMP_S;
const MEMORY_LIMIT = 600 * MB;
const INSTANCES = 2;
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The refreshes the instances settled so far, by outcome, from their Prometheus metrics (each instance asked
 * directly), and how many refreshes each instance's refresher may have under way now (its gate, which the
 * event loop's delay sets).
 */
async function refreshesByOutcome(hosted: HostedConsole, metricsToken: string): Promise<{ byOutcome: Map<string, number>; allowed: number[] }> {
  const byOutcome = new Map<string, number>();
  const allowed: number[] = [];
  for (const instance of hosted.instances) {
    const text = await (await fetch(`http://127.0.0.1:${instance.port}/api/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
    for (const match of text.matchAll(/^switchboard_token_refreshes_total\{([^}]*)\} (\d+)/gm)) {
      const outcome = /outcome="([^"]+)"/.exec(match[1]!)?.[1] ?? "?";
      byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + Number(match[2]));
    }
    allowed.push(Number(/^switchboard_refresher_allowed (\S+)/m.exec(text)?.[1] ?? Number.NaN));
  }
  return { byOutcome, allowed };
}

/** Clients asking GET /api/health one after the other until `deadline`, each answer's latency kept. */
async function pollHealthUntil(origin: string, clients: number, deadline: number, latencies: number[], statuses: Map<string, number>) {
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const sent = performance.now();
        try {
          const response = await fetch(`${origin}/api/health`);
          await response.arrayBuffer();
          count(statuses, String(response.status));
        } catch {
          count(statuses, "fetch failed");
        }
        latencies.push(performance.now() - sent);
      }
    }),
  );
}

const line = (label: string, text: string) => console.log(`    ${label.padEnd(17)}${text}`);
const p = (sorted: number[], q: number) => `${percentile(sorted, q).toFixed(1)} ms`;

/** The seeding script (npm run seed, issue 43) against the platform and the store, before any instance runs. */
async function seed(env: Record<string, string>, emulatorBaseUrl: string, installations: number): Promise<string> {
  const args = ["--conditions=react-server", "--import", "tsx", "scripts/seed.ts", "--installations", String(installations)];
  args.push("--emulator-url", emulatorBaseUrl, "--rotating-share", "1", "--user-share", "1");
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env, LOG_LEVEL: "warn" }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`npm run seed exited with ${code}:\n${output}`);
  return output.trim().split("\n").at(-1) ?? "";
}

export const consoleRefreshDrainSuite: BenchSuite = {
  name: `console: refresh drain, ${INSTANCES} instances on PostgreSQL (${INSTALLATIONS} installations, ${2 * INSTALLATIONS} rotating tokens, clock jumps 11.5 h, ${CONCURRENCY} refreshes at once per instance)`,
  async run() {
    const metricsToken = randomBytes(24).toString("base64url");
    const starting = performance.now();
    let jumped = 0;
    let teams: string[] = [];
    const hosted = await startHostedConsole({
      instances: INSTANCES,
      workspaces: 1,
      users: 5,
      refresherIntervalS: 2,
      env: { REFRESHER_CONCURRENCY: String(CONCURRENCY), METRICS_TOKEN: metricsToken },
      // Seeded, then the clock moved while no instance ran: each starts into the whole backlog.
      beforeInstances: async ({ env, emulatorBaseUrl }) => {
        const seeding = performance.now();
        const said = await seed(env, emulatorBaseUrl, INSTALLATIONS);
        console.log(
          `  seeded ${INSTALLATIONS} installations, each with a rotating bot and user token, in ${((performance.now() - seeding) / 1000).toFixed(1)} s (${said})`,
        );
        const admin = async (path: string, body?: unknown) => {
          const response = await fetch(`${emulatorBaseUrl}/admin/${path}`, {
            ...(body === undefined ? {} : { method: "POST", body: JSON.stringify(body) }),
            headers: { "content-type": "application/json", authorization: `Bearer ${env.EMULATOR_ADMIN_TOKEN}` },
          });
          if (!response.ok) throw new Error(`emulator admin/${path}: ${response.status}`);
          return response.json() as Promise<{ installations: Array<{ team_id: string }> }>;
        };
        teams = (await admin("state")).installations.map((i) => i.team_id);
        await admin("rate-limits", { enabled: true });
        await admin("clock", { advance_s: JUMP_S });
        jumped = performance.now();
      },
    });
    let failed = true;
    try {
      console.log(
        `  ${hosted.describe()}; started in ${((performance.now() - starting) / 1000).toFixed(1)} s, ${((performance.now() - jumped) / 1000).toFixed(1)} s after the jump`,
      );
      const keys = await Promise.all(Array.from({ length: TOKEN_CLIENTS }, (_, i) => createApiKey(hosted.origin, `backend ${i + 1}`)));
      const before = new Map<string, number>();
      const tokens = 2 * teams.length;

      const health: number[] = [];
      const healthStatuses = new Map<string, number>();
      const tokenApi: number[] = [];
      // The answers that refreshed their token first (it had not been reached yet), apart: the tail is theirs.
      const tokenApiRefreshed: number[] = [];
      const tokenStatuses = new Map<string, number>();
      const peaks = hosted.instances.map((i) => i.rssBytes());
      // Each instance's refreshes allowed at once, read every second of the drain.
      const allowedSeen: number[][] = hosted.instances.map(() => []);
      const progress: string[] = [];
      const deadline = jumped + LEFT_S * 1000;
      let drainedAt: number | undefined;
      let granted = 0;
      let stopLoad = deadline;
      const watching = (async () => {
        for (let tick = 0; performance.now() < deadline; tick++) {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          hosted.instances.forEach((instance, i) => (peaks[i] = Math.max(peaks[i]!, instance.rssBytes())));
          const { byOutcome: now, allowed } = await refreshesByOutcome(hosted, metricsToken);
          allowed.forEach((a, i) => allowedSeen[i]!.push(a));
          granted = (now.get("granted") ?? 0) - (before.get("granted") ?? 0);
          if (tick % 10 === 0) progress.push(`${Math.round((performance.now() - jumped) / 1000)} s: ${granted}`);
          if (granted >= tokens) {
            drainedAt = performance.now();
            // The load runs on a little after the drain, then stops.
            stopLoad = Math.min(stopLoad, performance.now());
            return;
          }
        }
      })();
      const loadDeadline = () => stopLoad;
      await Promise.all([
        watching,
        (async () => {
          while (performance.now() < loadDeadline())
            await pollHealthUntil(hosted.origin, HEALTH_CLIENTS, Math.min(loadDeadline(), performance.now() + 5_000), health, healthStatuses);
        })(),
        (async () => {
          while (performance.now() < loadDeadline()) {
            await askTokensUntil(hosted.origin, keys, teams, Math.min(loadDeadline(), performance.now() + 5_000), (a) => {
              tokenApi.push(a.ms);
              if (a.body.includes('"refreshed":true')) tokenApiRefreshed.push(a.ms);
              count(tokenStatuses, String(a.status));
            });
          }
        })(),
      ]);

      const drainS = drainedAt === undefined ? undefined : (drainedAt - jumped) / 1000;
      const { byOutcome: after } = await refreshesByOutcome(hosted, metricsToken);
      const state = await hosted.emulator.admin<{ installations: Array<{ refresh_grants: number }> }>("state");
      const grants = state.installations.map((i) => i.refresh_grants);
      const histogram = new Map<number, number>();
      for (const g of grants) histogram.set(g, (histogram.get(g) ?? 0) + 1);
      health.sort((a, b) => a - b);
      tokenApi.sort((a, b) => a - b);
      tokenApiRefreshed.sort((a, b) => a - b);
      const delta = (outcome: string) => (after.get(outcome) ?? 0) - (before.get(outcome) ?? 0);
      console.log(
        `  drain: ${tokens} tokens due at once; ${drainS === undefined ? `NOT drained in ${LEFT_S / 60} min (${granted} granted)` : `drained in ${drainS.toFixed(1)} s (${(tokens / drainS).toFixed(1)} refreshes a second)`}`,
      );
      line("progress", `${progress.join(", ")} granted`);
      line(
        "at once",
        allowedSeen
          .map((seen, i) => {
            const sorted = [...seen].sort((a, b) => a - b);
            const mean = seen.reduce((a, b) => a + b, 0) / Math.max(1, seen.length);
            return `instance ${i + 1}: ${sorted[0] ?? "?"} to ${sorted.at(-1) ?? "?"}, mean ${mean.toFixed(1)}`;
          })
          .join("; ") + ` refreshes allowed (of ${CONCURRENCY}; fewer while the event loop lags)`,
      );
      line("by outcome", `granted ${delta("granted")}, joined ${delta("joined")}, failed ${delta("failed")}, refused ${delta("refused")}`);
      line(
        "refresh grants",
        `${grants.length} installations at the emulator: ${[...histogram]
          .sort()
          .map(([g, n]) => `${n} with ${g}`)
          .join(", ")}  (goal: every installation 2, its bot and user token once each)`,
      );
      line(
        "/api/health",
        `${health.length} answers (${[...healthStatuses].map(([s, n]) => `${s}: ${n}`).join(", ")}): p50 ${p(health, 50)}   p99 ${p(health, 99)}  (goal p99 < 100 ms)`,
      );
      line(
        "token API",
        `${tokenApi.length} answers (${[...tokenStatuses].map(([s, n]) => `${s}: ${n}`).join(", ")}): p50 ${p(tokenApi, 50)}   p99 ${p(tokenApi, 99)}  (goal p99 < 200 ms)`,
      );
      line(
        "  refreshed first",
        `${tokenApiRefreshed.length} of them (their token not reached yet): p50 ${p(tokenApiRefreshed, 50)}   p99 ${p(tokenApiRefreshed, 99)}`,
      );
      // What the peak was made of: the heap that outlives a full collection (what the instance holds) against garbage not yet collected.
      const asIs = await Promise.all(hosted.instances.map((instance) => instance.heap(false).catch(() => undefined)));
      const held = await Promise.all(hosted.instances.map((instance) => instance.heap(true).catch(() => undefined)));
      hosted.instances.forEach((_, i) =>
        line(
          `instance ${i + 1}`,
          `peak RSS ${(peaks[i]! / MB).toFixed(0)} MB  (goal < 600 MB); after the drain: ${asIs[i] ? `RSS ${(asIs[i].rss / MB).toFixed(0)} MB, heap ${(asIs[i].heapTotal / MB).toFixed(0)} MB (external ${(asIs[i].external / MB).toFixed(0)} MB)` : "not read"}, after a full collection ${held[i] ? `${(held[i].heapUsed / MB).toFixed(0)} MB used` : "not read"}`,
        ),
      );

      const goals = [
        { goal: "every token refreshed exactly once", met: grants.length === INSTALLATIONS && grants.every((g) => g === 2), judged: true },
        { goal: `drained within ${LEFT_S / 60} minutes of platform time`, met: drainS !== undefined, judged: true },
        { goal: "/api/health p99 < 100 ms", met: percentile(health, 99) < 100, judged: !QUICK },
        { goal: "token API p99 < 200 ms", met: percentile(tokenApi, 99) < 200, judged: !QUICK },
        { goal: "memory per instance < 600 MB", met: peaks.every((b) => b < MEMORY_LIMIT), judged: !QUICK },
      ];
      const unmet = goals.filter((g) => !g.met);
      console.log(
        `  goals: ${unmet.length === 0 ? "met" : `NOT met: ${unmet.map((g) => `${g.goal}${g.judged ? "" : " (not judged in quick mode)"}`).join("; ")}`}`,
      );
      const failing = unmet.filter((g) => g.judged);
      if (failing.length > 0) throw new Error(`the refresh drain's goals are not met: ${failing.map((g) => g.goal).join("; ")}`);
      failed = false;
    } finally {
      const logged = hosted.loggedErrors();
      if (logged.size > 0) console.log(`  the instances logged: ${[...logged].map(([e, n]) => `${n}× ${e}`).join("; ")}`);
      if (failed) console.log(`  the instances' logs (kept): ${hosted.logs}`);
      await hosted.stop({ keepLogs: failed });
    }
  },
};
