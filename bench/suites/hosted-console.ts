/**
 * The console as it is hosted (issue 28): the standalone emulator (scripts/emulator-server.ts, a process of
 * its own) as the platform, console instances (`next start` of the bench's build) sharing one PostgreSQL
 * database and one redis-server, with the same keys and their background refreshers on, and one origin in
 * front of them: a round-robin TCP proxy in the bench's process that hands each new connection to the next
 * instance (a session's requests land on either; the store is shared). PostgreSQL and Redis are the unit
 * tests' own (tests/unit/support), on free ports, nothing saved.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { defaultAppCredentials } from "@/lib/emulator";
import { startPostgres } from "../../tests/unit/support/postgres";
import { freePort, startRedis } from "../../tests/unit/support/redis";
import { expectJson } from "../http";
import { buildConsoleWhenNeeded, consoleEnv, processTreeRssBytes, spawnConsole, waitUntilUp } from "./console-server";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const STARTUP_MS = 120_000;
const MEMORY_PROBE = pathToFileURL(join(ROOT, "bench", "memory-probe.mjs")).href;

export interface HostedOptions {
  instances: number;
  /** The platform's workspaces, one per installation to come, and the members of each. */
  workspaces: number;
  users: number;
  refresherIntervalS: number;
  /** More settings, the same on every instance. */
  env?: Record<string, string>;
  /** Runs once the platform and the database are up, before any instance starts (a seed; a clock moved while none ran). */
  beforeInstances?: (ready: { env: Record<string, string>; emulatorBaseUrl: string }) => Promise<void>;
}

export interface ConsoleInstance {
  port: number;
  /** Where its log (LOG_LEVEL=warn) and its stderr go. */
  logPath: string;
  /** `next start` and what it started: this instance's resident memory. */
  rssBytes(): number;
  /** What its heap holds, as it is or after a full collection (bench/memory-probe.mjs). */
  heap(collect: boolean): Promise<NodeJS.MemoryUsage>;
}

export interface HostedConsole {
  /** The one origin (APP_ORIGIN) every client uses: the proxy's. */
  origin: string;
  /** The instances' PostgreSQL database (a suite that seeds the store writes there). */
  databaseUrl: string;
  /** The environment every instance shares (keys, platform, app): what a script acting as one of them needs. */
  sharedEnv: Record<string, string>;
  instances: ConsoleInstance[];
  /** Connections the proxy handed to each instance so far. */
  connections: number[];
  emulator: {
    baseUrl: string;
    adminToken: string;
    /** The console's app on the platform (the emulator's default rotation app). */
    appId: string;
    admin<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T>;
  };
  /** The setup in one line, for the figures. */
  describe(): string;
  /** The folder of the instances' logs and memory readings. */
  logs: string;
  /** What the instances logged as errors (level error and above), by name and message, with how often. */
  loggedErrors(): Map<string, number>;
  /** Stops everything; the logs are removed unless `keepLogs` (a run that failed, to read why). */
  stop(options?: { keepLogs?: boolean }): Promise<void>;
}

/** A TCP proxy on a free loopback port handing each connection to the next of `backends` (filled in later). */
async function startRoundRobinProxy(backends: number[], connections: number[]) {
  const sockets = new Set<Socket>();
  let turn = 0;
  const proxy = createServer((socket) => {
    if (backends.length === 0) return socket.destroy();
    const index = turn++ % backends.length;
    connections[index] = (connections[index] ?? 0) + 1;
    const upstream = connect(backends[index]!, "127.0.0.1");
    for (const s of [socket, upstream]) {
      sockets.add(s);
      s.once("close", () => sockets.delete(s));
    }
    socket.pipe(upstream).pipe(socket);
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  const port = await new Promise<number>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve((proxy.address() as AddressInfo).port)));
  return {
    port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

/** The standalone emulator on a free port; resolves with its base URL once it says it listens. */
function startEmulator(args: string[], adminToken: string): Promise<{ process: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/emulator-server.ts", "--port", "0", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, EMULATOR_ADMIN_TOKEN: adminToken },
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the emulator did not start:\n${output}`)), 30_000);
    const take = (chunk: Buffer) => {
      // Its first lines say where it listens; what it says later is kept only while nothing was found.
      if (output.length < 10_000) output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ process: child, baseUrl: url });
      }
    };
    child.stdout?.on("data", take);
    child.stderr?.on("data", take);
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code}:\n${output}`)));
  });
}

