/**
 * A real PostgreSQL for the tests: Debian's server binaries run a temporary cluster in a temporary
 * directory (data and socket both there), listening on 127.0.0.1 and a free port with trust
 * authentication, with nothing saved outside that directory; stop() shuts it down and removes it.
 * PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user (runuser).
 * Missing binaries fail the tests with how to install them (never a skip).
 */
import { execFile, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./redis";

const run = promisify(execFile);

export interface TestPostgres {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** A URL to a new, empty database of this cluster. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

const MISSING =
  "The store's PostgreSQL tests need Debian's PostgreSQL server, and it is missing. Install it as root with:  apt-get update && apt-get install -y postgresql  " +
  "(scripts/test.sh does this when run as root), or set POSTGRES_BIN to the folder that holds initdb and pg_ctl.";

function binDir(): string {
  if (process.env.POSTGRES_BIN) return process.env.POSTGRES_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error(MISSING);
  return path.join(root, versions[0]!, "bin");
}

const asRoot = process.getuid?.() === 0;

/** Runs a server binary as the cluster's owner: `postgres` when this process is root. */
function asOwner(binary: string, args: string[]): [string, string[]] {
  return asRoot ? ["runuser", ["-u", "postgres", "--", binary, ...args]] : [binary, args];
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const dir = mkdtempSync(path.join(tmpdir(), "switchboard-pg-"));
  const data = path.join(dir, "data");
  if (asRoot) spawnSync("chown", ["-R", "postgres:postgres", dir]);
  else chownSync(dir, process.getuid!(), process.getgid!());
  const port = await freePort();
  const [initdb, initArgs] = asOwner(path.join(bin, "initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
  try {
    await run(initdb, initArgs);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${(error as { stderr?: string }).stderr ?? String(error)}`);
  }
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c synchronous_commit=off -c max_connections=200`;
  const pgCtl = path.join(bin, "pg_ctl");
  const [start, startArgs] = asOwner(pgCtl, ["-D", data, "-o", options, "-l", path.join(dir, "server.log"), "-w", "-t", "30", "start"]);
  try {
    await run(start, startArgs);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${(error as { stderr?: string }).stderr ?? String(error)}`);
  }
  const stopNow = () => {
    const [stop, stopArgs] = asOwner(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"]);
    spawnSync(stop, stopArgs, { stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  };
  // A test that throws before stop() must not leave a server behind when the test process ends.
  process.once("exit", stopNow);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    port,
    url,
    async createDatabase(name: string) {
      const pg = (await import("pg")).default;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`create database "${name.replace(/"/g, "")}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      process.removeListener("exit", stopNow);
      stopNow();
    },
  };
}
