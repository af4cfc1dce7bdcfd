/**
 * What keeping the emulator's state in a data directory costs (lib/emulator/persist): the same calls to two
 * in-process emulators, one in memory and one with a data directory, interleaved so that both see the same
 * machine. A write-heavy method (chat.postMessage: each call journals the message and the workspace's last ts)
 * and a read (users.list, 200-member pages: nothing to journal), per call, body read to the end and the tick's
 * journal write included.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createEmulator, DEFAULT_REDIRECT_URL, type Emulator } from "@/lib/emulator";
import { BenchHttpError, expectPlatformOk } from "../http";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";

const MEMBERS = 100_000;
const WARMUP = benchSetting("BENCH_WARMUP_ROUNDS", 200, 20);
const POSTS = benchSetting("BENCH_JOURNAL_POSTS", 5000, 200);
const PAGES = benchSetting("BENCH_ROUNDS", 1500, 50);
/** How deep the second users.list page is: 400 pages of 200 is member 80,000. */
const DEPTH = benchSetting("BENCH_JOURNAL_DEPTH", 400, 10);
const ORIGIN = "http://127.0.0.1";

async function installBot(emulator: Emulator): Promise<string> {
  const app = [...emulator.state.apps.values()].find((a) => a.tokenRotationEnabled);
  if (!app) throw new Error("the emulator has no rotation app");
  const query = new URLSearchParams({
    client_id: app.clientId,
    scope: "users:read,chat:write,channels:join",
    redirect_uri: DEFAULT_REDIRECT_URL,
    state: "bench",
  });
  const consent = await emulator.fetch(
    new Request(`${ORIGIN}/oauth/v2/authorize?${query}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "decision=allow",
    }),
  );
  const code = new URL(consent.headers.get("location") ?? "http://invalid/").searchParams.get("code");
  if (!code) throw new BenchHttpError("consent (expected a redirect with a code)", consent.status, await consent.text());
  const form = new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret, code });
  const access = await expectPlatformOk<{ access_token: string }>(
    await emulator.fetch(new Request(`${ORIGIN}/api/oauth.v2.access`, { method: "POST", body: form })),
    "oauth.v2.access",
  );
  return access.access_token;
}

interface Side {
  name: string;
  emulator: Emulator;
  token: string;
  channel: string;
}

async function side(name: string, dataDir: string | undefined): Promise<Side> {
  const emulator = createEmulator({ users: MEMBERS, seed: "bench", cursorTtlSeconds: 3600, dataDir });
  const token = await installBot(emulator);
  const channel = emulator.state.workspace.channels.find((c) => c.name === "random")?.id ?? "";
  await expectPlatformOk(
    await emulator.fetch(
      new Request(`${ORIGIN}/api/conversations.join`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: new URLSearchParams({ channel }),
      }),
    ),
    "conversations.join",
  );
  return { name, emulator, token, channel };
}

async function timeOnce(call: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await call();
  const body = await response.text();
  // The journal writes at the end of the tick: waited for on both sides, so that a call's time includes its write.
  await new Promise((resolve) => setImmediate(resolve));
  if (response.status !== 200 || !body.startsWith('{"ok":true')) throw new BenchHttpError("bench call", response.status, body.slice(0, 200));
  return performance.now() - started;
}

const post = (s: Side, i: number) => () =>
  s.emulator.fetch(
    new Request(`${ORIGIN}/api/chat.postMessage`, {
      method: "POST",
      headers: { authorization: `Bearer ${s.token}` },
      body: new URLSearchParams({ channel: s.channel, text: `message ${i}: the journal keeps it` }),
    }),
  );
const page = (s: Side, cursor: string) => () =>
  s.emulator.fetch(
    new Request(`${ORIGIN}/api/users.list?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, {
      headers: { authorization: `Bearer ${s.token}` },
    }),
  );

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** Each round calls both sides, alternating which goes first. */
async function interleaved(sides: [Side, Side], rounds: number, call: (s: Side, i: number) => () => Promise<Response>): Promise<number[][]> {
  const samples: number[][] = [[], []];
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) samples[k]!.push(await timeOnce(call(sides[k]!, i)));
  }
  return samples;
}

function print(title: string, sides: [Side, Side], samples: number[][]): void {
  const stats = samples.map((s) => {
    const sorted = [...s].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean: s.reduce((a, b) => a + b, 0) / s.length };
  });
  console.log(`${title} (${samples[0]!.length} calls each, interleaved)`);
  sides.forEach((s, k) =>
    console.log(`  ${s.name.padEnd(16)} p50 ${stats[k]!.p50.toFixed(3)} ms  p99 ${stats[k]!.p99.toFixed(3)} ms  mean ${stats[k]!.mean.toFixed(3)} ms`),
  );
  const [memory, journal] = stats as [(typeof stats)[0], (typeof stats)[0]];
  console.log(
    `  data dir / memory  p50 ${(journal.p50 / memory.p50).toFixed(3)}  mean ${(journal.mean / memory.mean).toFixed(3)} (+${(journal.mean - memory.mean).toFixed(3)} ms a call)`,
  );
}

export const emulatorJournalSuite: BenchSuite = {
  name: "emulator journal (data dir vs memory)",
  async run() {
    const dir = mkdtempSync(path.join(tmpdir(), "switchboard-bench-journal-"));
    const sides: [Side, Side] = [await side("memory", undefined), await side("data dir", path.join(dir, "emulator"))];
    try {
      await interleaved(sides, WARMUP, post);
      print("chat.postMessage", sides, await interleaved(sides, POSTS, post));

      // A cursor deep in the workspace on each side (each workspace signs its own cursors).
      const cursors = new Map<Side, string>();
      for (const s of sides) {
        let cursor = "";
        for (let n = 0; n < DEPTH; n++) {
          const body = (await (await page(s, cursor)()).json()) as { response_metadata?: { next_cursor?: string } };
          cursor = body.response_metadata?.next_cursor ?? "";
        }
        cursors.set(s, cursor);
      }
      const pages = (s: Side, i: number) => page(s, i % 2 === 0 ? "" : (cursors.get(s) ?? ""));
      await interleaved(sides, WARMUP, pages);
      print("\nusers.list limit=200 (first page and a page near the end, alternately)", sides, await interleaved(sides, PAGES, pages));

      await sides[1].emulator.close();
      const file = path.join(dir, "emulator", "journal.jsonl");
      console.log(
        `\njournal after the run: ${(statSync(file).size / 1024).toFixed(0)} KB (${sides[1].emulator.state.workspace.messages.get(sides[1].channel)?.length ?? 0} messages in #random)`,
      );
      const reopened = performance.now();
      const again = createEmulator({ users: MEMBERS, seed: "bench", dataDir: path.join(dir, "emulator") });
      console.log(`read back (and compacted) at start in ${(performance.now() - reopened).toFixed(0)} ms`);
      await again.close();
    } finally {
      await sides[1].emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
