/**
 * Socket Mode delivery on loopback (lib/emulator/socket-mode): the standalone emulator's server in this process,
 * apps connected with bare `ws` clients that ack each envelope the moment it arrives (not Bolt: the figure is the
 * emulator's). An event comes in as a member's post that mentions the app (POST /admin/mention, what a person's
 * client would cause), and goes out as an events_api envelope.
 *
 * - Latency: one app, events one after another; from the POST leaving the client to the envelope at the app,
 *   which acks it that moment; p50 and p99 (goal p99 < 20 ms). Each ack is then seen recorded by the emulator.
 * - Throughput: 10 apps, one connection each, events fired 50 at a time across them; events a second from the
 *   first POST to the last ack, and none lost or sent twice (each app counts its envelopes; no redelivery).
 */
import { settleEventDeliveries, startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import WebSocket from "ws";
import { BenchHttpError, expectJson } from "../http";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";

const LATENCY_EVENTS = benchSetting("BENCH_SOCKET_EVENTS", 1000, 100);
const WARMUP = benchSetting("BENCH_WARMUP_ROUNDS", 100, 10);
const APPS = 10;
const THROUGHPUT_EVENTS = benchSetting("BENCH_SOCKET_THROUGHPUT_EVENTS", 5000, 200);
const IN_FLIGHT = 50;
const REDIRECT = "http://127.0.0.1:9/bench";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the bench reads the fields it needs

async function admin(server: EmulatorServer, path: string, body?: unknown): Promise<Json> {
  const init =
    body === undefined
      ? {}
      : { method: "POST", headers: { origin: new URL(server.url).origin, "content-type": "application/json" }, body: JSON.stringify(body) };
  return expectJson<Json>(await fetch(`${server.url}/admin/${path}`, init), `admin ${path}`);
}

interface BenchApp {
  appId: string;
  appToken: string;
}

async function socketApp(server: EmulatorServer, n: number): Promise<BenchApp> {
  const scopes = ["app_mentions:read", "chat:write"];
  const created = await admin(server, "apps", {
    display_information: { name: `Socket Bench ${n}` },
    features: { bot_user: { display_name: `socket-bench-${n}` } },
    oauth_config: { redirect_urls: [REDIRECT], scopes: { bot: scopes } },
    settings: { socket_mode_enabled: true, event_subscriptions: { bot_events: ["app_mention"] } },
  });
  const app = created.app as Json;
  const query = new URLSearchParams({ client_id: app.client_id, scope: scopes.join(","), redirect_uri: REDIRECT, state: "bench" });
  const consent = await fetch(`${server.url}/oauth/v2/authorize?${query}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "decision=allow",
    redirect: "manual",
  });
  const code = new URL(consent.headers.get("location") ?? "http://invalid/").searchParams.get("code");
  if (!code) throw new BenchHttpError("consent (expected a redirect with a code)", consent.status, await consent.text());
  const form = new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, code, redirect_uri: REDIRECT });
  await expectJson(await fetch(`${server.url}/api/oauth.v2.access`, { method: "POST", body: form }), "oauth.v2.access");
  const token = await admin(server, `apps/${app.app_id}/app-tokens`, { name: "bench" });
  return { appId: app.app_id, appToken: token.token };
}

interface Connected {
  socket: WebSocket;
  /** Event ids received, in order (a redelivery would show twice). */
  received: string[];
  retries: number;
  onEnvelope?: (eventId: string) => void;
}

async function connect(server: EmulatorServer, app: BenchApp): Promise<Connected> {
  const opened = await expectJson<Json>(
    await fetch(`${server.url}/api/apps.connections.open`, { method: "POST", headers: { authorization: `Bearer ${app.appToken}` } }),
    "apps.connections.open",
  );
  const socket = new WebSocket(opened.url as string);
  const connected: Connected = { socket, received: [], retries: 0 };
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.on("message", (data) => {
      const frame = JSON.parse(data.toString()) as Json;
      if (frame.type === "hello") return resolve();
      if (!frame.envelope_id) return;
      // Ack at once: the figure is the emulator's.
      socket.send(JSON.stringify({ envelope_id: frame.envelope_id }));
      const eventId = String(frame.payload?.event_id);
      connected.received.push(eventId);
      if (frame.retry_attempt > 0) connected.retries += 1;
      connected.onEnvelope?.(eventId);
    });
  });
  return connected;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** Resolves when the emulator has recorded the ack of this event (its delivery delivered); polled, not timed. */
function acked(server: EmulatorServer, eventId: string): Promise<void> {
  const deliveries = () => [...server.emulator.state.eventLogs.values()].flatMap((log) => log.deliveries);
  return new Promise((resolve, reject) => {
    const check = () => {
      const delivery = deliveries().find((d) => d.eventId === eventId);
      if (delivery?.state === "delivered") return resolve();
      if (delivery?.state === "failed") return reject(new Error(`event ${eventId} was not delivered`));
      setTimeout(check, 2);
    };
    check();
  });
}

async function mention(server: EmulatorServer, appId: string, text: string): Promise<string> {
  const answer = await admin(server, "mention", { app_id: appId, text });
  const eventId = (answer.event_ids as string[])[0];
  if (!eventId) throw new Error(`no event for ${appId}: ${JSON.stringify(answer)}`);
  return eventId;
}

/**
 * One event at a time: from the POST leaving the client to the envelope's arrival, when the client acks it at
 * once (the ack's own way back is a loopback write). The next event waits for the emulator to record the ack.
 */
async function latency(server: EmulatorServer, app: BenchApp): Promise<number[]> {
  const client = await connect(server, app);
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + LATENCY_EVENTS; i++) {
    let arrivedAt = 0;
    const arrived = new Promise<void>((resolve) => {
      client.onEnvelope = () => {
        arrivedAt = performance.now();
        resolve();
      };
    });
    const started = performance.now();
    const eventId = await mention(server, app.appId, `latency ${i}`);
    await arrived;
    if (i >= WARMUP) samples.push(arrivedAt - started);
    await acked(server, eventId);
  }
  client.socket.close();
  return samples.sort((a, b) => a - b);
}

async function throughput(server: EmulatorServer, apps: BenchApp[]) {
  const clients = await Promise.all(apps.map((app) => connect(server, app)));
  const total = THROUGHPUT_EVENTS;
  let arrived = 0;
  let allArrived: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allArrived = resolve));
  for (const client of clients) {
    client.onEnvelope = () => {
      arrived += 1;
      if (arrived === total) allArrived();
    };
  }
  const started = performance.now();
  let next = 0;
  const fired: string[] = [];
  const worker = async () => {
    while (next < total) {
      const i = next++;
      fired.push(await mention(server, (apps[i % apps.length] as BenchApp).appId, `throughput ${i}`));
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  await done;
  // Every delivery finished: each ack recorded (the log keeps only the latest deliveries, so none is looked up).
  await settleEventDeliveries(server.emulator.state);
  const seconds = (performance.now() - started) / 1000;
  const received = clients.flatMap((c) => c.received);
  const unique = new Set(received);
  const missing = fired.filter((id) => !unique.has(id)).length;
  for (const client of clients) client.socket.close();
  return {
    total,
    seconds,
    perApp: clients.map((c) => c.received.length),
    duplicates: received.length - unique.size,
    missing,
    retries: clients.reduce((n, c) => n + c.retries, 0),
  };
}

export const emulatorSocketModeSuite: BenchSuite = {
  name: "emulator socket mode delivery",
  async run() {
    // A small workspace: the figure is the delivery's, not the workspace's.
    const server = await startEmulatorServer({ port: 0, users: 50, seed: "bench-socket" });
    try {
      const apps: BenchApp[] = [];
      for (let n = 0; n < APPS; n++) apps.push(await socketApp(server, n));
      const samples = await latency(server, apps[0] as BenchApp);
      const p50 = percentile(samples, 50);
      const p99 = percentile(samples, 99);
      console.log(`Socket Mode, event in to ack back (${LATENCY_EVENTS} events one after another, after ${WARMUP} warm-up)`);
      console.log(`  p50 ${p50.toFixed(3)} ms  p99 ${p99.toFixed(3)} ms  (goal p99 < 20 ms: ${p99 < 20 ? "met" : "NOT met"})`);
      const t = await throughput(server, apps);
      const rate = t.total / t.seconds;
      console.log(`Socket Mode, ${APPS} connected apps, ${t.total} events, ${IN_FLIGHT} fired at a time`);
      console.log(`  ${rate.toFixed(0)} events/s over ${t.seconds.toFixed(2)} s (goal ≥ 1,000/s: ${rate >= 1000 ? "met" : "NOT met"})`);
      console.log(`  per app ${t.perApp.join(", ")}; lost ${t.missing}, sent twice ${t.duplicates}, redelivered ${t.retries}`);
      if (t.missing > 0 || t.duplicates > 0) throw new Error(`Socket Mode lost ${t.missing} and duplicated ${t.duplicates} events`);
    } finally {
      await server.close();
    }
  },
};
