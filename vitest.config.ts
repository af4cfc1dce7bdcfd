import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Two projects, told apart by the file's name so a new test needs no list: `*.slow.test.ts` starts something
 * outside the test's own thread (PostgreSQL, redis, a second console, the emulator or a console over HTTP, a
 * child process, a store on disk) and runs with `npm run test:slow`; every other `*.test.ts` is fast
 * (`npm run test:unit`), and tests/unit/support/fast-guard.ts fails a fast test that starts a listener or a
 * process. docs/testing.md has the figures.
 */
const SLOW = "tests/unit/**/*.slow.test.ts";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // `server-only` throws outside React Server Components; unit tests run lib/ on plain Node.
      "server-only": fileURLToPath(new URL("./tests/unit/support/server-only.ts", import.meta.url)),
    },
  },
  test: {
    environment: "node",
    testTimeout: 20_000,
    // A beforeAll that opens a test's store (PGlite compiling its WebAssembly, then migrating) took over 10 s on a busy 2-core machine.
    hookTimeout: 60_000,
    // Every test process gets a store of its own in memory unless a test names a folder or a PostgreSQL:
    // the default DATA_DIR (.data) is one process's at a time.
    env: { DATA_DIR: "memory://" },
    pool: "threads",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          exclude: [...configDefaults.exclude, SLOW],
          setupFiles: ["tests/unit/support/fast-guard.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "slow",
          include: [SLOW],
          // Most of a slow test's time is spent waiting on another process (initdb, a server starting, a
          // round trip over a socket), so two files at a time fit two cores; each starts its own PostgreSQL,
          // redis and servers on free ports, so none needs the machine to itself.
          maxWorkers: 2,
          // Projects with different worker counts run one after the other (Vitest refuses to mix them in one
          // group): `npx vitest run <folder>` runs a folder's fast files, then its slow ones.
          sequence: { groupOrder: 1 },
          // A test here waits on a server or a process that shares the two cores with the other file's.
          testTimeout: 60_000,
        },
      },
    ],
  },
});
