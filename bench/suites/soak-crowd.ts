/**
 * The soaks' crowd (console-soak.ts against one console, console-hosted-soak.ts against two behind one
 * origin): sessions installed through the OAuth flow, each into a workspace of its own, looping over a mix of
 * what the console's pages do with 2 to 4 s between actions, each with one live event viewer; halfway the
 * platform's clock jumps 13 hours, every token expires upstream, and each session then calls once with each
 * token kind so that every kind is refreshed. What the soaks print of it is printed here too.
 */
import { readNdjson } from "@/lib/explorer/fetch-all-events";
import { consoleHeaders, installThroughConsole, percentile, type Jar } from "./console-server";

// Pages of real size (a users.list page of 100 members is about 100 KB of JSON) at a pace two cores serve
// steadily: a soak judges steadiness under a crowd, not the most a machine can take.
export const MEMBERS = 1000;
const THINK_MS = { min: 2000, max: 4000 };
/** How far the platform's clock jumps halfway: past the 12 hours every rotating token lives. */
export const CLOCK_JUMP_S = 13 * 3600;
export const MB = 1024 * 1024;
const INSTALL_BATCH = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface SoakSession {
  jar: Jar;
  installationId: string;
  teamId: string;
  /** Calls each token kind once as soon as the clock has moved, so every kind is refreshed. */
  forced: Array<"bot" | "user">;
}

export interface Tally {
  latencies: number[];
  byStatus: Map<string, number>;
  errors: Map<string, number>;
  /** Actions that went through, by action. */
  done: Map<string, number>;
  /** Each request: when it was sent (performance.now()), its action and its latency, for the split by phase. */
  requests: Array<{ at: number; action: SoakAction; ms: number }>;
}

const newTally = (): Tally => ({ latencies: [], byStatus: new Map(), errors: new Map(), done: new Map(), requests: [] });

