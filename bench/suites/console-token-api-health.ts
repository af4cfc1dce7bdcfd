/**
 * The token API beside /api/health (issue 43), 20 backends (each with an API key of its own, asking for a
 * random workspace's bot token), on the default store (PGlite, the bench's shared server) and on PostgreSQL
 * (one hosted instance, hosted-console.ts) with INSTALLATIONS installed through the OAuth flow, then on
 * PostgreSQL with SEEDED (100,000) seeded by `npm run seed`. Before the load, every installation asked for is
 * asked for once (the caches warm). Two measurements, in alternating rounds so that a busier moment of the
 * machine weighs on both routes:
 *
 * - Throughput, at saturation: autocannon, 20 connections each sending its next request as soon as an answer
 *   comes (closed loop), against /api/health and the token API in turn. Goal: the token API answers at least
 *   0.8 of what health answers. At saturation latency is not a goal: with 20 requests always in flight,
 *   p50 ≈ 20 / throughput (760 a second gives 26 ms), whatever the route does.
 * - Latency, at a stated rate: the 20 backends together send RATE requests a second at random moments, whether
 *   or not earlier answers came (open-loop.ts; autocannon's own rate option sends each second's budget in a
 *   burst), against both routes in turn. Goal: the token API's p50 < 5 ms and p99 < 50 ms, from the moment
 *   each request was due.
 *
 * Printed per store: both measurements per round and over all, errors (goal 0: no non-2xx, no failed
 * request), how many answers the audit holds against how many were counted (goal: every one), and the
 * server's memory. Quick mode: 10 installations (200 seeded), one round of 2 s each.
 */
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { admin, installThroughConsole, ORIGIN, percentile, resetWorkspace, serverRssBytes, startConsole } from "./console-server";
import { startHostedConsole } from "./hosted-console";
import { openLoop, type OpenLoopResult } from "./open-loop";
import { countAuditedUses, createApiKey } from "./token-api-clients";

const INSTALLATIONS = benchSetting("BENCH_TOKEN_API_HEALTH_INSTALLATIONS", 100, 10);
/** Installations seeded (scripts/seed.ts, no OAuth) for the third run, on PostgreSQL: the issue's 100,000. */
const SEEDED = benchSetting("BENCH_TOKEN_API_SEEDED", 100_000, 200);
/**
 * Of the seeded installations, how many the load asks for (each asked once first, to warm it): a first answer
 * for a seeded installation learns its bot's id and checks its platform (a call to the platform and a write),
 * which ran at about 22 a second on the loaded machine: warming all 100,000 would take over an hour.
 */
const SEEDED_ASKED = benchSetting("BENCH_TOKEN_API_SEEDED_ASKED", 2_000, 100);
/** BENCH_TOKEN_API_STORES: which of the three runs (default all), e.g. "pglite,postgres" while there is no seeding. */
const STORES = (process.env.BENCH_TOKEN_API_STORES ?? "pglite,postgres,seeded").split(",");
/** Health and the token API alternate, ROUNDS times each, so that a machine busier in one moment weighs on both. */
const ROUNDS = benchSetting("BENCH_TOKEN_API_HEALTH_ROUNDS", 3, 1);
const BACKENDS = 20;
const SECONDS = benchSetting("BENCH_TOKEN_API_HEALTH_SECONDS", 10, 2);
/**
 * The rate (requests a second, the 20 backends together) at which latency is measured: 10 a second per
 * backend, about a third of what one instance answers at saturation on the 2-vCPU bench machine.
 */
const RATE = benchSetting("BENCH_TOKEN_API_RATE", 200, 100);
const INSTALL_CONCURRENCY = 8;

interface Loaded {
  rps: number;
  /** How long the round ran (s), as autocannon measured it: to its last answer. */
  seconds: number;
  p50: number;
  p99: number;
  answers: number;
  errors: number;
  non2xx: number;
}

