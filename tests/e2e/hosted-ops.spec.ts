import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import { expect, test } from "@playwright/test";
import { defaultAppCredentials } from "@/lib/emulator";
import { startPostgres, type TestPostgres } from "../unit/support/postgres";
import { startRedis, type TestRedis } from "../unit/support/redis";
import { startSpecConsole, stopSpecConsole } from "./support/console-server";
import { freePort, startStandaloneEmulator, type StandaloneEmulator } from "./support/hosted";

/**
 * Issue 28, operating the hosted shape: two `next start` instances (the suite's build) sharing one PostgreSQL
 * and one redis-server behind a round-robin load balancer that, as nginx does, tries the other instance when
 * one refuses a connection; the standalone emulator as the platform. Each instance answers readiness and
 * serves metrics to the token only; SIGTERM on one while a person watches /events, a slow call and a slow
 * refresh are in flight and requests keep arriving through the balancer: readiness turns 503, the work in
 * flight finishes, the audit is written, the person's live feed reconnects to the other instance, nobody
 * meets an error, and the process exits 0 within its bound.
 */
const mainPort = Number(process.env.E2E_PORT ?? 3100);
const instancePorts = [mainPort + 8, mainPort + 9];
const instances = instancePorts.map((p) => `http://localhost:${p}`);
const SEED = "hosted-ops-e2e";
const ADMIN_TOKEN = randomBytes(32).toString("base64url");
const METRICS_TOKEN = randomBytes(32).toString("base64url");
const SHUTDOWN_TIMEOUT_S = 15;
const app = defaultAppCredentials(SEED, "rotation");
const CONSOLE_REQUEST = { "x-switchboard-request": "1" };

let postgres: TestPostgres;
let redis: TestRedis;
let emulator: StandaloneEmulator;
let balancer: Server;
let origin = "";
let sharedEnv: Record<string, string> = {};
const servers: Array<ChildProcess | undefined> = [];

/**
 * The load balancer: each request to the next instance in turn, on a connection of its own; a refused
 * connection is tried on the other instance (nginx's proxy_next_upstream error), so an instance that stopped
 * listening costs nobody a request. Streams (the event feed) pass through as they come.
 */
function startBalancer(port: number): Promise<Server> {
  let turn = 0;
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      const first = turn++ % instancePorts.length;
      const attempt = (tried: number) => {
        const port = instancePorts[(first + tried) % instancePorts.length]!;
        const upstream = httpRequest(
          { host: "127.0.0.1", port, method: incoming.method, path: incoming.url, headers: incoming.headers, agent: false },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          },
        );
        upstream.on("error", (error: NodeJS.ErrnoException) => {
          if (!outgoing.headersSent && error.code === "ECONNREFUSED" && tried + 1 < instancePorts.length) return attempt(tried + 1);
          if (!outgoing.headersSent) outgoing.writeHead(502).end(`balancer: ${error.code}`);
          else outgoing.destroy();
        });
        outgoing.on("close", () => upstream.destroy());
        upstream.end(body);
      };
      attempt(0);
    });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

async function startInstance(i: number): Promise<ChildProcess> {
  const server = await startSpecConsole(instancePorts[i]!, sharedEnv, `console instance ${i + 1}`);
  servers[i] = server;
  return server;
}

async function metric(instance: string, series: string): Promise<number> {
  const response = await fetch(`${instance}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(response.status).toBe(200);
  const line = (await response.text()).split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const lbPort = await freePort();
  origin = `http://localhost:${lbPort}`;
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  emulator = await startStandaloneEmulator({
    port: await freePort(),
    seed: SEED,
    adminToken: ADMIN_TOKEN,
    consoleOrigins: [origin],
    eventsUrl: `${origin}/api/events`,
  });
  balancer = await startBalancer(lbPort);
  // What every instance behind one balancer shares: the store, Redis, the keys, the public origin.
  sharedEnv = {
    APP_ORIGIN: origin,
    DATABASE_URL: await postgres.createDatabase("hosted_ops"),
    REDIS_URL: redis.url,
    SESSION_PASSWORD: randomBytes(32).toString("base64url"),
    PLATFORM_BASE_URL: emulator.url,
    CLIENT_ID: app.clientId,
    CLIENT_SECRET: app.clientSecret,
    SIGNING_SECRET: app.signingSecret,
    EMULATOR_ADMIN_TOKEN: ADMIN_TOKEN,
    METRICS_TOKEN,
    BACKGROUND_REFRESH: "true",
    REFRESHER_INTERVAL_S: "2",
    SHUTDOWN_DELAY_S: "1",
    SHUTDOWN_TIMEOUT_S: String(SHUTDOWN_TIMEOUT_S),
  };
  await Promise.all([startInstance(0), startInstance(1)]);
  // The platform checks the app's request URL (url_verification) once it answers: the balancer's, now that the instances are up.
  const verified = await emulator.admin(`apps/${await consoleAppId()}/verify`, {});
  expect(verified.ok, JSON.stringify(verified)).toBe(true);
});

