/**
 * (f) Soak: the hosted dashboard under a steady crowd. 200 sessions, each installed through the OAuth flow
 * into a workspace of its own, use one console instance (with the embedded emulator) for 60 s: Web API
 * calls through /api/call with the bot and the user token, Fetch all, webhook sends, mentions that come back
 * as events, and one live /api/events/stream viewer each. Halfway through, the emulator's clock moves 13
 * hours on, so every token expires upstream. Goals: no error but deliberate 429s, exactly one refresh
 * grant per token kind per installation, and the server's memory back within 10% of its start after.
 */
import { readNdjson } from "@/lib/explorer/fetch-all-events";
import { expectJson } from "../http";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { admin, consoleHeaders, installThroughConsole, ORIGIN, percentile, serverRssBytes, startConsole, type Jar } from "./console-server";

const SESSIONS = benchSetting("BENCH_SOAK_SESSIONS", 200, 20);
const SECONDS = benchSetting("BENCH_SOAK_SECONDS", 60, 8);
/** The same mix first, unmeasured, so that "start" is a server that has served it (JIT, caches, heap sized). */
const WARMUP_SECONDS = benchSetting("BENCH_SOAK_WARMUP_SECONDS", 10, 2);
// Pages of real size (a users.list page of 100 members is about 100 KB of JSON) at a pace two cores serve
// steadily: a soak judges steadiness under a crowd, not the most a machine can take.
const MEMBERS = 1000;
const THINK_MS = { min: 2000, max: 4000 };
/** How long the idle server is watched after the run for its memory to come back. */
const SETTLE_MAX_S = benchSetting("BENCH_SOAK_SETTLE_S", 60, 10);
const MB = 1024 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Session {
  jar: Jar;
  installationId: string;
  /** Calls each token kind once as soon as the clock has moved, so every kind is refreshed. */
  forced: Array<"bot" | "user">;
}

interface Tally {
  latencies: number[];
  byStatus: Map<string, number>;
  errors: Map<string, number>;
}

type Action = "call-bot" | "call-user" | "fetch-all" | "webhook" | "mention";
const MIX: Array<[Action, number]> = [
  ["call-bot", 0.4],
  ["call-user", 0.25],
  ["fetch-all", 0.05],
  ["webhook", 0.15],
  ["mention", 0.15],
];

function pickAction(): Action {
  let r = Math.random();
  for (const [action, weight] of MIX) {
    r -= weight;
    if (r <= 0) return action;
  }
  return "call-bot";
}

/**
 * Walks in flight. The clock jump is an artifice (13 hours pass in an instant): a walk that spans it
 * finds its cursor 13 hours old and expired, as the platform would say. New walks wait for the jump and
 * the jump waits for the walks under way.
 */
const walks = { inFlight: 0, paused: false };

