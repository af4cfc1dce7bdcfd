import { execFile, execFileSync, spawn } from "node:child_process";
import { createServer } from "node:http";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { startEmulatorServer } from "@/lib/emulator";

/**
 * The fast project (npm run test:unit) refuses what makes a test slow (tests/unit/support/fast-guard.ts): a test
 * added to it that starts a server or a child process fails, and the failure says how to move it to
 * the slow project. This file runs in the fast project, so each case here is such a test.
 */

const CONVENTION = /name the test file \*\.slow\.test\.ts .* npm run test:slow/;

describe("the fast project's guard", () => {
  it("refuses a server that starts listening, even on an ephemeral port of the loopback", () => {
    const server = createServer();
    expect(() => server.listen(0, "127.0.0.1")).toThrow(CONVENTION);
    expect(server.listening).toBe(false);
  });

  it("refuses the emulator served over HTTP, as the console tests start it", async () => {
    await expect(startEmulatorServer({ users: 2, seed: "fast-guard" })).rejects.toThrow(CONVENTION);
  });

  it("refuses a child process however it is started, naming the program", () => {
    const node = process.execPath;
    expect(() => spawn(node, ["-e", ""])).toThrow(`A child process was started (${node}) in a fast unit test`);
    expect(() => execFileSync(node, ["--version"])).toThrow(`A child process was started (execFileSync ${node})`);
    // The promisified execFile the PostgreSQL helper uses refuses before it returns its promise.
    expect(() => promisify(execFile)(node, ["--version"])).toThrow(CONVENTION);
  });
});
