import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";

/**
 * The hosted shape's pieces beside the console instances (tests/e2e/support/console-server.ts): the
 * standalone emulator as the platform, and its admin surface.
 */

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface StandaloneEmulator {
  process: ChildProcess;
  url: string;
  /** A call to its admin surface (GET without a body, POST with one), with the admin token. */
  admin(path: string, body?: unknown): Promise<Record<string, unknown>>;
  stop(): void;
}

/**
 * `npm run emulator` on `port`: the default apps with `seed`'s credentials, accepting the consoles' OAuth
 * redirects, sending events to `eventsUrl` (none by default), its admin surface behind `adminToken`.
 */
export function startStandaloneEmulator(options: {
  port: number;
  seed: string;
  adminToken: string;
  consoleOrigins: string[];
  /** More redirect URLs the default apps accept (a console's sign-in callback). */
  redirectUrls?: string[];
  eventsUrl?: string;
  users?: number;
}): Promise<StandaloneEmulator> {
  const args = [
    "--import",
    "tsx",
    "scripts/emulator-server.ts",
    "--port",
    String(options.port),
    "--users",
    String(options.users ?? 40),
    "--seed",
    options.seed,
  ];
  for (const origin of options.consoleOrigins) args.push("--redirect-url", `${origin}/oauth/callback`);
  for (const url of options.redirectUrls ?? []) args.push("--redirect-url", url);
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, EMULATOR_ADMIN_TOKEN: options.adminToken, EMULATOR_EVENTS_URL: options.eventsUrl ?? "" },
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the emulator did not start:\n${output}`)), 30_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        process: child,
        url,
        async admin(path, body) {
          const response = await fetch(`${url}/admin/${path}`, {
            ...(body === undefined ? {} : { method: "POST", body: JSON.stringify(body) }),
            headers: { "content-type": "application/json", authorization: `Bearer ${options.adminToken}` },
          });
          return (await response.json()) as Record<string, unknown>;
        },
        stop: () => void child.kill("SIGTERM"),
      });
    });
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  });
}
