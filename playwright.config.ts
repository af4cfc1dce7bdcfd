import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

/**
 * Browser tests run against a production build of the console with the embedded emulator as upstream.
 * E2E_PORT picks the port (several checkouts or workers can then run side by side) and E2E_DEV=1 uses
 * `next dev` instead of a build, for quick iteration.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const origin = `http://localhost:${port}`;
const distDir = `.next-e2e-${port}`;
// On loopback, as HOST (unset) says: a server listening wider than its configuration serves nothing (lib/ops/exposure.ts).
const serve = process.env.E2E_DEV === "1" ? `npx next dev -H 127.0.0.1 -p ${port}` : `npx next build && npx next start -H 127.0.0.1 -p ${port}`;

export default defineConfig({
  testDir: "tests/e2e",
  // The tests share one emulator (one server process) and reset it between tests: run them in order.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: origin,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: serve,
    url: `${origin}/api/health`,
    timeout: 300_000,
    reuseExistingServer: !process.env.CI,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      NEXT_DIST_DIR: distDir,
      // The server's store in a folder of its own for this run (a DATA_DIR is one process's at a time).
      DATA_DIR: process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), `switchboard-e2e-${port}-`)),
      PORT: String(port),
      APP_ORIGIN: origin,
      SESSION_PASSWORD: randomBytes(32).toString("base64url"),
      EMULATOR_USERS: "3000",
      LOG_LEVEL: "warn",
      // Off unless a spec or suite turns it on: a pass that refreshes tokens on its own would race the clock moves they make.
      BACKGROUND_REFRESH: "false",
      NEXT_TELEMETRY_DISABLED: "1",
      // As scripts/start.sh: SIGTERM ends the server gracefully (lib/ops/shutdown.ts).
      NEXT_MANUAL_SIG_HANDLE: "true",
    },
  },
});