/** Asks an instance's memory probe (bench/memory-probe.mjs) for a reading and waits for its line. */
async function probeHeap(server: ChildProcess, file: string, collect: boolean): Promise<NodeJS.MemoryUsage> {
  const lines = () => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : []);
  const before = lines().length;
  if (collect) writeFileSync(`${file}.gc`, "");
  else rmSync(`${file}.gc`, { force: true });
  server.kill("SIGUSR2");
  for (let waited = 0; waited < 10_000; waited += 50) {
    const now = lines();
    if (now.length > before) return JSON.parse(now.at(-1)!) as NodeJS.MemoryUsage;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the memory probe of the instance (pid ${server.pid}) wrote nothing to ${file}`);
}

/** The pino lines of level error (50) and above in `paths`, counted by the error's name and message. */
function loggedErrors(paths: readonly string[]): Map<string, number> {
  const counted = new Map<string, number>();
  for (const path of paths) {
    for (const line of readFileSync(path, "utf8").split("\n")) {
      if (!line.startsWith("{")) continue;
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { name?: string; message?: string } };
      if ((entry.level ?? 0) < 50) continue;
      const key = `${entry.msg ?? ""}${entry.err ? `: ${entry.err.name ?? ""} ${entry.err.message ?? ""}` : ""}`.replace(/\b[TA][0-9A-Z]{8,}\b/g, "…");
      counted.set(key, (counted.get(key) ?? 0) + 1);
    }
  }
  return counted;
}

/** Stops a child and waits for it to be gone (SIGKILL after `graceMs`). */
async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Builds the console when needed and starts the hosted shape; whatever started is stopped again when a
 * later step fails, and when the bench process exits.
 */
export async function startHostedConsole(options: HostedOptions): Promise<HostedConsole> {
  buildConsoleWhenNeeded();
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stops.splice(0).reverse()) await s().catch(() => undefined);
  };
  const children: ChildProcess[] = [];
  const killOnExit = () => children.forEach((c) => c.kill("SIGKILL"));
  process.once("exit", killOnExit);
  stops.push(async () => void process.removeListener("exit", killOnExit));
  try {
    const postgres = await startPostgres();
    stops.push(() => postgres.stop());
    const databaseUrl = await postgres.createDatabase("hosted_soak");
    const redis = await startRedis();
    stops.push(() => redis.stop());

    const backends: number[] = [];
    const connections: number[] = [];
    const proxy = await startRoundRobinProxy(backends, connections);
    stops.push(() => proxy.close());
    const origin = `http://127.0.0.1:${proxy.port}`;

    const seed = `hosted-bench-${randomBytes(4).toString("hex")}`;
    const app = defaultAppCredentials(seed, "rotation");
    const adminToken = randomBytes(32).toString("base64url");
    const emulator = await startEmulator(
      [
        ...["--users", String(options.users), "--workspaces", String(options.workspaces), "--seed", seed],
        ...["--redirect-url", `${origin}/oauth/callback`, "--events-url", `${origin}/api/events`],
      ],
      adminToken,
    );
    children.push(emulator.process);
    stops.push(() => stopChild(emulator.process, 5_000));
    const admin = async <T = Record<string, unknown>>(path: string, body?: unknown): Promise<T> =>
      expectJson<T>(
        await fetch(`${emulator.baseUrl}/admin/${path}`, {
          ...(body === undefined ? {} : { method: "POST", body: JSON.stringify(body) }),
          headers: { "content-type": "application/json", authorization: `Bearer ${adminToken}` },
        }),
        `emulator admin/${path}`,
      );

    // The same store, Redis, keys and platform for every instance, as behind a load balancer.
    const shared = {
      APP_ORIGIN: origin,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      SESSION_PASSWORD: randomBytes(32).toString("base64url"),
      PLATFORM_BASE_URL: emulator.baseUrl,
      CLIENT_ID: app.clientId,
      CLIENT_SECRET: app.clientSecret,
      SIGNING_SECRET: app.signingSecret,
      EMULATOR_ADMIN_TOKEN: adminToken,
      // As scripts/start.sh and the Dockerfile run it: SIGTERM ends an instance gracefully.
      NEXT_MANUAL_SIG_HANDLE: "true",
      BACKGROUND_REFRESH: "true",
      REFRESHER_INTERVAL_S: String(options.refresherIntervalS),
      ...options.env,
    };
    await options.beforeInstances?.({ env: shared, emulatorBaseUrl: emulator.baseUrl });
    const instances: ConsoleInstance[] = [];
    const logs = mkdtempSync(join(tmpdir(), "switchboard-hosted-bench-"));
    let keepLogs = true;
    stops.push(async () => void (keepLogs || rmSync(logs, { recursive: true, force: true })));
    // One after the other: the first migrates the shared database.
    for (let i = 0; i < options.instances; i++) {
      const port = await freePort();
      const logPath = join(logs, `instance-${i + 1}.log`);
      const probeFile = join(logs, `instance-${i + 1}.memory.jsonl`);
      const logFd = openSync(logPath, "a");
      const probe = {
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --expose-gc --import ${MEMORY_PROBE}`.trim(),
        BENCH_MEMORY_PROBE_FILE: probeFile,
      };
      const server = spawnConsole(port, consoleEnv(port, { ...shared, ...probe }), logFd);
      closeSync(logFd);
      children.push(server);
      stops.push(() => stopChild(server, 25_000));
      await waitUntilUp(`http://127.0.0.1:${port}`, server, Date.now() + STARTUP_MS);
      instances.push({ port, logPath, rssBytes: () => processTreeRssBytes(server.pid!), heap: (collect) => probeHeap(server, probeFile, collect) });
      backends.push(port);
    }
    // The platform verifies the app's request URL (the proxy's /api/events) before it sends events there;
    // when the emulator started, no instance answered yet.
    const verified = await admin<{ request_url_verification: { state: string } }>(`apps/${app.appId}/verify`, {});
    if (verified.request_url_verification.state !== "verified") throw new Error(`the app's request URL is not verified: ${JSON.stringify(verified)}`);

    return {
      origin,
      databaseUrl,
      sharedEnv: shared,
      instances,
      connections,
      emulator: { baseUrl: emulator.baseUrl, adminToken, appId: app.appId, admin },
      describe: () =>
        `${instances.length} instances (ports ${instances.map((i) => i.port).join(", ")}) behind ${origin}, a round-robin TCP proxy; PostgreSQL on port ${postgres.port}, redis-server on port ${redis.port}; the standalone emulator at ${emulator.baseUrl}; refresher every ${options.refresherIntervalS} s`,
      logs,
      loggedErrors: () => loggedErrors(instances.map((i) => i.logPath)),
      stop: (stopping) => {
        keepLogs = stopping?.keepLogs ?? false;
        return stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
