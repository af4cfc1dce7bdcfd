/**
 * (e) Memory of the event stream under viewers that never read: N viewers of GET /api/events/stream whose
 * connections take nothing, while large signed events arrive at POST /api/events. The server's resident
 * memory before, at its peak and after; /api/health timed throughout. Goal: growth under 100 MB for 300
 * viewers and 18 events of 0.9 MB, and health answering in under 100 ms throughout.
 */
import { connect, type Socket } from "node:net";
import { defaultAppCredentials } from "@/lib/emulator";
import { signRequest } from "@/lib/events/signature";
import { MAX_STREAMS_PER_SESSION } from "@/lib/events/viewers";
import { expectJson, expectOk } from "../http";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { BENCH_PORT, consoleHeaders, installThroughConsole, ORIGIN, percentile, resetWorkspace, serverRssBytes, startConsole } from "./console-server";

const VIEWERS = benchSetting("BENCH_VIEWERS", 300, 30);
const EVENTS = benchSetting("BENCH_VIEWER_EVENTS", 18, 4);
const EVENT_BYTES = 900 * 1024;
const MB = 1024 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Viewer {
  socket: Socket;
  status: number;
  closedByServer: boolean;
}

/** Opens the stream over a raw connection, reads its status line, then never reads again. */
function openStalledViewer(cookie: string): Promise<Viewer> {
  return new Promise((resolve, reject) => {
    const socket = connect(BENCH_PORT, "127.0.0.1");
    const viewer: Viewer = { socket, status: 0, closedByServer: false };
    socket.once("error", reject);
    socket.on("close", () => (viewer.closedByServer = true));
    socket.once("data", (chunk: Buffer) => {
      viewer.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString("latin1"))?.[1] ?? 0);
      // From here on the viewer takes nothing: what the server sends piles up in its buffers.
      socket.pause();
      socket.removeListener("error", reject);
      socket.on("error", () => {});
      resolve(viewer);
    });
    const headers = Object.entries(consoleHeaders(cookie))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.write(`GET /api/events/stream HTTP/1.1\r\nHost: 127.0.0.1:${BENCH_PORT}\r\naccept: text/event-stream\r\n${headers}\r\n`);
  });
}

function largeMention(teamId: string, i: number): string {
  const envelope = {
    type: "event_callback",
    team_id: teamId,
    api_app_id: "A0BENCH",
    event_id: `EvBench${Date.now()}${i}`,
    event_time: Math.floor(Date.now() / 1000),
    event: { type: "app_mention", user: "U0BENCH", text: "", channel: "C0BENCH", ts: `${Math.floor(Date.now() / 1000)}.${String(i).padStart(6, "0")}` },
  };
  envelope.event.text = `<@UBOT> ${"long message ".repeat(Math.ceil(EVENT_BYTES / 13))}`.slice(0, EVENT_BYTES - JSON.stringify(envelope).length);
  return JSON.stringify(envelope);
}

export const consoleEventViewersSuite: BenchSuite = {
  name: "console: event stream memory under viewers that never read",
  async run() {
    await startConsole();
    await resetWorkspace(3000);
    const sessions = Math.ceil(VIEWERS / MAX_STREAMS_PER_SESSION);
    const cookies: string[] = [];
    let teamId = "";
    for (let i = 0; i < sessions; i++) {
      const session = await installThroughConsole();
      cookies.push(session.cookie);
      if (!teamId) {
        const state = await expectJson<{ installations: Array<{ team: { id: string } }> }>(
          await fetch(`${ORIGIN}/api/session`, { headers: consoleHeaders(session.cookie) }),
          "GET /api/session",
        );
        teamId = state.installations[0]!.team.id;
      }
    }
    const { signingSecret } = defaultAppCredentials(process.env.EMULATOR_SEED ?? "switchboard", "rotation");

    // Health is timed every 50 ms from here to the end.
    const health: number[] = [];
    const worstHealth: Record<string, number> = {};
    let phase = "idle";
    let timing = true;
    const healthLoop = (async () => {
      while (timing) {
        const started = performance.now();
        await expectOk(await fetch(`${ORIGIN}/api/health`), "GET /api/health");
        const ms = performance.now() - started;
        health.push(ms);
        worstHealth[phase] = Math.max(worstHealth[phase] ?? 0, ms);
        await sleep(50);
      }
    })();
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, serverRssBytes())), 100);

    await sleep(1000);
    const before = serverRssBytes();
    phase = "opening viewers";
    const viewers: Viewer[] = [];
    for (let i = 0; i < VIEWERS; i++) viewers.push(await openStalledViewer(cookies[i % sessions]!));
    const admitted = viewers.filter((v) => v.status === 200).length;
    const withViewers = serverRssBytes();

    phase = "events arriving";
    const posted: number[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const body = largeMention(teamId, i);
      const ts = String(Math.floor(Date.now() / 1000));
      const started = performance.now();
      await expectOk(
        await fetch(`${ORIGIN}/api/events`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-slack-request-timestamp": ts, "x-slack-signature": signRequest(signingSecret, ts, body) },
          body,
        }),
        "POST /api/events",
      );
      posted.push(performance.now() - started);
    }
    phase = "after the events";
    await sleep(2000);
    const after = serverRssBytes();
    const dropped = viewers.filter((v) => v.closedByServer).length;

    phase = "viewers leaving";
    for (const viewer of viewers) viewer.socket.destroy();
    await sleep(2000);
    const closed = serverRssBytes();
    clearInterval(sampler);
    timing = false;
    await healthLoop;
    health.sort((a, b) => a - b);
    posted.sort((a, b) => a - b);

    const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;
    console.log(
      `  ${VIEWERS} viewers from ${sessions} sessions (${admitted} admitted, ${VIEWERS - admitted} refused); ${EVENTS} events of ${(EVENT_BYTES / MB).toFixed(2)} MB posted`,
    );
    console.log(
      `    server memory (RSS)   before ${mb(before)}   with viewers ${mb(withViewers)}   peak ${mb(peak)}   after the events ${mb(after)}   viewers gone ${mb(closed)}`,
    );
    console.log(`    growth                after − before ${mb(after - before)}   peak − before ${mb(peak - before)}  (goal < 100 MB)`);
    console.log(`    viewers dropped by the server for falling behind: ${dropped} of ${admitted}`);
    console.log(`    POST /api/events      p50 ${percentile(posted, 50).toFixed(1)} ms   max ${posted.at(-1)!.toFixed(1)} ms`);
    console.log(
      `    GET /api/health       ${health.length} calls   p50 ${percentile(health, 50).toFixed(1)} ms   p99 ${percentile(health, 99).toFixed(1)} ms   max ${health.at(-1)!.toFixed(1)} ms  (goal < 100 ms)`,
    );
    console.log(
      `    slowest health answer by phase: ${Object.entries(worstHealth)
        .map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`)
        .join(", ")}`,
    );
  },
};
