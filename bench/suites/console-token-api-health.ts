/**
 * The token API beside /api/health (issue 43): the same load generator (autocannon, 20 connections: the 20
 * backends, each request with one of 20 API keys, for a random workspace) against both routes, one after
 * the other in the same run, on the default store (PGlite, the bench's shared server) and on PostgreSQL (one
 * hosted instance, hosted-console.ts), with INSTALLATIONS installed through the OAuth flow, then on
 * PostgreSQL with SEEDED (100,000) seeded by `npm run seed`. Before the load, every installation is asked
 * for once (the caches warm). Printed per store: answers a second and latency of each route, the ratio of their throughputs
 * (goal: at least 0.8), the token API's p50 (goal < 5 ms) and p99 (< 50 ms), errors (goal 0), how many
 * answers the audit holds against how many the load generator counted (goal: every one), and the server's
 * memory. Quick mode: 10 installations (200 seeded), 2 s per route.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { admin, installThroughConsole, ORIGIN, resetWorkspace, serverRssBytes, startConsole } from "./console-server";
import { startHostedConsole } from "./hosted-console";
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
const INSTALL_CONCURRENCY = 8;

interface Loaded {
  rps: number;
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
  return {
    rps: answers / (rounds.length * SECONDS),
    p50: p50s[Math.floor(p50s.length / 2)]!,
    p99: Math.max(...rounds.map((r) => r.p99)),
    answers,
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
  };
}

const line = (label: string, r: Loaded) =>
  `  ${label.padEnd(12)} ${r.rps.toFixed(0).padStart(6)} answers/s   p50 ${r.p50.toFixed(1)} ms   p99 ${r.p99.toFixed(1)} ms   errors ${r.errors}, non-2xx ${r.non2xx}`;

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
  const healths: Loaded[] = [];
  const tokenRounds: Loaded[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    healths.push(await load(origin, "/api/health"));
    tokenRounds.push(
      await load(origin, () => ({
        path: `/api/v1/installations/${pick(teams)}/token?kind=bot`,
        headers: { authorization: `Bearer ${pick(keys)}` },
      })),
    );
  }
  const health = combined(healths);
  const tokens = combined(tokenRounds);
  const audited = await countAuditedUses(consoleOrigin);
  const ratio = tokens.rps / health.rps;
  console.log(`\n  ${label}: ${BACKENDS} connections, ${ROUNDS} × ${SECONDS} s per route, alternating (autocannon)`);
  for (let round = 0; round < ROUNDS; round++) console.log(`${line("/api/health", healths[round]!)}\n${line("token API", tokenRounds[round]!)}`);
  console.log(`${line("/api/health", health)}   (all rounds)\n${line("token API", tokens)}   (all rounds)`);
  console.log(
    `  token API / health throughput: ${ratio.toFixed(2)} (goal ≥ 0.8); token API p50 ${tokens.p50.toFixed(1)} ms (goal < 5), p99 ${tokens.p99.toFixed(1)} ms (goal < 50); errors ${tokens.errors + tokens.non2xx} (goal 0)`,
  );
  // autocannon counts the answers it read; the server may also have answered (and audited) a request in flight when it stopped.
  const answered = warmed + tokens.answers;
  console.log(
    `  audited: ${audited.toLocaleString("en-US")} uses for ${answered.toLocaleString("en-US")} answers counted (${warmed} warming + ${tokens.answers.toLocaleString("en-US")}; up to ${ROUNDS * BACKENDS} more in flight as rounds ended)${audited >= answered && audited <= answered + ROUNDS * BACKENDS ? "" : "  NOT EVERY ANSWER AUDITED"}`,
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
