/**
 * The console's benchmarks run against a production build that they build and start themselves: `next build`
 * into .next-bench or BENCH_DIST_DIR (reused while no source file is newer than it) and `next start` on a loopback port,
 * stopped when the bench process exits. Several console suites share one server; the hosted soak starts
 * servers of its own from the same build (hosted-console.ts).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CONSOLE_REQUEST_HEADER } from "@/lib/console-request";
import { BenchHttpError, expectJson, expectOk, expectPlatformOk } from "../http";

export const BENCH_PORT = Number(process.env.BENCH_CONSOLE_PORT ?? 3235);
export const ORIGIN = `http://127.0.0.1:${BENCH_PORT}`;
export const EMULATOR_BASE = `${ORIGIN}/emulator`;
// BENCH_DIST_DIR lets `npm test` reuse the build its browser tests just made (same sources, same checkout).
const DIST_DIR = process.env.BENCH_DIST_DIR || ".next-bench";
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
// Run Next's own script with this node, so that stopping the child stops the server (npx would not forward it).
const NEXT_BIN = join(ROOT, "node_modules", "next", "dist", "bin", "next");
const SOURCES = ["app", "components", "lib", "next.config.ts", "package-lock.json", "postcss.config.mjs"];

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function buildIsCurrent(): boolean {
  const id = join(ROOT, DIST_DIR, "BUILD_ID");
  if (!existsSync(id)) return false;
  const built = statSync(id).mtimeMs;
  return SOURCES.every((s) => !existsSync(join(ROOT, s)) || newestMtime(join(ROOT, s)) < built);
}

/** The bench server's store: a folder of its own, made for this run (a DATA_DIR is one process's at a time). */
const benchDataDir = () => mkdtempSync(join(tmpdir(), "switchboard-bench-data-"));

/**
 * The environment of a console server from the bench's build, listening on `port`, with `extra` over it:
 * production, quiet, behind a proxy that says who each client is (consoleHeaders), refresher off.
 */
export function consoleEnv(port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    NEXT_DIST_DIR: DIST_DIR,
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    SESSION_PASSWORD: randomBytes(32).toString("base64url"),
    // The bench's sessions say which client each is (consoleHeaders), as a proxy would.
    TRUSTED_PROXY: "1",
    EMULATOR_USERS: "3000",
    LOG_LEVEL: "warn",
    // Off unless a spec or suite turns it on: a pass that refreshes tokens on its own would race the clock moves they make.
    BACKGROUND_REFRESH: "false",
    ...extra,
  };
}

const env = () => consoleEnv(BENCH_PORT, { DATA_DIR: process.env.BENCH_DATA_DIR ?? benchDataDir(), APP_ORIGIN: ORIGIN });

let server: Promise<void> | undefined;
let child: ChildProcess | undefined;

function stop() {
  if (child && child.exitCode === null) child.kill("SIGTERM");
}

/** Waits until the console on `origin` answers /api/health; throws when `server` exits first or the deadline passes. */
export async function waitUntilUp(origin: string, server: ChildProcess, deadlineMs: number) {
  while (Date.now() < deadlineMs) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    try {
      const response = await fetch(`${origin}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the console did not answer on ${origin} in time`);
}

/** Builds the console into the bench's build folder unless the build there is newer than every source. */
export function buildConsoleWhenNeeded(): void {
  if (buildIsCurrent()) return;
  console.log(`  building the console into ${DIST_DIR} (next build)…`);
  const build = spawnSync(process.execPath, [NEXT_BIN, "build"], { cwd: ROOT, env: env(), stdio: ["ignore", "ignore", "inherit"] });
  if (build.status !== 0) throw new Error("next build failed");
}

/**
 * `next start` of the bench's build on loopback `port`, with `serverEnv`. Its log (stdout) is dropped and
 * its stderr is the bench's, unless `logFd` (an open file) takes both.
 */
export function spawnConsole(port: number, serverEnv: NodeJS.ProcessEnv, logFd?: number): ChildProcess {
  // BENCH_SERVER_NODE_ARGS: flags for the server's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" (a profile written when it stops).
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const spawned = spawn(process.execPath, [...nodeArgs, NEXT_BIN, "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: ROOT,
    env: serverEnv,
    stdio: ["ignore", logFd ?? "ignore", logFd ?? "inherit"],
    detached: false,
  });
  spawned.unref();
  return spawned;
}

/** Builds (when needed) and starts the console once; later calls wait for the same server. */
export function startConsole(): Promise<void> {
  server ??= (async () => {
    buildConsoleWhenNeeded();
    child = spawnConsole(BENCH_PORT, env());
    process.once("exit", stop);
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.once(signal, () => {
        stop();
        process.exit(130);
      });
    }
    await waitUntilUp(ORIGIN, child, Date.now() + 60_000);
  })();
  return server;
}

