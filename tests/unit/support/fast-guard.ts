/**
 * The fast project's guard (a setup file of `npm run test:unit`, vitest.config.ts): a test there that starts a
 * listener (an HTTP server, the emulator over HTTP, redis) or a child process (PostgreSQL, `next start`, a
 * script) fails at once, naming the convention that moves it to the slow project. Without it, one such test
 * added to a fast folder would quietly bring back the minutes the split took away.
 */
import { createRequire, syncBuiltinESMExports } from "node:module";

// The builtins' own objects: patched here, they are what every `import … from "node:net"` sees too.
const require = createRequire(import.meta.url);
const net = require("node:net") as typeof import("node:net");
const childProcess = require("node:child_process") as typeof import("node:child_process");

/** What the guard says when it refuses; the test of the guard reads it. */
export function refusal(what: string): string {
  return (
    `${what} in a fast unit test. The fast project (npm run test:unit) starts no server, child process, ` +
    `PostgreSQL or redis: name the test file *.slow.test.ts (git mv, beside the file it was) and it runs ` +
    `with npm run test:slow instead (docs/testing.md).`
  );
}

net.Server.prototype.listen = function refuseListen(): never {
  throw new Error(refusal("A server started listening (net.Server.listen)"));
};

// spawn, fork, exec and execFile all start their process through ChildProcess#spawn (not in Node's types).
(childProcess.ChildProcess.prototype as unknown as { spawn(options: { file?: string }): unknown }).spawn = function refuseSpawn(options): never {
  throw new Error(refusal(`A child process was started (${options?.file ?? "spawn"})`));
};
for (const name of ["spawnSync", "execSync", "execFileSync"] as const) {
  Object.assign(childProcess, {
    [name]: (file: unknown): never => {
      throw new Error(refusal(`A child process was started (${name} ${String(file)})`));
    },
  });
}
// Named imports of node:child_process (`import { execFileSync } …`) read the ESM view: bring it up to date.
syncBuiltinESMExports();
