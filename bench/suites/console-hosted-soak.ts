/**
 * (k) The hosted soak (issue 28): the soak's crowd against the hosted shape (hosted-console.ts: the
 * standalone emulator, two instances sharing PostgreSQL and Redis with their background refreshers on, one
 * origin in front), with 20 backend clients asking the token API for bot tokens as fast as answers come.
 * 200 sessions for 60 s; halfway the platform's clock jumps 13 hours. Goals: no error but deliberate 429s,
 * exactly one refresh grant per token kind per rotation (however many instances, refreshers and clients
 * want it refreshed), and each instance's memory back within 10% of its start after. A full run fails when
 * one is not met; quick mode judges the grants alone (right or wrong at any size, and never by chance).
 */
import { benchSetting, QUICK } from "../mode";
import type { BenchSuite } from "../suite";
import { startHostedConsole } from "./hosted-console";
import {
  CLOCK_JUMP_S,
  count,
  errorCount,
  installSessions,
  MB,
  MEMBERS,
  printCrowdFigures,
  printMemory,
  printStatusesAndLatency,
  SoakCrowd,
  type PlatformTokens,
  type SoakMix,
} from "./soak-crowd";
import { askTokensUntil, countAuditedUses, createApiKey, type TokenApiAnswer } from "./token-api-clients";

const SESSIONS = benchSetting("BENCH_HOSTED_SOAK_SESSIONS", 200, 20);
const CLIENTS = benchSetting("BENCH_HOSTED_SOAK_CLIENTS", 20, 4);
const SECONDS = benchSetting("BENCH_HOSTED_SOAK_SECONDS", 60, 8);
const WARMUP_SECONDS = benchSetting("BENCH_HOSTED_SOAK_WARMUP_SECONDS", 10, 2);
// Longer than the single-instance soak's 60 s: the instances, never quite idle (their refreshers, the audit,
// LISTEN and the event relay), gave their heaps back about 100 s after the run (docs/benchmarks.md).
const SETTLE_MAX_S = benchSetting("BENCH_HOSTED_SOAK_SETTLE_S", 180, 10);
const INSTANCES = 2;
const REFRESHER_INTERVAL_S = 2;

/**
 * The soak's mix as far as the hosted shape allows. Webhook sends are left out: the webhook proxy's SSRF
 * guard (lib/webhooks/url-guard.ts) admits only https URLs on WEBHOOK_HOSTS (or the embedded emulator's own origin), and the standalone
 * emulator's hooks are plain http on a loopback port; the dashboard's read of the installations takes their
 * share. A mention is a member's on the platform (the emulator's admin surface): the console's "mention"
 * route is the embedded emulator's.
 */
const HOSTED_MIX: SoakMix = [
  ["call-bot", 0.4],
  ["call-user", 0.25],
  ["fetch-all", 0.05],
  ["dashboard", 0.15],
  ["platform-mention", 0.15],
];

interface TokenTally {
  latencies: number[];
  byStatus: Map<string, number>;
  /** Answers whose token had less than the promised margin left by the platform's clock when it arrived. */
  short: number;
  shortest: number;
  /** How long after the jump the last of them was asked for. */
  lastShortAfterJumpMs: number;
}

const newTokenTally = (): TokenTally => ({ latencies: [], byStatus: new Map(), short: 0, shortest: Infinity, lastShortAfterJumpMs: 0 });

/** The platform's clock as the bench knows it: the wall clock, plus the jump once it is made. */
class PlatformTime {
  private offsetMs: number | undefined = 0;
  movedAt = Infinity;
  moving() {
    this.offsetMs = undefined;
  }
  moved(offsetS: number) {
    this.offsetMs = offsetS * 1000;
    this.movedAt = performance.now();
  }
  /** The platform's time now for a request sent at `sentAt`, when it is known which side of the jump it was on. */
  nowFor(sentAt: number): number | undefined {
    if (this.offsetMs === undefined) return undefined;
    if (this.offsetMs !== 0 && sentAt < this.movedAt) return undefined;
    return Date.now() + this.offsetMs;
  }
}