function count(map: Map<string, number>, key: string) {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** One request as the console's pages make it; the session's cookies follow every answer. */
async function request(session: Session, tally: Tally, path: string, init: { method?: "GET" | "POST"; json?: unknown } = {}): Promise<Response> {
  const headers: Record<string, string> = consoleHeaders(session.jar.header());
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    headers.origin = ORIGIN;
  }
  const started = performance.now();
  const response = await fetch(`${ORIGIN}${path}`, {
    method: init.method ?? "GET",
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
  session.jar.take(response);
  tally.latencies.push(performance.now() - started);
  count(tally.byStatus, String(response.status));
  return response;
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

async function act(session: Session, tally: Tally, action: Action): Promise<void> {
  const id = encodeURIComponent(session.installationId);
  let response: Response;
  switch (action) {
    case "call-bot":
    case "call-user": {
      const kind = action === "call-bot" ? "bot" : "user";
      const method = kind === "bot" ? "users.list" : "auth.test";
      response = await request(session, tally, `/api/call/${method}?installation=${id}&token=${kind}${kind === "bot" ? "&limit=100" : ""}`);
      break;
    }
    case "fetch-all": {
      if (walks.paused) return act(session, tally, "call-bot");
      walks.inFlight++;
      try {
        response = await request(session, tally, `/api/call/users.list/all?installation=${id}&token=bot&limit=200`);
        if (response.ok && response.body) await readWalk(response.body, tally);
      } finally {
        walks.inFlight--;
      }
      break;
    }
    case "webhook":
      response = await request(session, tally, "/api/webhooks/send", {
        method: "POST",
        json: { webhookId: `inst-${session.installationId}`, text: "soak test message" },
      });
      break;
    case "mention":
      response = await request(session, tally, "/api/emulator/mention", { method: "POST", json: { installationId: session.installationId, text: "soak" } });
      break;
  }
  if (response.status >= 400 && response.status !== 429) {
    count(tally.errors, `${action}: HTTP ${response.status} ${(await response.text()).slice(0, 120)}`);
    return;
  }
  if (action.startsWith("call-")) {
    const body = (await response.json()) as { ok?: boolean; error?: string };
    if (!body.ok) count(tally.errors, `${action}: platform ${body.error}`);
  } else if (action !== "fetch-all") {
    await response.arrayBuffer();
  }
}

/** One live viewer per session, read as a browser reads it; returns how many events it saw. */
function watchEvents(session: Session, signal: AbortSignal, tally: Tally): Promise<number> {
  return (async () => {
    let seen = 0;
    try {
      const response = await fetch(`${ORIGIN}/api/events/stream`, { headers: consoleHeaders(session.jar.header()), signal });
      count(tally.byStatus, `stream ${response.status}`);
      if (!response.ok || !response.body) {
        if (response.status !== 429) count(tally.errors, `events stream: HTTP ${response.status}`);
        return 0;
      }
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        seen += (decoder.decode(value, { stream: true }).match(/event: received/g) ?? []).length;
      }
    } catch (error) {
      if (!signal.aborted) count(tally.errors, `events stream: ${error instanceof Error ? error.message : String(error)}`);
    }
    return seen;
  })();
}

/** Every session runs the mix until `seconds` have passed; `halfway` runs once at half time. */
async function runMix(sessions: Session[], tally: Tally, seconds: number, halfway?: () => Promise<void>): Promise<number> {
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
        const action = forced ? (forced === "bot" ? "call-bot" : "call-user") : pickAction();
        try {
          await act(session, tally, action);
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

export const consoleSoakSuite: BenchSuite = {
  name: `console: soak (${SESSIONS} sessions for ${SECONDS} s, tokens expiring halfway)`,
  async run() {
    await startConsole();
    await admin("reset", { users: MEMBERS, workspaces: SESSIONS });
    const { workspaces } = (await admin("state")) as { workspaces: Array<{ id: string }> };
    const sessions: Session[] = [];
    const installing = performance.now();
    for (let i = 0; i < SESSIONS; i += 10) {
      const batch = await Promise.all(workspaces.slice(i, i + 10).map((w) => installThroughConsole(w.id)));
      for (const s of batch) sessions.push({ jar: s.jar, installationId: s.installationId, forced: [] });
    }
    console.log(
      `  ${sessions.length} sessions installed through the OAuth flow, each into its own workspace, in ${((performance.now() - installing) / 1000).toFixed(1)} s`,
    );

    const warmup: Tally = { latencies: [], byStatus: new Map(), errors: new Map() };
    await runMix(sessions, warmup, WARMUP_SECONDS);
    await sleep(2000);
    const start = serverRssBytes();
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, serverRssBytes())), 250);
    const tally: Tally = { latencies: [], byStatus: new Map(), errors: new Map() };
    const viewers = new AbortController();
    const watching = sessions.map((s) => watchEvents(s, viewers.signal, tally));

    let clockMoved = false;
    const elapsedS = await runMix(sessions, tally, SECONDS, async () => {
      walks.paused = true;
      while (walks.inFlight > 0) await sleep(20);
      await admin("clock", { advance_s: 13 * 3600 });
      walks.paused = false;
      for (const s of sessions) s.forced.push("bot", "user");
      clockMoved = true;
    });
    // Sessions whose last turn came before the clock moved still owe their forced calls.
    for (const session of sessions) {
      for (const kind of session.forced.splice(0)) await act(session, tally, kind === "bot" ? "call-bot" : "call-user");
    }
    viewers.abort();
    const events = (await Promise.all(watching)).reduce((a, b) => a + b, 0);
    clearInterval(sampler);
    // The idle server gives memory back as its garbage collector shrinks the heap: sample it settling.
    const settling: Array<[number, number]> = [];
    for (let waited = 0; waited <= SETTLE_MAX_S; waited += 5) {
      if (waited > 0) await sleep(5000);
      settling.push([waited, serverRssBytes()]);
      if (settling.at(-1)![1] <= start * 1.1) break;
    }
    const end = settling.at(-1)![1];

    const state = await expectJson<{
      installations: Array<{ id: string; refresh_grants: number }>;
      tokens: Array<{ kind: string; family: string; installation_id: string }>;
    }>(await fetch(`${ORIGIN}/emulator/admin/state`, { headers: { origin: ORIGIN } }), "emulator admin/state");
    // Refresh tokens issued per installation and kind: the install's, then one per refresh grant.
    const issued = new Map<string, number>();
    for (const t of state.tokens)
      if (t.kind === "refresh") issued.set(`${t.installation_id} ${t.family}`, (issued.get(`${t.installation_id} ${t.family}`) ?? 0) + 1);
    const grantsPerKind = [...issued.values()].map((n) => n - 1);
    const histogram = new Map<number, number>();
    for (const g of grantsPerKind) histogram.set(g, (histogram.get(g) ?? 0) + 1);

    tally.latencies.sort((a, b) => a - b);
    const requests = tally.latencies.length;
    const errors = [...tally.errors.values()].reduce((a, b) => a + b, 0);
    const warmupErrors = [...warmup.errors.values()].reduce((a, b) => a + b, 0);
    console.log(`  warm-up: ${WARMUP_SECONDS} s of the same mix first (${warmup.latencies.length} requests, ${warmupErrors} errors), then:`);
    console.log(
      `  ${requests} requests in ${elapsedS.toFixed(1)} s: ${(requests / elapsedS).toFixed(1)} requests/s; clock moved 13 h at ${SECONDS / 2} s: ${clockMoved ? "yes" : "no"}`,
    );
    console.log(
      `    by status        ${[...tally.byStatus]
        .sort()
        .map(([s, n]) => `${s}: ${n}`)
        .join(", ")}`,
    );
    console.log(
      `    latency          p50 ${percentile(tally.latencies, 50).toFixed(1)} ms   p99 ${percentile(tally.latencies, 99).toFixed(1)} ms   max ${tally.latencies.at(-1)?.toFixed(1)} ms`,
    );
    console.log(
      `    errors           ${errors}${errors ? `: ${[...tally.errors].map(([e, n]) => `${n}× ${e}`).join("; ")}` : ""}  (goal: 0 but deliberate 429s)`,
    );
    console.log(`    events seen      ${events} by ${sessions.length} live viewers`);
    console.log(
      `    refresh grants   ${state.installations.length} installations, ${grantsPerKind.length} token kinds: ${[...histogram]
        .sort()
        .map(([g, n]) => `${n} with ${g} grant${g === 1 ? "" : "s"}`)
        .join(", ")}  (goal: every kind exactly 1)`,
    );
    console.log(
      `    server memory    start ${(start / MB).toFixed(1)} MB   peak ${(peak / MB).toFixed(1)} MB   end ${(end / MB).toFixed(1)} MB   end/start ${(end / start).toFixed(2)}  (goal ≤ 1.10)`,
    );
    console.log(`    settling         ${settling.map(([s, b]) => `${s} s: ${(b / MB).toFixed(0)} MB`).join(", ")}`);
    await admin("reset", { users: MEMBERS, workspaces: 1 });
  },
};
