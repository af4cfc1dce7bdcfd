import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Another instance of the token API (token-api-instance.ts), in a process of its own, with this process's environment. */
export interface TokenApiInstance {
  origin: string;
  /** The instance's process (its LISTEN connections name it in pg_stat_activity). */
  pid: number;
  close(): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL("./token-api-instance.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../../..", import.meta.url));

export async function startTokenApiInstance(): Promise<TokenApiInstance> {
  const child: ChildProcess = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", SCRIPT], {
    cwd: ROOT,
    env: process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`the second instance exited (${code}): ${errors.slice(-2000)}`)));
    setTimeout(() => reject(new Error(`the second instance did not start within 60 s: ${errors.slice(-2000)}`)), 60_000).unref();
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
