/**
 * (h) `/api/health` while 20 Fetch all walks of users.list with limit=1 run at once, two from each of 10
 * sessions (each session installed into a workspace of its own, as one installation's tokens cannot serve
 * many sessions): the most the console admits (2 per session, 20 per process). Health is timed every
 * 50 ms from the first walk's start to the last one's end; the walks are read as fast as they come. The
 * embedded emulator answers in the console's own process, so a walk that never let go of the event loop
 * held every other request (27.1 s for /api/health, issue 23 item 4). It also checks that the walk past
 * the bounds is refused with 429 too_many_walks and a Retry-After.
 */
import { readNdjson } from "@/lib/explorer/fetch-all-events";
import { BenchHttpError, expectOk } from "../http";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { admin, consoleHeaders, installThroughConsole, ORIGIN, percentile, resetWorkspace, startConsole, type ConsoleSession } from "./console-server";

const SESSIONS = benchSetting("BENCH_WALKS_SESSIONS", 10, 3);
const WALKS_PER_SESSION = 2;
const MEMBERS = benchSetting("BENCH_WALKS_USERS", 3_000, 300);
const HEALTH_EVERY_MS = 50;

function walkUrl(session: ConsoleSession): string {
  const query = new URLSearchParams({ installation: session.installationId, token: "bot", limit: "1", max_pages: "10000" });
  return `${ORIGIN}/api/call/users.list/all?${query}`;
}

/** One walk read to its end as the browser reads it: the pages it got and how long it took, or why it failed. */
async function walk(session: ConsoleSession): Promise<{ pages: number; ms: number; error?: string }> {
  const started = performance.now();
  try {
    return await readWalk(session, started);
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
    return { pages: 0, ms: performance.now() - started, error: `${error instanceof Error ? error.message : String(error)}${cause}` };
  }
}

async function readWalk(session: ConsoleSession, started: number): Promise<{ pages: number; ms: number }> {
  const response = await expectOk(await fetch(walkUrl(session), { headers: consoleHeaders(session.cookie) }), "fetch all");
  if (!response.body) throw new Error("fetch all: the answer has no body");
  let pages = 0;
  for await (const line of readNdjson(response.body)) {
    const event = line as { type: string; error?: string };
    if (event.type === "page") pages++;
    if (event.type === "error") throw new Error(`fetch all: ${event.error}`);
  }
  return { pages, ms: performance.now() - started };
}

/** Times GET /api/health every HEALTH_EVERY_MS until `until` settles. */
async function timeHealth(until: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let done = false;
  void until.finally(() => (done = true)).catch(() => {});
  while (!done) {
    const started = performance.now();
    await expectOk(await fetch(`${ORIGIN}/api/health`), "GET /api/health");
    times.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, HEALTH_EVERY_MS));
  }
  return times;
}

export const consoleWalksHealthSuite: BenchSuite = {
  name: `console: /api/health under ${SESSIONS * WALKS_PER_SESSION} concurrent fetch all walks (users.list limit=1, ${MEMBERS.toLocaleString("en-US")} pages each)`,
  async run() {
    await startConsole();
    await admin("reset", { users: MEMBERS, workspaces: SESSIONS });
    const { workspaces } = (await admin("state")) as { workspaces: Array<{ id: string }> };
    const sessions = await Promise.all(workspaces.slice(0, SESSIONS).map((w) => installThroughConsole(w.id)));
    try {
      const idle = await timeHealth(new Promise((r) => setTimeout(r, 1000)));
      idle.sort((a, b) => a - b);

      const started = performance.now();
      const walks = Promise.all(sessions.flatMap((s) => Array.from({ length: WALKS_PER_SESSION }, () => walk(s))));
      const healthTimes = timeHealth(walks);
      // A third walk of a session that holds two is refused, once both have started.
      await new Promise((r) => setTimeout(r, 300));
      const extra = await fetch(walkUrl(sessions[0]!), { headers: consoleHeaders(sessions[0]!.cookie) });
      // Read only when refused: an admitted one (before the bounds) is let go at once.
      const extraBody = extra.status === 429 ? await extra.text() : (await extra.body?.cancel(), "");
      const health = await healthTimes;
      const results = await walks;
      const wall = performance.now() - started;
      health.sort((a, b) => a - b);
      const pages = results.reduce((sum, r) => sum + r.pages, 0);
      const longest = Math.max(...results.map((r) => r.ms));

      console.log(`  ${SESSIONS} sessions × ${WALKS_PER_SESSION} walks, users.list limit=1, health every ${HEALTH_EVERY_MS} ms:`);
      console.log(
        `    walks        ${pages.toLocaleString("en-US")} pages in ${(wall / 1000).toFixed(1)} s (${Math.round(pages / (wall / 1000)).toLocaleString("en-US")} pages/s), longest walk ${(longest / 1000).toFixed(1)} s`,
      );
      const failed = results.filter((r) => r.error);
      if (failed.length > 0) console.log(`    ${failed.length} walks failed: ${[...new Set(failed.map((r) => r.error))].join("; ")}`);
      console.log(`    a third walk of one session: HTTP ${extra.status}, Retry-After ${extra.headers.get("retry-after")} s`);
      console.log(
        `    /api/health idle        p50 ${percentile(idle, 50).toFixed(1)} ms   p99 ${percentile(idle, 99).toFixed(1)} ms   (${idle.length} samples)`,
      );
      console.log(
        `    /api/health under walks p50 ${percentile(health, 50).toFixed(1)} ms   p99 ${percentile(health, 99).toFixed(1)} ms   max ${health.at(-1)!.toFixed(1)} ms   (${health.length} samples; goal: p99 < 100 ms)`,
      );
      if (failed.length > 0) throw new Error(`${failed.length} walks failed`);
      if (extra.status !== 429 || !extra.headers.get("retry-after")) {
        throw new BenchHttpError("a third walk of one session (expected 429 with Retry-After)", extra.status, extraBody.slice(0, 200));
      }
    } finally {
      await resetWorkspace(3000);
    }
  },
};