export function count(map: Map<string, number>, key: string) {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export const errorCount = (tally: Tally) => [...tally.errors.values()].reduce((a, b) => a + b, 0);

/**
 * What a session does. `mention` asks the console's emulator route to mention the app; `platform-mention` is a
 * member mentioning it on the platform itself (a standalone emulator's admin surface), whose event comes to
 * the console as the platform sends it; `dashboard` is the dashboard's read of the installations.
 */
export type SoakAction = "call-bot" | "call-user" | "fetch-all" | "webhook" | "mention" | "platform-mention" | "dashboard";
export type SoakMix = ReadonlyArray<readonly [SoakAction, number]>;

/** The soak's mix against one console with the embedded emulator. */
export const CONSOLE_MIX: SoakMix = [
  ["call-bot", 0.4],
  ["call-user", 0.25],
  ["fetch-all", 0.05],
  ["webhook", 0.15],
  ["mention", 0.15],
];

export interface SoakTarget {
  /** The console's origin: one server, or the load balancer in front of several. */
  origin: string;
  mix: SoakMix;
  /** The standalone emulator's admin surface and the console's app there, for `platform-mention`. */
  platform?: { baseUrl: string; adminToken: string; appId: string };
}

/** The sessions, installed through the OAuth flow at `origin`, each into its own workspace of `teams`, ten at a time. */
export async function installSessions(teams: readonly string[], origin?: string): Promise<SoakSession[]> {
  const sessions: SoakSession[] = [];
  for (let i = 0; i < teams.length; i += INSTALL_BATCH) {
    const batch = await Promise.all(teams.slice(i, i + INSTALL_BATCH).map(async (team) => ({ team, installed: await installThroughConsole(team, origin) })));
    for (const { team, installed } of batch) sessions.push({ jar: installed.jar, installationId: installed.installationId, teamId: team, forced: [] });
  }
  return sessions;
}

/** Reads a Fetch all stream to its end, as the explorer does, counting what went wrong. */
async function readWalk(body: ReadableStream<Uint8Array>, tally: Tally): Promise<void> {
  let members = 0;
  for await (const line of readNdjson(body)) {
    const event = line as { type: string; error?: string; response?: { members?: unknown[] } };
    if (event.type === "page") members += event.response?.members?.length ?? 0;
    if (event.type === "error") count(tally.errors, `fetch all: ${event.error}`);
    if (event.type === "resume") count(tally.errors, "fetch all: resume");
  }
  if (members < MEMBERS) count(tally.errors, `fetch all: ${members} members`);
}

export class SoakCrowd {
  /**
   * Walks in flight. The clock jump is an artifice (13 hours pass in an instant): a walk that spans it
   * finds its cursor 13 hours old and expired, as the platform would say. New walks wait for the jump and
   * the jump waits for the walks under way.
   */
  private readonly walks = { inFlight: 0, paused: false };

  constructor(private readonly target: SoakTarget) {}

  private pickAction(): SoakAction {
    let r = Math.random();
    for (const [action, weight] of this.target.mix) {
      r -= weight;
      if (r <= 0) return action;
    }
    return "call-bot";
  }

  /** One request timed into the tally (to its answer's headers). */
  private async timed(tally: Tally, action: SoakAction, send: () => Promise<Response>): Promise<Response> {
    const started = performance.now();
    const response = await send();
    const ms = performance.now() - started;
    tally.latencies.push(ms);
    tally.requests.push({ at: started, action, ms });
    count(tally.byStatus, String(response.status));
    return response;
  }

  /** One request as the console's pages make it; the session's cookies follow every answer. */
  private async request(
    session: SoakSession,
    tally: Tally,
    action: SoakAction,
    path: string,
    init: { method?: "GET" | "POST"; json?: unknown } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = consoleHeaders(session.jar.header());
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      headers.origin = this.target.origin;
    }
    const response = await this.timed(tally, action, () =>
      fetch(`${this.target.origin}${path}`, {
        method: init.method ?? "GET",
        headers,
        ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
      }),
    );
    session.jar.take(response);
    return response;
  }

  private mentionOnPlatform(session: SoakSession, tally: Tally): Promise<Response> {
    const platform = this.target.platform;
    if (!platform) throw new Error("platform-mention needs the target's platform");
    return this.timed(tally, "platform-mention", () =>
      fetch(`${platform.baseUrl}/admin/mention`, {
        method: "POST",
        headers: { authorization: `Bearer ${platform.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ app_id: platform.appId, team_id: session.teamId, text: "soak" }),
      }),
    );
  }

  private async act(session: SoakSession, tally: Tally, action: SoakAction): Promise<void> {
    const id = encodeURIComponent(session.installationId);
    let response: Response;
    switch (action) {
      case "call-bot":
      case "call-user": {
        const kind = action === "call-bot" ? "bot" : "user";
        const method = kind === "bot" ? "users.list" : "auth.test";
        response = await this.request(session, tally, action, `/api/call/${method}?installation=${id}&token=${kind}${kind === "bot" ? "&limit=100" : ""}`);
        break;
      }
      case "fetch-all": {
        if (this.walks.paused) return this.act(session, tally, "call-bot");
        this.walks.inFlight++;
        try {
          response = await this.request(session, tally, action, `/api/call/users.list/all?installation=${id}&token=bot&limit=200`);
          if (response.ok && response.body) await readWalk(response.body, tally);
        } finally {
          this.walks.inFlight--;
        }
        break;
      }
      case "webhook":
        response = await this.request(session, tally, action, "/api/webhooks/send", {
          method: "POST",
          json: { webhookId: `inst-${session.installationId}`, text: "soak test message" },
        });
        break;
      case "mention":
        response = await this.request(session, tally, action, "/api/emulator/mention", {
          method: "POST",
          json: { installationId: session.installationId, text: "soak" },
        });
        break;
      case "platform-mention":
        response = await this.mentionOnPlatform(session, tally);
        break;
      case "dashboard":
        response = await this.request(session, tally, action, "/api/session");
        break;
    }
    if (response.status >= 400 && response.status !== 429) {
      count(tally.errors, `${action}: HTTP ${response.status} ${(await response.text()).slice(0, 120)}`);
      return;
    }
    if (action.startsWith("call-")) {
      const body = (await response.json()) as { ok?: boolean; error?: string };
      if (!body.ok) return count(tally.errors, `${action}: platform ${body.error}`);
    } else if (action !== "fetch-all") {
      await response.arrayBuffer();
    }
    if (response.ok) count(tally.done, action);
  }

  /**
   * One live viewer per session, read as a browser reads it, a server-sent message at a time; returns how
   * many events it saw, and how many of those were the platform's retries of a delivery (a new entry each).
   */
  private watchEvents(session: SoakSession, signal: AbortSignal, tally: Tally): Promise<{ seen: number; retries: number }> {
    return (async () => {
      const watched = { seen: 0, retries: 0 };
      try {
        const response = await fetch(`${this.target.origin}/api/events/stream`, { headers: consoleHeaders(session.jar.header()), signal });
        count(tally.byStatus, `stream ${response.status}`);
        if (!response.ok || !response.body) {
          if (response.status !== 429) count(tally.errors, `events stream: HTTP ${response.status}`);
          return watched;
        }
        const decoder = new TextDecoder();
        const reader = response.body.getReader();
        let pending = "";
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const messages = (pending + decoder.decode(value, { stream: true })).split("\n\n");
          pending = messages.pop() ?? "";
          for (const message of messages.filter((m) => m.includes("event: received"))) {
            watched.seen++;
            if (/"retryNum":[1-9]/.test(message)) watched.retries++;
          }
        }
      } catch (error) {
        if (!signal.aborted) count(tally.errors, `events stream: ${error instanceof Error ? error.message : String(error)}`);
      }
      return watched;
    })();
  }

  /** Every session runs the mix until `seconds` have passed; `halfway` runs once at half time. */
  private async run(sessions: SoakSession[], tally: Tally, seconds: number, halfway?: () => Promise<void>): Promise<number> {
    const began = performance.now();
    const deadline = began + seconds * 1000;
    const half = (async () => {
      if (!halfway) return;
      await sleep((seconds * 1000) / 2);
      await halfway();
    })();
    await Promise.all(
      sessions.map(async (session) => {
        await sleep(Math.random() * THINK_MS.max);
        while (performance.now() < deadline) {
          const forced = session.forced.shift();
          const action = forced ? (forced === "bot" ? "call-bot" : "call-user") : this.pickAction();
          try {
            await this.act(session, tally, action);
          } catch (error) {
            count(tally.errors, `${action}: ${error instanceof Error ? error.message : String(error)}`);
          }
          await sleep(THINK_MS.min + Math.random() * (THINK_MS.max - THINK_MS.min));
        }
      }),
    );
    const elapsedS = (performance.now() - began) / 1000;
    await half;
    return elapsedS;
  }

  /** The jump: new walks wait, the walks under way end, `move` moves the clock, then each session owes a call with each token kind. */
  private async jumpClock(sessions: SoakSession[], move: () => Promise<unknown>): Promise<void> {
    this.walks.paused = true;
    while (this.walks.inFlight > 0) await sleep(20);
    await move();
    this.walks.paused = false;
    for (const s of sessions) s.forced.push("bot", "user");
  }

  /** Sessions whose last turn came before the clock moved still owe their forced calls. */
  private async callOwed(sessions: SoakSession[], tally: Tally): Promise<void> {
    for (const session of sessions) {
      for (const kind of session.forced.splice(0)) await this.act(session, tally, kind === "bot" ? "call-bot" : "call-user");
    }
  }

  /**
   * The soak: a warm-up of the mix (unmeasured, so that "start" is a server that has served it: JIT, caches,
   * heap sized), then each server's memory at the start, the run with every session's live viewer and the
   * clock's jump at half time, the owed calls, and the idle servers settling; with the platform's tokens after.
   */
  async soak(sessions: SoakSession[], plan: SoakPlan): Promise<SoakResult> {
    const warmup = newTally();
    await Promise.all([this.run(sessions, warmup, plan.warmupS), plan.alongside?.("warmup", performance.now() + plan.warmupS * 1000)]);
    await sleep(2000);
    const starts = plan.memory.map((read) => read());
    const peaks = [...starts];
    await plan.onStart?.();
    const sampler = setInterval(() => plan.memory.forEach((read, i) => (peaks[i] = Math.max(peaks[i]!, read()))), 250);
    const tally = newTally();
    const viewers = new AbortController();
    const watching = sessions.map((s) => this.watchEvents(s, viewers.signal, tally));

    let clockMoved = false;
    const runStartedAt = performance.now();
    const jump = { startedAt: NaN, movedAt: NaN };
    const [elapsedS] = await Promise.all([
      this.run(sessions, tally, plan.seconds, async () => {
        jump.startedAt = performance.now();
        await this.jumpClock(sessions, plan.moveClock);
        jump.movedAt = performance.now();
        clockMoved = true;
      }),
      plan.alongside?.("run", performance.now() + plan.seconds * 1000),
    ]);
    await this.callOwed(sessions, tally);
    viewers.abort();
    const watched = await Promise.all(watching);
    clearInterval(sampler);
    const settling = await settleMemory(plan.memory, starts, plan.settleMaxS);
    const platform = await plan.platformState();
    return {
      warmupS: plan.warmupS,
      warmup,
      tally,
      elapsedS,
      seconds: plan.seconds,
      clockMoved,
      runStartedAt,
      jump,
      events: watched.reduce((n, w) => n + w.seen, 0),
      retries: watched.reduce((n, w) => n + w.retries, 0),
      viewers: sessions.length,
      installations: platform.installations.length,
      grantsPerKind: refreshGrantsPerKind(platform.tokens),
      starts,
      peaks,
      settling,
    };
  }
}

export interface PlatformTokens {
  installations: unknown[];
  tokens: ReadonlyArray<{ kind: string; family: string; installation_id: string }>;
}

export interface SoakPlan {
  warmupS: number;
  seconds: number;
  /** How long the idle servers are watched after the run for their memory to come back. */
  settleMaxS: number;
  /** Each server's resident memory. */
  memory: ReadonlyArray<() => number>;
  /** Moves the platform's clock CLOCK_JUMP_S on (the walks under way have ended). */
  moveClock(): Promise<unknown>;
  /** More load beside the crowd's, during the warm-up and the run, until `deadline` (performance.now()). */
  alongside?(phase: "warmup" | "run", deadline: number): Promise<unknown>;
  /** Right after the servers' memory at the start is read. */
  onStart?(): Promise<unknown>;
  /** The platform's admin state: its installations and every token it issued. */
  platformState(): Promise<PlatformTokens>;
}

export interface SoakResult extends CrowdFigures {
  /** Each server's memory at the start, at its peak during the run, and while settling after. */
  starts: number[];
  peaks: number[];
  settling: Array<{ waitedS: number; bytes: number[] }>;
}

/**
 * Refresh grants per token kind of each installation, from the emulator's admin state: refresh tokens issued
 * per installation and kind (family) are the install's, then one per refresh grant.
 */
function refreshGrantsPerKind(tokens: ReadonlyArray<{ kind: string; family: string; installation_id: string }>): number[] {
  const issued = new Map<string, number>();
  for (const t of tokens) if (t.kind === "refresh") issued.set(`${t.installation_id} ${t.family}`, (issued.get(`${t.installation_id} ${t.family}`) ?? 0) + 1);
  return [...issued.values()].map((n) => n - 1);
}

/**
 * The idle servers give memory back as their garbage collectors shrink the heap: each server's memory
 * (`readers`) sampled every 5 s until every one is back within 10% of its start, for at most `maxS`.
 */
async function settleMemory(
  readers: ReadonlyArray<() => number>,
  starts: readonly number[],
  maxS: number,
): Promise<Array<{ waitedS: number; bytes: number[] }>> {
  const samples: Array<{ waitedS: number; bytes: number[] }> = [];
  for (let waited = 0; waited <= maxS; waited += 5) {
    if (waited > 0) await sleep(5000);
    const bytes = readers.map((read) => read());
    samples.push({ waitedS: waited, bytes });
    if (bytes.every((b, i) => b <= starts[i]! * 1.1)) break;
  }
  return samples;
}

export interface CrowdFigures {
  warmupS: number;
  warmup: Tally;
  tally: Tally;
  elapsedS: number;
  seconds: number;
  clockMoved: boolean;
  /** performance.now() when the measured run began, and when the jump began (walks paused) and when the clock had moved. */
  runStartedAt: number;
  jump: { startedAt: number; movedAt: number };
  events: number;
  /** Of those, the platform's retries of a delivery it found unanswered. */
  retries: number;
  viewers: number;
  installations: number;
  grantsPerKind: number[];
}

/** What the soaks print of the crowd: requests, statuses, latency, errors, events seen and refresh grants. */
export function printCrowdFigures(f: CrowdFigures): void {
  const requests = f.tally.latencies.length;
  const errors = errorCount(f.tally);
  const histogram = new Map<number, number>();
  for (const g of f.grantsPerKind) histogram.set(g, (histogram.get(g) ?? 0) + 1);
  console.log(`  warm-up: ${f.warmupS} s of the same mix first (${f.warmup.latencies.length} requests, ${errorCount(f.warmup)} errors), then:`);
  console.log(
    `  ${requests} requests in ${f.elapsedS.toFixed(1)} s: ${(requests / f.elapsedS).toFixed(1)} requests/s; clock moved 13 h at ${f.seconds / 2} s: ${f.clockMoved ? "yes" : "no"}`,
  );
  printStatusesAndLatency(f.tally.byStatus, f.tally.latencies);
  printPhases(f);
  console.log(
    `    errors           ${errors}${errors ? `: ${[...f.tally.errors].map(([e, n]) => `${n}× ${e}`).join("; ")}` : ""}  (goal: 0 but deliberate 429s)`,
  );
  console.log(
    `    events seen      ${f.events} by ${f.viewers} live viewers${f.retries ? ` (${f.retries} of them the platform's retries of a delivery)` : ""}`,
  );
  console.log(
    `    refresh grants   ${f.installations} installations, ${f.grantsPerKind.length} token kinds: ${[...histogram]
      .sort()
      .map(([g, n]) => `${n} with ${g} grant${g === 1 ? "" : "s"}`)
      .join(", ")}  (goal: every kind exactly 1)`,
  );
}

/** How long after the clock moved a request counts as one of the jump's (the refreshes it sets off). */
const AFTER_JUMP_S = 10;

/**
 * Where the tail is: the run's requests by phase (before the jump, while the walks under way end and the clock
 * moves, the first seconds after it, the rest) and by action in each, and the slowest 1% by phase and action.
 */
export function printPhases(f: CrowdFigures): void {
  const { requests } = f.tally;
  if (requests.length === 0) return;
  const phaseOf = (at: number) =>
    !(at >= f.jump.startedAt)
      ? "before the jump"
      : at < f.jump.movedAt
        ? "while the clock moves"
        : at < f.jump.movedAt + AFTER_JUMP_S * 1000
          ? `first ${AFTER_JUMP_S} s after it`
          : "after that";
  const line = (label: string, list: ReadonlyArray<{ ms: number }>) => {
    const sorted = list.map((r) => r.ms).sort((a, b) => a - b);
    return `${label.padEnd(32)}${String(sorted.length).padStart(5)}   p50 ${percentile(sorted, 50).toFixed(1).padStart(7)}   p99 ${percentile(sorted, 99).toFixed(1).padStart(7)}   max ${sorted.at(-1)!.toFixed(1).padStart(7)} ms`;
  };
  const group = <T>(list: readonly T[], key: (item: T) => string) => {
    const groups = new Map<string, T[]>();
    for (const item of list) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
    return groups;
  };
  console.log(
    `  by phase (the jump began at ${((f.jump.startedAt - f.runStartedAt) / 1000).toFixed(1)} s, the clock had moved at ${((f.jump.movedAt - f.runStartedAt) / 1000).toFixed(1)} s):`,
  );
  for (const [phase, list] of group(requests, (r) => phaseOf(r.at))) {
    console.log(`    ${line(phase, list)}`);
    for (const [action, each] of [...group(list, (r) => r.action)].sort()) console.log(`      ${line(action, each)}`);
  }
  const threshold = [...requests].sort((a, b) => b.ms - a.ms)[Math.floor(requests.length / 100)]!.ms;
  const slowest = requests.filter((r) => r.ms >= threshold);
  console.log(
    `  the slowest 1% (${slowest.length}, ≥ ${threshold.toFixed(0)} ms): ${[...group(slowest, (r) => `${phaseOf(r.at)}: ${r.action}`)]
      .sort((a, b) => b[1].length - a[1].length)
      .map(([k, v]) => `${v.length}× ${k}`)
      .join("; ")}`,
  );
  const bySecond = group(requests, (r) => String(Math.floor((r.at - f.runStartedAt) / 1000)));
  const seconds = [...bySecond].sort((a, b) => Number(a[0]) - Number(b[0]));
  console.log(
    `  max latency of the requests sent in each second (s: ms): ${seconds.map(([s, list]) => `${s}: ${Math.max(...list.map((r) => r.ms)).toFixed(0)}`).join(", ")}`,
  );
}

/** Answers by status, and their latency (`latencies` is sorted in place). */
export function printStatusesAndLatency(byStatus: ReadonlyMap<string, number>, latencies: number[]): void {
  latencies.sort((a, b) => a - b);
  console.log(
    `    by status        ${[...byStatus]
      .sort()
      .map(([s, n]) => `${s}: ${n}`)
      .join(", ")}`,
  );
  console.log(
    `    latency          p50 ${percentile(latencies, 50).toFixed(1)} ms   p99 ${percentile(latencies, 99).toFixed(1)} ms   max ${latencies.at(-1)?.toFixed(1)} ms`,
  );
}

/** One server's memory over the soak, and its settling afterwards. */
export function printMemory(label: string, start: number, peak: number, settling: ReadonlyArray<{ waitedS: number; bytes: number[] }>, index = 0): void {
  const end = settling.at(-1)!.bytes[index]!;
  console.log(
    `    ${label.padEnd(17)}start ${(start / MB).toFixed(1)} MB   peak ${(peak / MB).toFixed(1)} MB   end ${(end / MB).toFixed(1)} MB   end/start ${(end / start).toFixed(2)}  (goal ≤ 1.10)`,
  );
  console.log(`    ${"settling".padEnd(17)}${settling.map(({ waitedS, bytes }) => `${waitedS} s: ${(bytes[index]! / MB).toFixed(0)} MB`).join(", ")}`);
}
