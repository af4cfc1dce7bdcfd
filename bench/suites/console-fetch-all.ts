/**
 * (b) Fetch all of 100,000 members through the console (GET /api/call/users.list/all, NDJSON read and parsed
 * line by line as the browser does) against @slack/web-api's paginate() on the same emulator, both with
 * pages of 200 (paginate()'s default).
 */
import { WebClient } from "@slack/web-api";
import { readNdjson } from "@/lib/explorer/fetch-all-events";
import { expectJson, expectOk } from "../http";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { consoleHeaders, directBotToken, EMULATOR_BASE, installThroughConsole, ORIGIN, resetWorkspace, startConsole } from "./console-server";

const MEMBERS = benchSetting("BENCH_FETCH_ALL_USERS", 100_000, 5_000);
const ROUNDS = benchSetting("BENCH_FETCH_ALL_ROUNDS", 5, 1);

async function throughConsole(session: { cookie: string; installationId: string }): Promise<number> {
  const query = new URLSearchParams({ installation: session.installationId, token: "bot", limit: "200", max_pages: "10000" });
  const response = await expectOk(await fetch(`${ORIGIN}/api/call/users.list/all?${query}`, { headers: consoleHeaders(session.cookie) }), "fetch all");
  if (!response.body) throw new Error("fetch all: the answer has no body");
  let items = 0;
  for await (const line of readNdjson(response.body)) {
    const event = line as { type: string; response?: { members?: unknown[] }; error?: string };
    if (event.type === "page") items += event.response?.members?.length ?? 0;
    if (event.type === "error") throw new Error(`fetch all: ${event.error}`);
  }
  return items;
}

async function withPaginate(client: WebClient): Promise<number> {
  let items = 0;
  for await (const page of client.paginate("users.list", { limit: 200 })) items += ((page as { members?: unknown[] }).members ?? []).length;
  return items;
}

async function time(fn: () => Promise<number>): Promise<{ ms: number; items: number }> {
  const started = performance.now();
  const items = await fn();
  return { ms: performance.now() - started, items };
}

export const consoleFetchAllSuite: BenchSuite = {
  name: `console: fetch all of ${MEMBERS.toLocaleString("en-US")} members (/api/call/.../all vs @slack/web-api paginate())`,
  async run() {
    await startConsole();
    await resetWorkspace(MEMBERS);
    const session = await installThroughConsole();
    const client = new WebClient(await directBotToken(), { slackApiUrl: `${EMULATOR_BASE}/api/`, retryConfig: { retries: 0 } });
    const expected = (await expectJson<{ team: { members: number } }>(await fetch(`${EMULATOR_BASE}/admin/state`), "emulator admin/state")).team.members;

    const console_: number[] = [];
    const sdk: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (["console", "sdk"] as const) : (["sdk", "console"] as const);
      for (const who of order) {
        const result = who === "console" ? await time(() => throughConsole(session)) : await time(() => withPaginate(client));
        if (result.items !== expected) throw new Error(`${who} walked ${result.items} members, expected ${expected}`);
        (who === "console" ? console_ : sdk).push(result.ms);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const c = median(console_);
    const s = median(sdk);
    console.log(`  ${expected.toLocaleString("en-US")} members, pages of 200, median of ${ROUNDS} rounds (interleaved):`);
    console.log(
      `    console /api/call/users.list/all   ${(c / 1000).toFixed(2)} s   (${Math.round(expected / (c / 1000)).toLocaleString("en-US")} members/s)   runs: ${console_.map((x) => (x / 1000).toFixed(2)).join(", ")}`,
    );
    console.log(
      `    @slack/web-api paginate()          ${(s / 1000).toFixed(2)} s   (${Math.round(expected / (s / 1000)).toLocaleString("en-US")} members/s)   runs: ${sdk.map((x) => (x / 1000).toFixed(2)).join(", ")}`,
    );
    console.log(`    ratio console / paginate()         ${(c / s).toFixed(2)}  (goal ≤ 1.2)`);
    await resetWorkspace(3000);
  },
};