/**
 * The resident memory of the console's server in bytes: `next start` and any process it started, read
 * from /proc (Linux), as the operating system counts it.
 */
export function serverRssBytes(): number {
  if (!child?.pid) throw new Error("the console's server is not running");
  return processTreeRssBytes(child.pid);
}

/** The resident memory in bytes of process `pid` and every process it started, read from /proc (Linux). */
export function processTreeRssBytes(pid: number): number {
  let total = 0;
  for (const each of [pid, ...descendants(pid)]) {
    try {
      const status = readFileSync(`/proc/${each}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** Stops the server this process started (the last console suite calls it; exit does too). */
export function stopConsole() {
  stop();
  server = undefined;
  child = undefined;
}

type Json = Record<string, unknown>;

/**
 * Headers for a request to the console's own routes, as its pages send them: the session's cookie and the
 * header that vouches for a read made by the console (GET /api/session and /api/call refuse reads that
 * say nothing of where they come from).
 */
export function consoleHeaders(cookie: string): Record<string, string> {
  return { cookie, [CONSOLE_REQUEST_HEADER]: "1", "x-forwarded-for": clientAddressOf(cookie) };
}

/**
 * Each bench session stands for a person of their own, behind a proxy that says who (the server runs with
 * TRUSTED_PROXY=1): otherwise every session comes from 127.0.0.1, and the live event streams one client
 * address may hold (lib/events/viewers.ts) would cap the viewers these suites open.
 */
function clientAddressOf(cookie: string): string {
  const digest = createHash("sha256").update(cookie).digest();
  return `10.${digest[0]}.${digest[1]}.${digest[2]}`;
}

/**
 * A call to the emulator's admin surface. A reset also forgets every installation in the console's store, as
 * the browser tests' reset does: installations live on the server, and those a reset made the platform
 * forget would stay listed, tokens dead, first in the explorer's choice of installation.
 */
export async function admin(path: string, body?: Json): Promise<Json> {
  if (path === "reset") await forgetAllInstallations();
  const response = await fetch(`${EMULATOR_BASE}/admin/${path}`, {
    method: body ? "POST" : "GET",
    headers: body ? { "content-type": "application/json", origin: ORIGIN } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return expectJson<Json>(response, `emulator admin/${path}`);
}

/**
 * Forgets every installation in the console's store (a suite that made many leaves the next one a console
 * as it found it). GET /api/session answers a page at a time: the first page until none is left.
 */
export async function forgetAllInstallations(): Promise<number> {
  let forgotten = 0;
  for (;;) {
    const session = await expectJson<{ installations: Array<{ id: string }> }>(
      await fetch(`${ORIGIN}/api/session?limit=200`, { headers: consoleHeaders("") }),
      "GET /api/session",
    );
    if (session.installations.length === 0) return forgotten;
    for (const { id } of session.installations) {
      await expectOk(
        await fetch(`${ORIGIN}/api/installations/${encodeURIComponent(id)}`, { method: "DELETE", headers: { ...consoleHeaders(""), origin: ORIGIN } }),
        `DELETE /api/installations/${id}`,
      );
      forgotten++;
    }
  }
}

/** Rebuilds the emulator's workspace with `users` members (installations are reset too). */
export async function resetWorkspace(users: number): Promise<void> {
  await admin("reset", { users });
}

/** Cookies as a browser keeps them: name=value pairs from every Set-Cookie seen. */
export class Jar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join("; ");
  }
}

/** Allows the consent page at `authorizeUrl` (picking its first channel for the webhook) and returns the redirect. */
async function allowConsent(authorizeUrl: string): Promise<URL> {
  const page = await (await expectOk(await fetch(authorizeUrl), "the emulator's consent page")).text();
  const channel = /<select id="channel_id"[^>]*>\s*<option value="([^"]+)"/.exec(page)?.[1];
  const form = new URLSearchParams({ decision: "allow", ...(channel ? { channel_id: channel } : {}) });
  const decided = await fetch(authorizeUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    redirect: "manual",
  });
  const location = decided.headers.get("location");
  if (decided.status !== 302 || !location) throw new BenchHttpError("consent (expected a 302 back to the app)", decided.status, await decided.text());
  return new URL(location, authorizeUrl);
}

export interface ConsoleSession {
  cookie: string;
  installationId: string;
}

/**
 * The install a person makes: "Add to workspace", Allow on the emulator's consent page, back to the
 * console. `team` picks the workspace (the emulator's first when absent); `origin` is the console's
 * (the bench's server unless said).
 */
export async function installThroughConsole(team?: string, origin = ORIGIN): Promise<ConsoleSession & { jar: Jar }> {
  const jar = new Jar();
  const start = await fetch(`${origin}/oauth/install${team ? `?team=${encodeURIComponent(team)}` : ""}`, { redirect: "manual" });
  jar.take(start);
  const authorize = start.headers.get("location");
  if (!authorize) throw new BenchHttpError("/oauth/install (expected a redirect to the authorize page)", start.status, await start.text());
  const callback = await allowConsent(new URL(authorize, origin).toString());
  const done = await fetch(callback, { headers: { cookie: jar.header() }, redirect: "manual" });
  jar.take(done);
  if (done.status >= 400) throw new BenchHttpError("/oauth/callback", done.status, await done.text());
  // The callback names the installation it made (/?installed=<id>): GET /api/session lists every installation
  // of the console (they live on the server, not in this session's browser), so its first is anyone's.
  const installationId = new URL(done.headers.get("location") ?? "/", origin).searchParams.get("installed");
  if (!installationId) throw new Error(`the install's callback named no installation: ${done.status} ${done.headers.get("location")}`);
  return { cookie: jar.header(), installationId, jar };
}

/**
 * A bot token for calling the emulator directly (the official client's side of the comparison): the
 * emulator's legacy app installed with its own credentials, so the console's installation is untouched.
 */
export async function directBotToken(): Promise<string> {
  const apps = (await admin("apps")) as { apps: Array<{ name: string; client_id: string; client_secret: string; redirect_urls: string[] }> };
  const app = apps.apps.find((a) => /legacy/i.test(a.name)) ?? apps.apps[0]!;
  const redirectUri = app.redirect_urls[0]!;
  const query = new URLSearchParams({ client_id: app.client_id, scope: "users:read,channels:read", redirect_uri: redirectUri, state: "bench" });
  const back = await allowConsent(`${EMULATOR_BASE}/oauth/v2/authorize?${query}`);
  const code = back.searchParams.get("code");
  if (!code) throw new Error("consent gave no code");
  const grant = await expectPlatformOk<{ access_token: string }>(
    await fetch(`${EMULATOR_BASE}/api/oauth.v2.access`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, code, redirect_uri: redirectUri }).toString(),
    }),
    "oauth.v2.access (the bench's direct token)",
  );
  return grant.access_token;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Chromium as the browser tests drive it (Debian's, at /usr/bin/chromium). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The session's cookies for a browser context on the console's origin. */
export function browserCookies(cookie: string) {
  return cookie
    .split("; ")
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf("=");
      return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: ORIGIN };
    });
}
