import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";

const NEXT_BIN = path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next");

/**
 * A console of a spec's own beside the suite's server, from the same build (E2E_PORT's; under E2E_DEV=1,
 * `next dev` in a build folder of its own), on `port`, with `env` over a fresh session password and an
 * in-memory store. Resolves once it answers /api/health (at most 4 minutes).
 */
export async function startSpecConsole(port: number, env: Record<string, string>, what: string): Promise<ChildProcess> {
  const mainPort = Number(process.env.E2E_PORT ?? 3100);
  const origin = `http://localhost:${port}`;
  const dev = process.env.E2E_DEV === "1";
  // Next.js's own binary under this Node (not through npx), so that a signal reaches the server itself and its
  // exit code is the server's.
  // On loopback, as HOST (unset) says: a server listening wider than its configuration serves nothing (lib/ops/exposure.ts).
  const server = spawn(process.execPath, [NEXT_BIN, dev ? "dev" : "start", "-H", "127.0.0.1", "-p", String(port)], {
    detached: true,
    stdio: "ignore",
    env: {
      ...process.env,
      NEXT_DIST_DIR: dev ? `.next-e2e-${port}` : `.next-e2e-${mainPort}`,
      PORT: String(port),
      APP_ORIGIN: origin,
      SESSION_PASSWORD: randomBytes(32).toString("base64url"),
      DATA_DIR: "memory://",
      LOG_LEVEL: "warn",
      // Off unless a spec or suite turns it on: a pass that refreshes tokens on its own would race the clock moves they make.
      BACKGROUND_REFRESH: "false",
      NEXT_TELEMETRY_DISABLED: "1",
      // As scripts/start.sh and the Dockerfile: SIGTERM ends the instance gracefully (lib/ops/shutdown.ts).
      NEXT_MANUAL_SIG_HANDLE: "true",
      ...env,
    },
  });
  const deadline = Date.now() + 240_000;
  for (;;) {
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return server;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      stopSpecConsole(server);
      throw new Error(`${what} did not start on ${origin}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Stops the whole process group the server started (next, its workers), by the id of the one spawned. */
export function stopSpecConsole(server: ChildProcess | undefined): void {
  if (!server?.pid || server.exitCode !== null || server.signalCode !== null) return;
  process.kill(-server.pid, "SIGTERM");
}
