/**
 * Hostile case (issue 37 item 2): `/api/health` while two connections send nothing but requests carrying 2,000
 * empty cookies (8 KB, within nginx's default header size), each on a connection of its own, as fast as they
 * are answered. Next.js's cookie handling in route handlers grows with the square of the count: before the
 * bound, each such request cost 1.3 s of CPU and two connections put /api/health at p50 5.1 s. The Node server's
 * own listener now answers them 431 before Next.js sees them (lib/ops/request-guard.ts, at most 100 cookies).
 * Health is asked back to back, one at a time, for the whole run. Goal: p99 under 100 ms.
 */
import { request as httpRequest } from "node:http";
import { CONSOLE_REQUEST_HEADER } from "@/lib/console-request";
import { MAX_COOKIES } from "@/lib/ops/cookie-bound";
import { expectOk } from "../http";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { BENCH_PORT, ORIGIN, percentile, startConsole } from "./console-server";

const SECONDS = benchSetting("BENCH_HOSTILE_SECONDS", 15, 2);
const CONNECTIONS = 2;
const COOKIES = 2_000;
/** A route that reads the session, as the console's pages ask it (the console's own request header). */
const HOSTILE_PATH = "/api/session";

const NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/**
 * `count` empty cookies of distinct two-character names, ";"-separated: 2,000 are 8 KB, within nginx's default
 * header size. Distinct, because Next.js keeps one cookie per name: what cost it 1.3 s of CPU (issue 37 item 2).
 */
const emptyCookies = (count: number) =>
  Array.from({ length: count }, (_, i) => `${NAME_CHARS[Math.floor(i / NAME_CHARS.length)]}${NAME_CHARS[i % NAME_CHARS.length]}=`).join(";");
const cookieHeader = emptyCookies(COOKIES);
const countOf = (cookie: string) => (cookie ? cookie.split(";").length : 0);
/** What a request at the bound costs: the most a client gets Next.js to read. */
const AT_BOUND = MAX_COOKIES;

/** One request with `cookie` on a connection of its own; resolves with its status and time. */
function hostileRequest(cookie = cookieHeader): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      { host: "127.0.0.1", port: BENCH_PORT, path: HOSTILE_PATH, headers: { cookie, [CONSOLE_REQUEST_HEADER]: "1" }, agent: false },
      (answer) => {
        answer.resume();
        answer.on("end", () => resolve({ status: answer.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    sent.on("error", reject);
    sent.end();
  });
}

async function sendHostile(until: () => boolean, results: Array<{ status: number; ms: number }>): Promise<void> {
  while (!until()) results.push(await hostileRequest());
}

async function timeHealth(until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (!until()) {
    const started = performance.now();
    await (await expectOk(await fetch(`${ORIGIN}/api/health`), "GET /api/health")).arrayBuffer();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const line = (what: string, times: number[]) =>
  `    ${what.padEnd(32)} p50 ${percentile(times, 50).toFixed(1)} ms   p99 ${percentile(times, 99).toFixed(1)} ms   max ${times.at(-1)!.toFixed(1)} ms   (${times.length} requests)`;

export const consoleHostileCookiesSuite: BenchSuite = {
  name: `console: hostile cookies, /api/health while ${CONNECTIONS} connections send ${COOKIES.toLocaleString("en-US")}-cookie requests`,
  async run() {
    await startConsole();
    // A warm-up (JIT, the route's first load), then the server idle, then one request after another at the bound.
    const warmEnd = performance.now() + 1_000;
    await timeHealth(() => performance.now() > warmEnd);
    const idleEnd = performance.now() + 2_000;
    const idle = await timeHealth(() => performance.now() > idleEnd);
    // The session route alone, without cookies and at the bound: what the cookies Next.js still reads cost.
    // Its first request opens the store: not measured.
    await hostileRequest("");
    const timeSession = async (cookie: string) => {
      const times: number[] = [];
      for (let i = 0; i < 50; i++) {
        const answer = await hostileRequest(cookie);
        if (answer.status !== 200) throw new Error(`${HOSTILE_PATH} with ${countOf(cookie)} cookies answered ${answer.status}`);
        times.push(answer.ms);
      }
      return times.sort((a, b) => a - b);
    };
    const noCookies = await timeSession("");
    const atBound = await timeSession(emptyCookies(AT_BOUND));

    const end = performance.now() + SECONDS * 1000;
    const done = () => performance.now() > end;
    const hostile: Array<{ status: number; ms: number }> = [];
    const [health] = await Promise.all([timeHealth(done), ...Array.from({ length: CONNECTIONS }, () => sendHostile(done, hostile))]);

    const statuses = [...new Set(hostile.map((h) => h.status))].join(", ");
    const hostileTimes = hostile.map((h) => h.ms).sort((a, b) => a - b);
    console.log(
      `  ${SECONDS} s, ${CONNECTIONS} connections of ${COOKIES.toLocaleString("en-US")} empty cookies (${cookieHeader.length.toLocaleString("en-US")} bytes) to ${HOSTILE_PATH}:`,
    );
    console.log(line("/api/health idle", idle));
    console.log(line(`${HOSTILE_PATH}, no cookies`, noCookies));
    console.log(line(`${HOSTILE_PATH}, ${AT_BOUND} (the bound)`, atBound));
    console.log(`${line("/api/health under attack", health)}   goal: p99 < 100 ms`);
    console.log(`${line("the hostile requests", hostileTimes)}   answered ${statuses}`);
    if (hostile.some((h) => h.status !== 431)) throw new Error(`hostile requests answered ${statuses}, expected 431 only`);
  },
};