async function load(origin: string, path: (() => { path: string; headers?: Record<string, string> }) | string): Promise<Loaded> {
  const result = await autocannon({
    url: origin,
    connections: BACKENDS,
    duration: SECONDS,
    requests: [{ method: "GET", setupRequest: (request) => ({ ...request, ...(typeof path === "string" ? { path } : path()) }) }],
  });
  const answers = result["2xx"] + result.non2xx;
  return {
    rps: answers / result.duration,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    answers,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Rounds as one: answers a second over them all, the median p50, the worst p99, every error. */
function combined(rounds: Loaded[]): Loaded {
  const answers = rounds.reduce((n, r) => n + r.answers, 0);
  const p50s = rounds.map((r) => r.p50).sort((a, b) => a - b);
  const seconds = rounds.reduce((n, r) => n + r.seconds, 0);
  return {
    rps: answers / seconds,
    seconds,
    p50: p50s[Math.floor(p50s.length / 2)]!,
    p99: Math.max(...rounds.map((r) => r.p99)),
    answers,
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
  };
}

const line = (label: string, r: Loaded) =>
  `  ${label.padEnd(12)} ${r.rps.toFixed(0).padStart(6)} answers/s   p50 ${r.p50.toFixed(1)} ms   p99 ${r.p99.toFixed(1)} ms   errors ${r.errors}, non-2xx ${r.non2xx}`;

/**
 * With BENCH_CPU_PROBE_DIR set (and bench/cpu-probe.mjs preloaded into the servers through NODE_OPTIONS), the
 * first saturation round of each route is profiled, each window on its own (server-<pid>-<window>.cpuprofile;
 * bench/cpu-profile-top.ts summarises one).
 */
async function profiled<T>(window: string, when: boolean, run: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CPU_PROBE_DIR;
  if (!dir || !when) return run();
  rmSync(join(dir, "stop"), { force: true });
  writeFileSync(join(dir, "start"), window);
  // The probe looks every 250 ms.
  await new Promise((r) => setTimeout(r, 500));
  const result = await run();
  writeFileSync(join(dir, "stop"), "");
  await new Promise((r) => setTimeout(r, 1_500));
  return result;
}

/** Open-loop rounds as one. */
function allOf(rounds: OpenLoopResult[]): OpenLoopResult {
  const answers = rounds.reduce((n, r) => n + r.answers, 0);
  return {
    rps: answers / (rounds.length * SECONDS),
    answers,
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    latencies: rounds.flatMap((r) => r.latencies).sort((a, b) => a - b),
    lateP99: Math.max(...rounds.map((r) => r.lateP99)),
  };
}

const rateLine = (label: string, r: OpenLoopResult) =>
  `  ${label.padEnd(12)} ${r.rps.toFixed(0).padStart(6)} answers/s   p50 ${percentile(r.latencies, 50).toFixed(1)} ms   p90 ${percentile(r.latencies, 90).toFixed(1)} ms   p99 ${percentile(r.latencies, 99).toFixed(1)} ms   max ${(r.latencies.at(-1) ?? NaN).toFixed(1)} ms   errors ${r.errors}, non-2xx ${r.non2xx}   (sent up to ${r.lateP99.toFixed(1)} ms late, p99)`;

/** Installs the console's app into `teams` through the OAuth flow, INSTALL_CONCURRENCY at a time. */
async function installAll(origin: string, teams: readonly string[]): Promise<void> {
  const queue = [...teams];
  await Promise.all(
    Array.from({ length: INSTALL_CONCURRENCY }, async () => {
      for (let team = queue.shift(); team; team = queue.shift()) await installThroughConsole(team, origin);
    }),
  );
}

/**
 * The side-by-side measurement on one console: warm every installation, then health and the token API at
 * `origin`; keys made and the audit read through `consoleOrigin` (its APP_ORIGIN, which the console's own
 * pages must be asked at).
 */
async function measure(label: string, origin: string, teams: readonly string[], rss: () => number, consoleOrigin = origin): Promise<void> {
  const keys = await Promise.all(Array.from({ length: BACKENDS }, (_, i) => createApiKey(consoleOrigin, `backend ${i + 1}`)));
  const pick = <T>(of: readonly T[]) => of[Math.floor(Math.random() * of.length)]!;
  const ask = (team: string, key: string) => fetch(`${origin}/api/v1/installations/${team}/token?kind=bot`, { headers: { authorization: `Bearer ${key}` } });
  // Warm: each installation asked for once (and each key used), BACKENDS at a time.
  let warmed = 0;
  const queue = [...teams];
  await Promise.all(
    keys.map(async (key) => {
      for (let team = queue.shift(); team; team = queue.shift()) {
        const answer = await ask(team, key);
        await answer.arrayBuffer();
        if (answer.status !== 200) throw new Error(`warming: GET …/${team}/token answered ${answer.status}`);
        warmed++;
      }
    }),
  );
  const tokenRequest = () => ({ path: `/api/v1/installations/${pick(teams)}/token?kind=bot`, headers: { authorization: `Bearer ${pick(keys)}` } });
  const healths: Loaded[] = [];
  const tokenRounds: Loaded[] = [];
  const healthsAtRate: OpenLoopResult[] = [];
  const tokensAtRate: OpenLoopResult[] = [];
  const atRate = (request: () => { path: string; headers?: Record<string, string> }) =>
    openLoop({ origin, backends: BACKENDS, ratePerS: RATE, seconds: SECONDS, request });
  for (let round = 0; round < ROUNDS; round++) {
    healths.push(await profiled("health", round === 0, () => load(origin, "/api/health")));
    tokenRounds.push(await profiled("token-api", round === 0, () => load(origin, tokenRequest)));
    healthsAtRate.push(await atRate(() => ({ path: "/api/health" })));
    tokensAtRate.push(await atRate(tokenRequest));
  }
  const health = combined(healths);
  const tokens = combined(tokenRounds);
  const healthAtRate = allOf(healthsAtRate);
  const tokenAtRate = allOf(tokensAtRate);
  const audited = await countAuditedUses(consoleOrigin);
  const ratio = tokens.rps / health.rps;
  console.log(`\n  ${label}`);
  console.log(`  throughput at saturation: ${BACKENDS} connections as fast as answers come (autocannon), ${ROUNDS} × ${SECONDS} s per route, alternating`);
  for (let round = 0; round < ROUNDS; round++) console.log(`${line("/api/health", healths[round]!)}\n${line("token API", tokenRounds[round]!)}`);
  console.log(`${line("/api/health", health)}   (all rounds)\n${line("token API", tokens)}   (all rounds)`);
  console.log(
    `  latency at ${RATE} requests a second: ${BACKENDS} backends sending at random moments (open loop, from when each was due), ${ROUNDS} × ${SECONDS} s per route, alternating`,
  );
  for (let round = 0; round < ROUNDS; round++) console.log(`${rateLine("/api/health", healthsAtRate[round]!)}\n${rateLine("token API", tokensAtRate[round]!)}`);
  console.log(`${rateLine("/api/health", healthAtRate)}   (all rounds)\n${rateLine("token API", tokenAtRate)}   (all rounds)`);
  const errors = tokens.errors + tokens.non2xx + tokenAtRate.errors + tokenAtRate.non2xx;
  console.log(
    `  goals: token API / health throughput ${ratio.toFixed(2)} (≥ 0.8); at ${RATE}/s (${((100 * RATE) / tokens.rps).toFixed(0)}% of the token API's saturation) p50 ${percentile(tokenAtRate.latencies, 50).toFixed(1)} ms (< 5), p99 ${percentile(tokenAtRate.latencies, 99).toFixed(1)} ms (< 50); errors ${errors} (0)`,
  );
  // autocannon counts the answers it read; the server may also have answered (and audited) a request in flight when it stopped.
  const answered = warmed + tokens.answers + tokenAtRate.answers;
  console.log(
    `  audited: ${audited.toLocaleString("en-US")} uses for ${answered.toLocaleString("en-US")} answers counted (${warmed} warming + ${tokens.answers.toLocaleString("en-US")} at saturation + ${tokenAtRate.answers.toLocaleString("en-US")} at ${RATE}/s; up to ${ROUNDS * BACKENDS} more in flight as saturation rounds ended)${audited >= answered && audited <= answered + ROUNDS * BACKENDS ? "" : "  NOT EVERY ANSWER AUDITED"}`,
  );
  console.log(`  server memory (RSS): ${(rss() / 1e6).toFixed(0)} MB`);
}

/**
 * One hosted instance on PostgreSQL, its installations made through the OAuth flow (INSTALLATIONS) or seeded
 * (SEEDED); measured at the instance itself, not through the bench's TCP proxy, as a load balancer reaches it.
 */
async function onPostgres(label: string, seeded: boolean): Promise<void> {
  const hosted = await startHostedConsole({ instances: 1, workspaces: seeded ? 1 : INSTALLATIONS, users: 20, refresherIntervalS: 3600 });
  try {
    let teams: string[];
    if (seeded) {
      teams = await seed(hosted.databaseUrl, hosted.emulator.baseUrl, hosted.sharedEnv);
    } else {
      const state = await hosted.emulator.admin<{ workspaces: Array<{ id: string }> }>("state");
      teams = state.workspaces.slice(0, INSTALLATIONS).map((w) => w.id);
      await installAll(hosted.origin, teams);
    }
    const instance = hosted.instances[0]!;
    const asked = seeded ? teams.sort(() => Math.random() - 0.5).slice(0, SEEDED_ASKED) : teams;
    const what = `${label}, ${teams.length.toLocaleString("en-US")} installations${seeded ? `, the load on ${asked.length.toLocaleString("en-US")} of them` : ""}`;
    await measure(what, `http://127.0.0.1:${instance.port}`, asked, instance.rssBytes, hosted.origin);
  } finally {
    await hosted.stop();
  }
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** SEEDED installations in the platform and the store, with `npm run seed` (no OAuth); answers their workspaces. */
async function seed(databaseUrl: string, emulatorUrl: string, instanceEnv: Record<string, string>): Promise<string[]> {
  const started = performance.now();
  const args = [
    "--conditions=react-server",
    "scripts/seed.ts",
    "--installations",
    String(SEEDED),
    // Smaller than the default 2,000: an answer of 2,000 installations' tokens from the standalone emulator was cut off on this machine.
    "--batch",
    "500",
    "--database-url",
    databaseUrl,
    "--emulator-url",
    emulatorUrl,
  ];
  const seeded = spawnSync(process.execPath, ["--import", "tsx", ...args], {
    cwd: ROOT,
    // As one of the instances: the same sealing keys (SESSION_PASSWORD), app (CLIENT_ID) and admin token.
    env: { ...process.env, ...instanceEnv },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (seeded.status !== 0) throw new Error(`npm run seed failed (${seeded.status})`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ team_id: string }>("select team_id from installations");
    console.log(`  seeded ${rows.length.toLocaleString("en-US")} installations in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    return rows.map((r) => r.team_id);
  } finally {
    await client.end();
  }
}

export const consoleTokenApiHealthSuite: BenchSuite = {
  name: `console: the token API beside /api/health, ${BACKENDS} backends: ${INSTALLATIONS} installations on PGlite and on PostgreSQL, ${SEEDED.toLocaleString("en-US")} seeded on PostgreSQL`,
  async run() {
    if (STORES.includes("pglite")) {
      await startConsole();
      await admin("reset", { users: 20, workspaces: INSTALLATIONS });
      const { workspaces } = (await admin("state")) as { workspaces: Array<{ id: string }> };
      const teams = workspaces.slice(0, INSTALLATIONS).map((w) => w.id);
      await installAll(ORIGIN, teams);
      await measure(`PGlite (the bench's server, one process), ${teams.length} installations`, ORIGIN, teams, serverRssBytes);
      await resetWorkspace(3000);
    }
    if (STORES.includes("postgres")) await onPostgres(`PostgreSQL (one hosted instance)`, false);
    if (STORES.includes("seeded")) await onPostgres(`PostgreSQL, seeded (one hosted instance)`, true);
  },
};
