/**
 * users.list on a 100,000-member emulated workspace: does seeking a cursor cost the same at the last
 * page as at the first (goal: ratio ≤ 1.2), and how many 200-member pages per second does the emulator
 * serve over HTTP on a loopback port.
 */
import autocannon from "autocannon";
import { DEFAULT_REDIRECT_URL, startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import { BenchHttpError, expectPlatformOk } from "../http";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";

const PORT = benchSetting("BENCH_EMULATOR_PORT", 3213, 3213);
// Members are generated on demand, so the full-size workspace costs nothing to start even in quick mode.
const MEMBERS = 100_000;
const PAGE = 200;
const WARMUP_ROUNDS = benchSetting("BENCH_WARMUP_ROUNDS", 200, 20);
const ROUNDS = benchSetting("BENCH_ROUNDS", 1500, 50);
const AUTOCANNON_SECONDS = benchSetting("BENCH_SECONDS", 10, 1);
const AUTOCANNON_CONNECTIONS = 10;

async function installBot(server: EmulatorServer): Promise<string> {
  const app = [...server.emulator.state.apps.values()].find((a) => a.tokenRotationEnabled);
  if (!app) throw new Error("the emulator has no rotation app");
  const query = new URLSearchParams({ client_id: app.clientId, scope: "users:read", redirect_uri: DEFAULT_REDIRECT_URL, state: "bench" });
  const consent = await fetch(`${server.url}/oauth/v2/authorize?${query}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "decision=allow",
    redirect: "manual",
  });
  const code = new URL(consent.headers.get("location") ?? "http://invalid/").searchParams.get("code");
  if (!code) throw new BenchHttpError("consent (expected a redirect with a code)", consent.status, await consent.text());
  const access = await expectPlatformOk<{ access_token: string }>(
    await fetch(`${server.url}/api/oauth.v2.access`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret, code }).toString(),
    }),
    "oauth.v2.access",
  );
  return access.access_token;
}

function usersListPath(basePath: string, cursor: string): string {
  return `${basePath}/api/users.list?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
}

interface PageInfo {
  cursor: string;
  members: number;
}

/** Walks the whole workspace once, keeping the cursor that leads to each page. */
async function walk(server: EmulatorServer, token: string) {
  const pages: PageInfo[] = [];
  let cursor = "";
  const started = performance.now();
  do {
    const page = await expectPlatformOk<{ members: unknown[]; response_metadata?: { next_cursor?: string } }>(
      await fetch(`http://127.0.0.1:${server.port}${usersListPath(server.emulator.options.basePath, cursor)}`, {
        headers: { authorization: `Bearer ${token}` },
      }),
      "users.list walk",
    );
    pages.push({ cursor, members: page.members.length });
    cursor = page.response_metadata?.next_cursor ?? "";
  } while (cursor);
  return { pages, seconds: (performance.now() - started) / 1000 };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function summarize(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** Times one call, body read to the end, as a client experiences it. */
async function timeOnce(call: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await call();
  const body = await response.text();
  if (response.status !== 200) throw new BenchHttpError("users.list", response.status, body);
  return performance.now() - started;
}

/** First and last page, alternating, so both see the same machine load. */
async function interleaved(first: () => Promise<Response>, last: () => Promise<Response>) {
  for (let i = 0; i < WARMUP_ROUNDS; i++) {
    await timeOnce(first);
    await timeOnce(last);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) {
      a.push(await timeOnce(first));
      b.push(await timeOnce(last));
    } else {
      b.push(await timeOnce(last));
      a.push(await timeOnce(first));
    }
  }
  return { first: summarize(a), last: summarize(b) };
}

const ms = (n: number) => `${n.toFixed(3)} ms`;

function printLatency(title: string, result: Awaited<ReturnType<typeof interleaved>>) {
  console.log(`${title} (${ROUNDS} calls each, interleaved, after ${WARMUP_ROUNDS} warm-up rounds)`);
  console.log(`  first page  p50 ${ms(result.first.p50)}  p99 ${ms(result.first.p99)}`);
  console.log(`  last page   p50 ${ms(result.last.p50)}  p99 ${ms(result.last.p99)}`);
  const p50 = result.last.p50 / result.first.p50;
  const p99 = result.last.p99 / result.first.p99;
  console.log(`  ratio last/first  p50 ${p50.toFixed(3)}  p99 ${p99.toFixed(3)}  (goal ≤ 1.2: ${p50 <= 1.2 ? "met" : "NOT met"})`);
}

export const emulatorUsersListSuite: BenchSuite = {
  name: "emulator users.list (100,000 members)",
  async run() {
    const startedAt = performance.now();
    const server = await startEmulatorServer({
      port: PORT,
      users: MEMBERS,
      seed: "bench",
      // Long enough for the whole suite: the cursors collected by the walk are reused until the end.
      cursorTtlSeconds: 3600,
    });
    // The client keeps connections open across the phases; the server must not close them in between.
    server.server.keepAliveTimeout = 120_000;
    console.log(`emulator with ${MEMBERS.toLocaleString("en")} members up in ${(performance.now() - startedAt).toFixed(0)} ms at ${server.url}`);
    try {
      const token = await installBot(server);
      const auth = { authorization: `Bearer ${token}` };
      const { pages, seconds } = await walk(server, token);
      const members = pages.reduce((n, p) => n + p.members, 0);
      const short = pages.filter((p, i) => p.members < PAGE && i < pages.length - 1).length;
      console.log(
        `walk with limit=${PAGE}: ${members.toLocaleString("en")} members in ${pages.length} pages (${short} short pages before the end), ${seconds.toFixed(2)} s`,
      );

      // The deepest full page, so that both sides serialize the same number of members.
      const lastFull = [...pages].reverse().find((p) => p.members === PAGE) as PageInfo;
      const firstPath = usersListPath(server.emulator.options.basePath, "");
      const lastPath = usersListPath(server.emulator.options.basePath, lastFull.cursor);
      console.log(`last page measured: the deepest full page (page ${pages.indexOf(lastFull) + 1} of ${pages.length})\n`);

      const inProcess = (path: string) => () => server.emulator.fetch(new Request(`http://127.0.0.1:${server.port}${path}`, { headers: auth }));
      printLatency("in-process emulator.fetch", await interleaved(inProcess(firstPath), inProcess(lastPath)));
      const overHttp = (path: string) => () => fetch(`http://127.0.0.1:${server.port}${path}`, { headers: auth });
      printLatency("\nover HTTP (loopback, keep-alive)", await interleaved(overHttp(firstPath), overHttp(lastPath)));

      // Every connection cycles through cursors spread over the whole workspace.
      const paths = pages.map((p) => usersListPath(server.emulator.options.basePath, p.cursor));
      let next = 0;
      const result = await autocannon({
        url: `http://127.0.0.1:${server.port}`,
        connections: AUTOCANNON_CONNECTIONS,
        duration: AUTOCANNON_SECONDS,
        headers: auth,
        requests: [{ method: "GET", setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] as string }) }],
      });
      console.log(
        `\nautocannon: ${AUTOCANNON_CONNECTIONS} connections for ${AUTOCANNON_SECONDS} s, GET users.list limit=${PAGE} across all ${paths.length} pages`,
      );
      console.log(`  requests/s  mean ${result.requests.average.toFixed(0)}  p50 ${result.requests.p50}  min ${result.requests.min}`);
      console.log(`  latency     p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms`);
      console.log(`  throughput  ${(result.throughput.average / 1e6).toFixed(1)} MB/s; errors ${result.errors}, non-2xx ${result.non2xx}`);
    } finally {
      await server.close();
    }
  },
};
