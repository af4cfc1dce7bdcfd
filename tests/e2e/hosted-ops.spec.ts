import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, expect, test } from "@playwright/test";
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
 * meets an error, and the process exits 0 within its bound. Each counts refusals by reason and says when its
 * refresher last finished a pass (issue 36 item 11).
 *
 * Issues 36 and 37, operating one console as a person does: `npm start` signalled as systemd and Ctrl-C signal
 * it (36.9); a Host the console does not answer, in a browser that resolves a rebinding name here and from a
 * teammate's address (36.10, 37.8); 2,000 cookies (37.2); `next start` without -H (37.7).
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
let startedAt = 0;

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

test.describe("the hosted shape: two instances behind a balancer", () => {
  test.beforeAll(async () => {
    test.setTimeout(300_000);
    startedAt = Date.now();
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

  test("each instance counts refusals by reason and says when its refresher last finished a pass", async () => {
    const instance = instances[0]!;
    const series = (reason: string) => `switchboard_refusals_total{reason="${reason}"}`;
    const before = { host: await metric(instance, series("host")), cookies: await metric(instance, series("cookies")) };
    // A rebinding page's request, and one with more cookies than a browser keeps: both refused, both counted.
    expect((await rawGet(instance, "/api/session", { ...CONSOLE_REQUEST, host: "evil.example" })).status).toBe(403);
    expect((await rawGet(instance, "/api/health", { cookie: emptyCookies(2000) })).status).toBe(431);
    expect(await metric(instance, series("host"))).toBe(before.host + 1);
    expect(await metric(instance, series("cookies"))).toBe(before.cookies + 1);
    // The refresher (every 2 s here) has finished a pass since the instance started.
    await expect.poll(() => metric(instance, "switchboard_refresher_last_success_timestamp_seconds"), { timeout: 20_000 }).toBeGreaterThan(startedAt / 1000);
    expect(await metric(instance, "switchboard_refresher_last_success_timestamp_seconds")).toBeLessThanOrEqual(Date.now() / 1000 + 1);
    expect(await metric(instance, "switchboard_installations_needing_reinstall")).toBe(0);
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
});

const NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/**
 * `count` empty cookies of distinct two-character names, ";"-separated: 2,000 are 8 KB, within nginx's default
 * header size. Distinct, because Next.js keeps one cookie per name: what cost it 1.3 s of CPU (issue 37 item 2).
 */
function emptyCookies(count: number): string {
  return Array.from({ length: count }, (_, i) => `${NAME_CHARS[Math.floor(i / NAME_CHARS.length)]}${NAME_CHARS[i % NAME_CHARS.length]}=`).join(";");
}

/** A GET over node:http, on a connection of its own, so that the headers go exactly as written (Host included). */
function rawGet(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; type: string; body: string }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers, agent: false }, (answer) => {
      let body = "";
      answer.on("data", (chunk: Buffer) => (body += chunk.toString()));
      answer.on("end", () => resolve({ status: answer.statusCode ?? 0, type: answer.headers["content-type"] ?? "", body }));
    });
    sent.on("error", reject);
    sent.end();
  });
}

/** Polls until nothing accepts connections on `port` any more; false if something still does after `ms`. */
async function portCloses(port: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const open = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      () => true,
      () => false,
    );
    if (!open) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