function tallyToken(tally: TokenTally, answer: TokenApiAnswer, platform: PlatformTime): void {
  tally.latencies.push(answer.ms);
  count(tally.byStatus, String(answer.status));
  const platformNow = platform.nowFor(answer.sentAt);
  if (answer.status !== 200 || platformNow === undefined) return;
  const body = JSON.parse(answer.body) as { expires_at: number | null; margin_s: number };
  if (body.expires_at === null) return;
  const leftS = body.expires_at - platformNow / 1000;
  tally.shortest = Math.min(tally.shortest, leftS);
  if (leftS >= body.margin_s) return;
  tally.short++;
  tally.lastShortAfterJumpMs = Math.max(tally.lastShortAfterJumpMs, answer.sentAt - platform.movedAt);
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** The V8 heap (used of total), at the start, at the end, and after a full collection at the end, with what lives outside it. */
function describeHeaps(start: NodeJS.MemoryUsage, end: NodeJS.MemoryUsage, collected: NodeJS.MemoryUsage): string {
  const heap = (m: NodeJS.MemoryUsage) => `${mb(m.heapUsed)} of ${mb(m.heapTotal)}`;
  return `start ${heap(start)}   end ${heap(end)}   after a full collection ${heap(collected)} (RSS ${mb(collected.rss)}, external ${mb(collected.external)}, array buffers ${mb(collected.arrayBuffers)})`;
}

const tokenErrors = (tally: TokenTally) => [...tally.byStatus].filter(([s]) => !s.startsWith("2") && s !== "429").reduce((n, [, c]) => n + c, 0);

export const consoleHostedSoakSuite: BenchSuite = {
  name: `console: hosted soak, ${INSTANCES} instances on PostgreSQL and Redis (${SESSIONS} sessions and ${CLIENTS} backend clients for ${SECONDS} s, tokens expiring halfway)`,
  async run() {
    const starting = performance.now();
    const hosted = await startHostedConsole({ instances: INSTANCES, workspaces: SESSIONS, users: MEMBERS, refresherIntervalS: REFRESHER_INTERVAL_S });
    let failed = true;
    try {
      console.log(`  ${hosted.describe()}; started in ${((performance.now() - starting) / 1000).toFixed(1)} s`);
      const { workspaces } = await hosted.emulator.admin<{ workspaces: Array<{ id: string }> }>("state");
      const teams = workspaces.slice(0, SESSIONS).map((w) => w.id);
      const crowd = new SoakCrowd({ origin: hosted.origin, mix: HOSTED_MIX, platform: hosted.emulator });
      const installing = performance.now();
      const sessions = await installSessions(teams, hosted.origin);
      const keys = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => createApiKey(hosted.origin, `backend ${i + 1}`)));
      console.log(
        `  ${sessions.length} sessions installed through the OAuth flow at ${hosted.origin}, each into its own workspace, and ${keys.length} API keys, in ${((performance.now() - installing) / 1000).toFixed(1)} s`,
      );

      const platform = new PlatformTime();
      const tokens = { warmup: newTokenTally(), run: newTokenTally() };
      const readings: { start?: NodeJS.MemoryUsage[]; end?: NodeJS.MemoryUsage[]; collected?: NodeJS.MemoryUsage[] } = {};
      const heaps = (collect: boolean) => Promise.all(hosted.instances.map((i) => i.heap(collect)));
      let connectionsBefore: number[] = [];
      const result = await crowd.soak(sessions, {
        warmupS: WARMUP_SECONDS,
        seconds: SECONDS,
        settleMaxS: SETTLE_MAX_S,
        memory: hosted.instances.map((i) => () => i.rssBytes()),
        moveClock: async () => {
          platform.moving();
          const clock = await hosted.emulator.admin<{ offset_s: number }>("clock", { advance_s: CLOCK_JUMP_S });
          platform.moved(clock.offset_s);
        },
        alongside: (phase, deadline) => askTokensUntil(hosted.origin, keys, teams, deadline, (a) => tallyToken(tokens[phase], a, platform)),
        onStart: async () => {
          readings.start = await heaps(false);
          connectionsBefore = [...hosted.connections];
        },
        platformState: async () => {
          // What the heaps hold after the run, then after a full collection (after the figures judged, which it would change).
          readings.end = await heaps(false);
          readings.collected = await heaps(true);
          return hosted.emulator.admin<PlatformTokens>("state");
        },
      });
      const { tally, warmup, grantsPerKind, starts, peaks, settling } = result;
      printCrowdFigures(result);
      const mentions = tally.done.get("platform-mention") ?? 0;
      console.log(
        `    events expected  ${mentions * sessions.length}: ${mentions} mentions, each to every viewer on either instance (no sign-in: each viewer is the operator)`,
      );
      const rotated = grantsPerKind.filter((g) => g > 0).length;
      const grants = grantsPerKind.reduce((a, b) => a + b, 0);
      console.log(
        `    per rotation     ${grants} grants for ${rotated} token kinds rotated: ${rotated ? (grants / rotated).toFixed(2) : "n/a"}  (goal: 1.00, every kind)`,
      );
      console.log(
        `    connections      ${hosted.connections.map((c, i) => `instance ${i + 1}: ${c - (connectionsBefore[i] ?? 0)}`).join(", ")} during the run (the proxy's round robin)`,
      );

      const answered = tokens.run.latencies.length;
      const apiErrors = tokenErrors(tokens.run) + tokenErrors(tokens.warmup);
      console.log(
        `  token API: ${CLIENTS} clients, ${answered.toLocaleString("en-US")} answers in ${SECONDS} s: ${(answered / SECONDS).toFixed(0)} a second (warm-up: ${tokens.warmup.latencies.length})`,
      );
      printStatusesAndLatency(tokens.run.byStatus, tokens.run.latencies);
      console.log(`    errors           ${apiErrors} other than 429  (goal: 0)`);
      console.log(
        `    margin kept      ${tokens.run.short + tokens.warmup.short} answers with less than margin_s left by the platform's clock${tokens.run.short ? `, the last asked for ${tokens.run.lastShortAfterJumpMs.toFixed(0)} ms after the jump` : ""}; least left ${Math.min(tokens.run.shortest, tokens.warmup.shortest).toFixed(0)} s`,
      );
      const audited = await countAuditedUses(hosted.origin);
      const asked = tokens.run.latencies.length + tokens.warmup.latencies.length;
      console.log(`    audited          ${audited} of ${asked} answers (warm-up and run; a 429 is audited once a second)`);
      hosted.instances.forEach((_, i) => {
        printMemory(`instance ${i + 1}`, starts[i]!, peaks[i]!, settling, i);
        console.log(`    ${"heap".padEnd(17)}${describeHeaps(readings.start![i]!, readings.end![i]!, readings.collected![i]!)}`);
      });

      const endOf = (i: number) => settling.at(-1)!.bytes[i]!;
      const goals = [
        { goal: "errors other than deliberate 429s", met: errorCount(tally) + errorCount(warmup) + apiErrors === 0, judged: !QUICK },
        { goal: "exactly one refresh grant per token kind", met: grantsPerKind.length === 2 * SESSIONS && grantsPerKind.every((g) => g === 1), judged: true },
        { goal: "each instance's memory back within 10% of its start", met: starts.every((s, i) => endOf(i) <= s * 1.1), judged: !QUICK },
      ];
      const unmet = goals.filter((g) => !g.met);
      console.log(
        `  goals: ${unmet.length === 0 ? "met" : `NOT met: ${unmet.map((g) => `${g.goal}${g.judged ? "" : " (not judged in quick mode)"}`).join("; ")}`}`,
      );
      const failing = unmet.filter((g) => g.judged);
      if (failing.length > 0) throw new Error(`the hosted soak's goals are not met: ${failing.map((g) => g.goal).join("; ")}`);
      failed = false;
    } finally {
      const logged = hosted.loggedErrors();
      if (logged.size > 0) console.log(`  the instances logged: ${[...logged].map(([e, n]) => `${n}× ${e}`).join("; ")}`);
      if (failed) console.log(`  the instances' logs (kept): ${hosted.logs}`);
      await hosted.stop({ keepLogs: failed });
    }
  },
};
