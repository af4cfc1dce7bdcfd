/**
 * A real Redis for the tests: Debian's redis-server as a child process on a free port, with nothing saved
 * to disk, stopped afterwards. Missing redis-server fails the tests with how to install it (never a skip).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, Socket } from "node:net";

export interface TestRedis {
  port: number;
  url: string;
  stop(): Promise<void>;
}

const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? "redis-server";
const MISSING =
  "The Redis tests need redis-server, and it is missing. Install it as root with:  apt-get update && apt-get install -y redis-server  " +
  "(scripts/test.sh does this when run as root), or set REDIS_SERVER_PATH to a redis-server binary.";

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const failed = new Promise<never>((_, reject) => {
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === "ENOENT" ? MISSING : `redis-server did not start: ${error.message}`)),
    );
    child.once("exit", (code) => reject(new Error(`redis-server exited with code ${code}: ${stderr.trim()}`)));
  });
  failed.catch(() => {});

  const ready = (async () => {
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await answersPing(port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server on port ${port} did not answer PING within 5 s: ${stderr.trim()}`);
  })();
  try {
    await Promise.race([ready, failed]);
  } catch (error) {
    child.kill("SIGTERM");
    throw error;
  }

  // A test that throws before stop() must not leave a server behind when the test process ends.
  const killOnExit = () => child.kill("SIGTERM");
  process.once("exit", killOnExit);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      process.removeListener("exit", killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}
