import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

/**
 * The container's path without a container (Dockerfile, docs/hosting.md): Next.js's standalone output, built
 * with no secret in its environment, static assets copied beside it as the image copies them, and its
 * `server.js` run from a folder of its own (so nothing resolves from the checkout's node_modules) with only
 * the environment the image gives it. The store is the embedded PGlite on disk: its WebAssembly and data
 * files and the SQL migrations must all be in the output, and the installation must outlive a restart.
 */
const mainPort = Number(process.env.E2E_PORT ?? 3100);
const port = mainPort + 7;
const origin = `http://localhost:${port}`;
const distDir = `.next-standalone-${port}`;
const CONSOLE_PAGE = { headers: { "x-switchboard-request": "1" } };
/** How long the instance may take to stop on SIGTERM: its SHUTDOWN_TIMEOUT_S (20 s by default) and some. */
const SHUTDOWN_BOUND_MS = 25_000;

let workDir = "";
let appDir = "";
let dataDir = "";
const sessionPassword = randomBytes(32).toString("base64url");
let server: { process: ChildProcess; output: () => string } | undefined;

test.describe.configure({ mode: "serial" });

/** Runs a command to its end; rejects with the tail of its output when it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${output.slice(-4000)}`))));
  });
}

/** `next build` adds its build folder to tsconfig.json and next-env.d.ts: this one leaves the checkout as it found it. */
async function keepingFiles<T>(files: string[], work: () => Promise<T>): Promise<T> {
  const before = files.map((file) => (existsSync(file) ? readFileSync(file, "utf8") : undefined));
  try {
    return await work();
  } finally {
    files.forEach((file, i) => {
      const content = before[i];
      if (content !== undefined && readFileSync(file, "utf8") !== content) writeFileSync(file, content);
    });
  }
}

/** `node server.js` with the image's environment (Dockerfile), on loopback; resolves once it answers /api/health. */
async function startServer(): Promise<{ process: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ["server.js"], {
    cwd: appDir,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_MANUAL_SIG_HANDLE: "true",
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      HOST: "127.0.0.1",
      APP_ORIGIN: origin,
      SESSION_PASSWORD: sessionPassword,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    },
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server.js exited ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return { process: child, output: () => output };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      process.kill(-child.pid!, "SIGKILL");
      throw new Error(`server.js did not answer on ${origin}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Sends SIGTERM and waits for the process to exit: its exit code, or null when it did not within `withinMs`. */
function terminate(child: ChildProcess, withinMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number } | null> {
  const started = Date.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), withinMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, ms: Date.now() - started });
    });
    child.kill("SIGTERM");
  });
}

test.beforeAll(async () => {
  test.setTimeout(360_000);
  // The image's build: a fresh environment with no secret at all, as the Dockerfile's. The checkout may hold
  // npm start's generated secrets in .env.local, which the image's build context leaves out (.dockerignore)
  // and Next.js would apply to the build: __NEXT_PROCESSED_ENV, its own mark that the env files were applied
  // already, keeps them out (with Next.js 16.4, a page prerendered by the build no longer sees their values).
  await keepingFiles(["tsconfig.json", "next-env.d.ts"], () =>
    run("npx", ["next", "build"], {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: "production",
      NEXT_DIST_DIR: distDir,
      NEXT_OUTPUT: "standalone",
      SWITCHBOARD_SKIP_TYPECHECK: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      __NEXT_PROCESSED_ENV: "true",
    }),
  );

  // As the runtime stage lays it out: the standalone folder, its static assets beside server.js, public if any.
  workDir = mkdtempSync(path.join(tmpdir(), `switchboard-standalone-${port}-`));
  appDir = path.join(workDir, "app");
  dataDir = path.join(workDir, "data");
  cpSync(path.join(distDir, "standalone"), appDir, { recursive: true, verbatimSymlinks: true });
  cpSync(path.join(distDir, "static"), path.join(appDir, distDir, "static"), { recursive: true });
  if (existsSync("public")) cpSync("public", path.join(appDir, "public"), { recursive: true });

  server = await startServer();
});

test.afterAll(() => {
  if (server?.process.exitCode === null && server.process.signalCode === null) process.kill(-server.process.pid!, "SIGKILL");
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

test("server.js answers liveness and readiness, with its store on disk", async ({ request }) => {
  expect((await request.get(`${origin}/api/health`)).status()).toBe(200);
  const ready = await request.get(`${origin}/api/ready`);
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toMatchObject({ ready: true, checks: { store: { ok: true } } });
  // PGlite made its database in DATA_DIR: its engine's files and the migrations came with the output.
  expect(existsSync(path.join(dataDir, "PG_VERSION"))).toBe(true);
});

test("the console renders with its static assets, installs through the emulator's consent page, and calls the API", async ({ page }) => {
  const assets: Array<{ url: string; status: number }> = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/_next/static/")) assets.push({ url: response.url(), status: response.status() });
  });
  await page.goto(`${origin}/`);
  await expect(page.getByText("No installations yet")).toBeVisible();
  expect(assets.length).toBeGreaterThan(0);
  expect(assets.filter((asset) => asset.status !== 200)).toEqual([]);

  await page.getByRole("link", { name: "Add to workspace" }).click();
  await expect(page).toHaveURL(/\/emulator\/oauth\/v2\/authorize\?/);
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(new RegExp(`^${origin}/\\?installed=`));
  const card = page.locator("article[data-installation]");
  await expect(card.getByRole("heading", { name: "Switchboard Rotation in Emulated Workspace" })).toBeVisible();

  const session = (await (await page.request.get(`${origin}/api/session`, CONSOLE_PAGE)).json()) as { installations: Array<{ id: string }> };
  expect(session.installations).toHaveLength(1);
  const called = await page.request.get(
    `${origin}/api/call/auth.test?installation=${encodeURIComponent(session.installations[0]!.id)}&token=bot`,
    CONSOLE_PAGE,
  );
  expect(called.status()).toBe(200);
  expect(await called.json()).toMatchObject({ ok: true });
});

test("a restart of server.js keeps the installation: it is in PGlite's files, not the process", async ({ page }) => {
  const stopped = await terminate(server!.process, SHUTDOWN_BOUND_MS);
  expect(stopped, "server.js stopped on SIGTERM").not.toBeNull();
  server = await startServer();

  // The embedded emulator starts afresh with the process (it keeps nothing): the console's own record is what must remain.
  await page.goto(`${origin}/`);
  await expect(page.locator("article[data-installation]").getByRole("heading", { name: "Switchboard Rotation in Emulated Workspace" })).toBeVisible();
});

test("SIGTERM ends server.js within the shutdown bound", async () => {
  const stopped = await terminate(server!.process, SHUTDOWN_BOUND_MS);
  expect(stopped, `server.js did not exit within ${SHUTDOWN_BOUND_MS} ms of SIGTERM:\n${server!.output()}`).not.toBeNull();
  // Graceful shutdown (lib/ops/shutdown.ts) exits 0 once it has finished its work within SHUTDOWN_TIMEOUT_S.
  expect(stopped).toMatchObject({ code: 0, signal: null });
});
