import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulatorServer, type EmulatorServer } from "@/lib/emulator";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

let server: EmulatorServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A raw HTTP request, so that a connection cut shows as the socket error it is. */
function rawPost(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("startEmulatorServer", () => {
  it("serves the emulator under its base path", async () => {
    // Port 0: a fixed port can be taken on a shared machine (CI once found 3203 in use).
    server = await startEmulatorServer({ port: 0, users: 5, basePath: "/emulator" });
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/emulator`);
    const answer = await rawPost(`${server.url}/api/auth.test`);
    expect(answer).toEqual({ status: 200, body: '{"ok":false,"error":"not_authed"}' });
    expect((await rawPost(`http://127.0.0.1:${server.port}/api/auth.test`)).status).toBe(404);
  });

  it("drops the connection without any response when the drop fault fires", async () => {
    server = await startEmulatorServer({ port: 0, users: 5 });
    server.emulator.state.faults.dropRate = 1;
    await expect(rawPost(`${server.url}/api/auth.test`)).rejects.toMatchObject({ code: "ECONNRESET" });
    server.emulator.state.faults.dropRate = 0;
    expect((await rawPost(`${server.url}/api/auth.test`)).status).toBe(200);
  });

  it("answers HTTP 500 when the error fault fires", async () => {
    server = await startEmulatorServer({ port: 0, users: 5 });
    server.emulator.state.faults.errorRate = 1;
    expect(await rawPost(`${server.url}/api/auth.test`)).toEqual({ status: 500, body: '{"ok":false,"error":"fatal_error"}' });
  });
});

describe("npm run emulator (scripts/emulator-server.ts)", () => {
  function run(args: string[], env: Record<string, string> = {}) {
    return spawn(process.execPath, ["--import", "tsx", "scripts/emulator-server.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
  }

  it("starts with flags and EMULATOR_* variables, and says where it listens", async () => {
    const child = run(["--port", "0", "--users", "7"], { EMULATOR_SEED: "from-env", EMULATOR_REFRESH_GRACE_S: "5", EMULATOR_WORKSPACES: "3" });
    try {
      const banner = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes("Workspaces:")) resolve(out);
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
      });
      const url = /listening on (http:\/\/127\.0\.0\.1:[1-9]\d*)/.exec(banner)?.[1];
      expect(url, banner).toBeDefined();
      const state = (await (await fetch(`${url}/admin/state`)).json()) as {
        team: { members: number };
        workspaces: { id: string; members: number }[];
        options: { seed: string; refresh_grace_s: number };
      };
      expect(state.team.members).toBe(7);
      expect(state.workspaces.map((w) => w.members)).toEqual([7, 7, 7]);
      expect(new Set(state.workspaces.map((w) => w.id)).size).toBe(3);
      expect(state.options).toMatchObject({ seed: "from-env", refresh_grace_s: 5 });
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("refuses a bad setting with a message that says what is wrong", async () => {
    const child = run(["--port", "not-a-port"]);
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(err).toContain("port");
    expect(err).toContain("Usage: npm run emulator");
  });
});