async function consoleAppId(): Promise<string> {
  const apps = (await emulator.admin("apps")).apps as Array<{ app_id: string; client_id: string }>;
  return apps.find((a) => a.client_id === app.clientId)!.app_id;
}

test.afterAll(async () => {
  for (const server of servers) stopSpecConsole(server);
  balancer?.close();
  emulator?.stop();
  await redis?.stop();
  await postgres?.stop();
});

test("each instance says it is ready (its store and Redis answer) and serves its metrics to the metrics token alone", async () => {
  for (const instance of instances) {
    // As a load balancer does: asked until ready (an instance that has just started may still be opening its store).
    await expect.poll(async () => (await fetch(`${instance}/api/ready`)).status, { timeout: 20_000 }).toBe(200);
    const ready = await fetch(`${instance}/api/ready`);
    expect(await ready.json()).toMatchObject({ ready: true, shuttingDown: false, checks: { store: { ok: true }, redis: { ok: true } } });
    expect((await fetch(`${instance}/api/metrics`)).status).toBe(401);
    expect((await fetch(`${instance}/api/metrics`, { headers: { authorization: "Bearer not-the-token" } })).status).toBe(401);
    expect(await metric(instance, "switchboard_shutting_down")).toBe(0);
    expect(await metric(instance, "switchboard_process_resident_memory_bytes")).toBeGreaterThan(10 * 1024 * 1024);
  }
});