test.describe("one console as a person runs it", () => {
  /** `npm start` as a person types it, in a process group of its own (as a terminal gives it), its output kept. */
  function npmStart(env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
    const child = spawn("npm", ["start", "--", "--no-build"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    return { child, output: () => output, exited };
  }

  /** Whatever is left of the group (a server npm left behind, before the fix), so that a failure leaves nothing running. */
  function killGroup(child: ChildProcess): void {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Nothing left.
    }
  }

  async function untilUp(port: number, output: () => string): Promise<void> {
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${port}/api/health`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 90_000, message: output() },
      )
      .toBe(200);
  }

  test("a signal to npm start reaches the server: it shuts down gracefully, gives back the port and DATA_DIR, and npm start again serves the same data", async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), "switchboard-npm-start-"));
    const lock = path.join(dataDir, "switchboard.lock");
    const consoleOrigin = `http://localhost:${port}`;
    // The suite's build (--no-build serves it), a store on disk, the secrets npm start would otherwise write into .env.local.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      NEXT_DIST_DIR: `.next-e2e-${mainPort}`,
      SESSION_PASSWORD: randomBytes(32).toString("base64url"),
      EMULATOR_ADMIN_TOKEN: randomBytes(32).toString("base64url"),
      LOG_LEVEL: "info",
      BACKGROUND_REFRESH: "false",
    };
    for (const name of ["HOST", "APP_ORIGIN", "ALLOWED_HOSTS", "DATABASE_URL", "NEXT_MANUAL_SIG_HANDLE"]) delete env[name];

    const first = npmStart(env);
    let installationId = "";
    try {
      await untilUp(port, first.output);
      // A person installs the app: the installation is in DATA_DIR's store, which this process now holds.
      await page.goto(`${consoleOrigin}/`);
      await page.getByRole("link", { name: "Add to workspace" }).click();
      await page.getByRole("button", { name: "Allow" }).click();
      await expect(page).toHaveURL(new RegExp(`^${consoleOrigin}/\\?installed=`));
      installationId = new URL(page.url()).searchParams.get("installed")!;
      expect(existsSync(lock)).toBe(true);

      // systemd, pm2 or `kill` signal npm itself.
      process.kill(first.child.pid!, "SIGTERM");
      expect(await portCloses(port, 30_000), `the server still answers on ${port} after SIGTERM to npm start:\n${first.output()}`).toBe(true);
      await first.exited;
      expect(first.output()).toContain("shut down cleanly");
      expect(existsSync(lock), "DATA_DIR is still locked").toBe(false);
    } finally {
      killGroup(first.child);
    }

    // Started again on the same DATA_DIR: the console serves, the store opens, the installation is there.
    const second = npmStart(env);
    try {
      await untilUp(port, second.output);
      expect(second.output()).not.toContain("Building");
      await page.goto(`${consoleOrigin}/`);
      await expect(page.getByRole("link", { name: "Add to workspace" })).toBeVisible();
      await expect(page.locator("body")).not.toContainText("is in use");
      expect((await fetch(`${consoleOrigin}/api/ready`)).status).toBe(200);
      const session = (await (await fetch(`${consoleOrigin}/api/session`, { headers: CONSOLE_REQUEST })).json()) as {
        installations: Array<{ id: string; team: { id: string } }>;
      };
      expect(session.installations.map((i) => i.id)).toContain(installationId);

      // And it still works: the embedded emulator kept what it issued (DATA_DIR/emulator), so Test answers ok
      // rather than invalid_auth, and the card says nothing of a reinstall.
      const card = page.locator(`article[data-installation="${installationId}"]`);
      const bot = card.getByRole("group", { name: "Bot token" });
      await bot.getByRole("button", { name: "Test" }).click();
      await expect(bot.getByRole("status", { name: "Bot token: last result" })).toContainText("Test: ok");
      await expect(card.getByText("active", { exact: true })).toBeVisible();
      await expect(card.getByText("needs reinstall", { exact: true })).toHaveCount(0);
      // The token API hands the app's backend a token the platform still knows.
      const created = await fetch(`${consoleOrigin}/api/api-keys`, {
        method: "POST",
        headers: { origin: consoleOrigin, "content-type": "application/json" },
        body: JSON.stringify({ name: "after the restart" }),
      });
      expect(created.status).toBe(201);
      const { key } = (await created.json()) as { key: string };
      const teamId = session.installations.find((i) => i.id === installationId)!.team.id;
      const served = await fetch(`${consoleOrigin}/api/v1/installations/${teamId}/token?kind=bot`, { headers: { authorization: `Bearer ${key}` } });
      expect(served.status).toBe(200);
      const { access_token: token, expires_in: expiresIn } = (await served.json()) as { access_token: string; expires_in: number };
      expect(expiresIn).toBeLessThanOrEqual(12 * 3600);
      const tested = await fetch(`${consoleOrigin}/emulator/api/auth.test`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
      expect(await tested.json()).toMatchObject({ ok: true, team_id: teamId });

      // Ctrl-C in the terminal: SIGINT to the whole group, which npm also passes on. One graceful shutdown, not a "second signal".
      process.kill(-second.child.pid!, "SIGINT");
      expect(await portCloses(port, 30_000), `the server still answers after Ctrl-C:\n${second.output()}`).toBe(true);
      await second.exited;
      expect(second.output()).toContain("shut down cleanly");
      expect(second.output()).not.toContain("second signal");
      expect(existsSync(lock)).toBe(false);
    } finally {
      killGroup(second.child);
    }
  });

  test("pages answer only the console's own names: a rebinding site, in a browser that resolves it here, reads a refusal page and nothing of the console", async ({
    page,
  }) => {
    const base = `http://localhost:${mainPort}`;
    // Something to leak: the console's pages name installations once there is one.
    await page.goto(`${base}/`);
    await page.getByRole("link", { name: "Add to workspace" }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await expect(page).toHaveURL(new RegExp(`^${base}/\\?installed=`));
    const installationId = new URL(page.url()).searchParams.get("installed")!;

    // evil.example resolves to this machine, as DNS rebinding makes it.
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP evil.example 127.0.0.1"],
    });
    try {
      const rebound = await browser.newPage();
      for (const pathname of ["/", "/events", "/webhooks", "/explorer", "/settings", "/api-keys"]) {
        const answer = await rebound.goto(`http://evil.example:${mainPort}${pathname}`);
        expect(answer?.status(), pathname).toBe(403);
        await expect(rebound.getByRole("heading", { name: "This console does not answer at this address" })).toBeVisible();
        await expect(rebound.locator("body")).toContainText(`APP_ORIGIN=http://evil.example:${mainPort}`);
        expect(await rebound.content(), pathname).not.toContain(installationId.split("-")[0]!);
      }
      // The API says the same as JSON to the page's own fetch.
      const fromPage = await rebound.evaluate(async () => {
        const response = await fetch("/api/session");
        return { status: response.status, body: (await response.json()) as { error: string } };
      });
      expect(fromPage).toMatchObject({ status: 403, body: { error: "forbidden_host" } });
    } finally {
      await browser.close();
    }
    // At its own name, the same page renders.
    await page.goto(`${base}/events`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect((await rawGet(base, "/events", { accept: BROWSER_ACCEPT })).status).toBe(200);
  });

  test("a teammate opening an exposed console by its address reads a page that names APP_ORIGIN; an API client reads JSON", async () => {
    const base = `http://127.0.0.1:${mainPort}`;
    const page = await rawGet(base, "/", { host: `192.0.2.2:${mainPort}`, accept: BROWSER_ACCEPT });
    expect(page.status).toBe(403);
    expect(page.type).toBe("text/html; charset=utf-8");
    expect(page.body).toContain(`APP_ORIGIN=http://192.0.2.2:${mainPort}`);
    const api = await rawGet(base, "/api/session", { host: `192.0.2.2:${mainPort}`, accept: "application/json" });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.body)).toMatchObject({
      ok: false,
      error: "forbidden_host",
      message: expect.stringContaining(`APP_ORIGIN=http://192.0.2.2:${mainPort}`),
    });
  });

  test("more cookies than a browser keeps are refused before Next.js reads them, on the API and the pages alike", async () => {
    const base = `http://127.0.0.1:${mainPort}`;
    for (const pathname of ["/api/health", "/api/session", "/events"]) {
      const started = Date.now();
      const refused = await rawGet(base, pathname, { cookie: emptyCookies(2000) });
      expect(refused.status, pathname).toBe(431);
      expect(JSON.parse(refused.body)).toMatchObject({ error: "too_many_cookies" });
      // Before the bound, each cost Next.js over a second of CPU.
      expect(Date.now() - started, pathname).toBeLessThan(1_000);
    }
    expect((await rawGet(base, "/events", { cookie: emptyCookies(2000), accept: BROWSER_ACCEPT })).body).toContain("too many cookies");
    expect((await rawGet(base, "/api/health", { cookie: emptyCookies(100) })).status).toBe(200);
    expect((await rawGet(base, "/api/health", { cookie: emptyCookies(101) })).status).toBe(431);
  });

  test("`next start` without -H listens on every interface while HOST says loopback: it serves nothing but the reason, from the first request on", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NEXT_DIST_DIR: `.next-e2e-${mainPort}`,
      PORT: String(port),
      SESSION_PASSWORD: randomBytes(32).toString("base64url"),
      DATA_DIR: "memory://",
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
    };
    for (const name of ["HOST", "APP_ORIGIN", "ALLOWED_HOSTS", "DATABASE_URL"]) delete env[name];
    const server = spawn(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port)], {
      env,
      detached: true,
      stdio: "ignore",
    });
    try {
      await expect
        .poll(
          () =>
            fetch(`http://127.0.0.1:${port}/api/health`).then(
              (r) => r.status,
              () => 0,
            ),
          { timeout: 60_000 },
        )
        .toBe(503);
      const health = (await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as { error: string; message: string };
      expect(health.error).toBe("listening_exposed");
      expect(health.message).toMatch(/listens on every interface \((::|0\.0\.0\.0)\)/);
      expect(health.message).toContain("HOST is 127.0.0.1");
      // Nothing of the console is served: not the session, not the emulator's admin surface, not a page.
      expect((await fetch(`http://127.0.0.1:${port}/api/session`, { headers: CONSOLE_REQUEST })).status).toBe(503);
      expect((await fetch(`http://127.0.0.1:${port}/emulator/admin/apps`)).status).toBe(503);
      const answer = await page.goto(`http://localhost:${port}/`);
      expect(answer?.status()).toBe(503);
      await expect(page.getByRole("heading", { name: "This console is not serving" })).toBeVisible();
      await expect(page.locator("body")).toContainText("next start -H 127.0.0.1");
    } finally {
      stopSpecConsole(server);
    }
  });
});
