import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // `server-only` throws outside React Server Components; unit tests run lib/ on plain Node.
      "server-only": fileURLToPath(new URL("./tests/unit/support/server-only.ts", import.meta.url)),
    },
  },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
    testTimeout: 20_000,
    // A beforeAll that opens a test's store (PGlite compiling its WebAssembly, then migrating) took over 10 s on a busy 2-core machine.
    hookTimeout: 60_000,
    // Every test process gets a store of its own in memory unless a test names a folder or a PostgreSQL:
    // the default DATA_DIR (.data) is one process's at a time.
    env: { DATA_DIR: "memory://" },
    pool: "threads",
  },
});