test("SIGTERM on the instance a person's live feed is on: readiness 503, work in flight finished, audit written, the feed back on the other instance, no request lost, exit 0", async ({
  page,
}) => {
  test.setTimeout(180_000);
  // Installed through the balancer, as a person does.
  await page.goto(`${origin}/`);
  await page.getByRole("link", { name: "Add to workspace" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(new RegExp(`^${origin}/\\?installed=`));
  const installationId = new URL(page.url()).searchParams.get("installed")!;
  const teamId = installationId.split("-")[0]!;

  // The person watches /events; which instance holds their stream, the instances' metrics say.
  await page.goto(`${origin}/events`);
  await expect(page.getByRole("status", { name: "Feed connection" })).toContainText("Listening");
  let streams: number[] = [];
  await expect
    .poll(async () => {
      streams = await Promise.all(instances.map((instance) => metric(instance, "switchboard_event_streams_open")));
      return streams[0]! + streams[1]!;
    })
    .toBe(1);
  const stopping = streams[0] === 1 ? 0 : 1;
  const going = instances[stopping]!;
  const staying = instances[1 - stopping]!;
  const server = servers[stopping]!;
  const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
    server.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );

  const created = await page.request.post(`${origin}/api/api-keys`, { headers: { origin }, data: { name: "the app's backend" } });
  expect(created.status()).toBe(201);
  const { key, apiKey } = (await created.json()) as { key: string; apiKey: { id: string } };

  // A slow platform: a call and a refresh on the instance about to stop are in flight when the signal comes.
  expect((await emulator.admin("faults", { latency_ms: 3_000, methods: ["users.list", "oauth.v2.access"] })).ok).toBe(true);
  const grantsBefore = ((await emulator.admin("state")).installations as Array<{ refresh_grants: number }>)[0]!.refresh_grants;
  const slowCall = fetch(`${going}/api/call/users.list?installation=${installationId}&limit=3`, { headers: CONSOLE_REQUEST });
  const slowRefresh = fetch(`${going}/api/tokens/refresh`, {
    method: "POST",
    headers: { origin, "content-type": "application/json" },
    body: JSON.stringify({ installation: installationId, token: "bot" }),
  });
  // Requests keep arriving through the balancer all along.
  const statuses: number[] = [];
  let keepAsking = true;
  const asking = (async () => {
    while (keepAsking && !test.info().errors.length) {
      const response = await fetch(`${origin}/api/session`, { headers: CONSOLE_REQUEST });
      statuses.push(response.status);
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 500));
  // The app's backend asks this instance for a token; the signal comes within the audit's 200 ms batch.
  const asked = await fetch(`${going}/api/v1/installations/${teamId}/token`, { headers: { authorization: `Bearer ${key}` } });
  expect(asked.status).toBe(200);
  const signalledAt = Date.now();
  server.kill("SIGTERM");

  // Readiness says so while the instance finishes (SHUTDOWN_DELAY_S), and then it takes no connection.
  await expect
    .poll(async () => {
      const ready = await fetch(`${going}/api/ready`).catch(() => undefined);
      return ready ? { status: ready.status, shuttingDown: ((await ready.json()) as { shuttingDown: boolean }).shuttingDown } : "refused";
    })
    .toEqual({ status: 503, shuttingDown: true });

  // The work in flight finished: the call answered, the refresh settled with one grant.
  const call = await slowCall;
  expect(call.status).toBe(200);
  expect(((await call.json()) as { ok: boolean; members: unknown[] }).members).toHaveLength(3);
  const refresh = await slowRefresh;
  expect(refresh.status, await refresh.clone().text()).toBe(200);
  const grantsAfter = ((await emulator.admin("state")).installations as Array<{ refresh_grants: number }>)[0]!.refresh_grants;
  expect(grantsAfter - grantsBefore).toBe(1);

  const exit = await exited;
  expect(exit).toMatchObject({ code: 0, signal: null });
  expect(exit.at - signalledAt).toBeLessThan(SHUTDOWN_TIMEOUT_S * 1000);
  await expect(fetch(`${going}/api/health`)).rejects.toThrow();
  await emulator.admin("faults", { latency_ms: 0, methods: [] });

  // The person's feed reconnected through the balancer to the other instance, and events still arrive live.
  await expect.poll(() => metric(staying, "switchboard_event_streams_open"), { timeout: 20_000 }).toBe(1);
  await expect(page.getByRole("status", { name: "Feed connection" })).toContainText("Listening");
  const words = `after the restart ${Date.now()}`;
  // Someone mentions the app on the platform: the event reaches the balancer's request URL, then the feed.
  const mention = await emulator.admin("mention", { app_id: await consoleAppId(), text: words });
  expect(mention.ok, JSON.stringify(mention)).toBe(true);
  await expect(page.getByRole("list", { name: "Received events" }).getByRole("article").filter({ hasText: words })).toBeVisible();

  keepAsking = false;
  await asking;
  expect(statuses.length).toBeGreaterThan(20);
  expect(statuses.filter((status) => status !== 200)).toEqual([]);

  // The token the stopped instance answered last is in the audit, read through the other instance.
  const uses = (await (await fetch(`${staying}/api/api-keys/${apiKey.id}/uses`, { headers: CONSOLE_REQUEST })).json()) as {
    uses: Array<{ status: number; teamId: string }>;
  };
  expect(uses.uses).toEqual([expect.objectContaining({ status: 200, teamId })]);
  // The refresh the stopping instance finished is the store's: the other instance shows the new token.
  const session = (await (await fetch(`${staying}/api/session`, { headers: CONSOLE_REQUEST })).json()) as {
    installations: Array<{ id: string; bot: { masked: string }; timeline: Array<{ type: string; token?: string }> }>;
  };
  const installation = session.installations.find((i) => i.id === installationId)!;
  expect(installation.timeline.filter((e) => e.type === "refreshed" && e.token === "bot")).toHaveLength(1);

  // Started again, it is soon ready, and the balancer has both again.
  await startInstance(stopping);
  await expect.poll(async () => (await fetch(`${going}/api/ready`)).status, { timeout: 20_000 }).toBe(200);
});
