import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { startSpecConsole, stopSpecConsole } from "./support/console-server";

/**
 * Signing in with AUTH_MODE=oidc, as a person does it: the console sends them to the platform's sign-in
 * page (the embedded emulator's), they pick who they are, come back signed in with their name in the
 * header, and sign out. The other specs' server runs without sign-in, so this one starts a console of its
 * own from the same build (E2E_PORT's), on the next port, with AUTH_MODE=oidc.
 */
const mainPort = Number(process.env.E2E_PORT ?? 3100);
const port = Number(process.env.E2E_SIGNIN_PORT ?? mainPort + 1);
const origin = `http://localhost:${port}`;
let server: ChildProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startSpecConsole(port, { AUTH_MODE: "oidc", EMULATOR_USERS: "200" }, "the AUTH_MODE=oidc console");
});

test.afterAll(() => stopSpecConsole(server));

test("a person is sent to sign in, picks who they are on the platform's page, lands back signed in, and signs out", async ({ page, browser }) => {
  await page.goto(`${origin}/explorer`);
  await expect(page).toHaveURL(/\/emulator\/openid\/connect\/authorize\?/);
  await expect(page.getByRole("heading", { name: /^Sign in to Switchboard Rotation with / })).toBeVisible();

  const picker = page.getByLabel("Sign in as");
  await picker.selectOption({ index: 2 });
  const picked = (await picker.locator("option:checked").textContent()) ?? "";
  const name = picked.replace(/ \(@.*\)$/, "");
  const workspace = (await page.locator("p.lead").textContent())?.replace(/ \(.*\)$/, "").trim() ?? "";
  await page.getByRole("button", { name: "Continue" }).click();

  // Back on the page they first asked for, with their name and workspace in the header.
  await expect(page).toHaveURL(`${origin}/explorer`);
  const header = page.getByTestId("signed-in-person");
  await expect(header).toContainText(name);
  await expect(header).toContainText(workspace);
  await page.screenshot({ path: "test-results/sign-in-signed-in.png" });
  expect(await seriousViolations(page)).toEqual([]);

  // Opened by link as well as by clicking: still signed in.
  await page.goto(`${origin}/webhooks`);
  await expect(page.getByTestId("signed-in-person")).toContainText(name);
  await page.getByRole("link", { name: "Installations" }).click();
  await expect(page).toHaveURL(`${origin}/`);

  // Another browser, never signed in, gets nothing of the console's API.
  const stranger = await browser.newContext();
  const refused = await stranger.request.get(`${origin}/api/session`, { headers: { "x-switchboard-request": "1" } });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ error: "sign_in_required" });
  await stranger.close();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "You are signed out" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto(`${origin}/`);
  await expect(page).toHaveURL(/\/emulator\/openid\/connect\/authorize\?/);
});

test("a sign-in link that did not start in this browser gets a page saying so, with Sign in again", async ({ page }) => {
  await page.goto(`${origin}/auth/callback?code=stolen&state=${"s".repeat(43)}`);
  await expect(page.getByRole("heading", { name: "The sign-in state is missing" })).toBeVisible();
  await page.screenshot({ path: "test-results/sign-in-error.png" });
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("link", { name: "Sign in again" }).click();
  await expect(page).toHaveURL(/\/emulator\/openid\/connect\/authorize\?/);
});

/**
 * Starts the console as the suite runs it (`next start` from E2E_PORT's build; under E2E_DEV=1, `next dev` in a
 * build folder of its own, since the suite's dev server holds its own) with `env`; resolves with its output
 * once it exits or answers /api/health.
 */
function startConsole(env: Record<string, string>, startPort: number): Promise<{ exitCode: number | null; output: string; stop(): void }> {
  const dev = process.env.E2E_DEV === "1";
  const child = spawn("npx", ["next", dev ? "dev" : "start", "-H", "127.0.0.1", "-p", String(startPort)], {
    detached: true,
    env: {
      ...process.env,
      NEXT_DIST_DIR: dev ? `.next-e2e-${mainPort}-${startPort}` : `.next-e2e-${mainPort}`,
      PORT: String(startPort),
      DATA_DIR: "memory://",
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = () => {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
  };
  return new Promise((resolve) => {
    child.on("exit", (code) => resolve({ exitCode: code, output, stop }));
    const poll = async () => {
      if (child.exitCode !== null) return;
      try {
        if ((await fetch(`http://localhost:${startPort}/api/health`)).ok) return resolve({ exitCode: null, output, stop });
      } catch {
        // Not listening yet.
      }
      setTimeout(poll, 300);
    };
    void poll();
  });
}

test("an exposed console without AUTH_MODE refuses to start and says how to fix it; with AUTH_MODE=none it starts, warning", async () => {
  // Behind a proxy (APP_ORIGIN names a host beyond this machine), as exposed as HOST=0.0.0.0.
  const exposed = {
    APP_ORIGIN: "https://console.example.com",
    SESSION_PASSWORD: randomBytes(32).toString("base64url"),
    EMULATOR_ADMIN_TOKEN: randomBytes(32).toString("base64url"),
    AUTH_MODE: "",
  };
  const refused = await startConsole(exposed, port + 1);
  expect(refused.exitCode).toBe(1);
  expect(refused.output).toContain("AUTH_MODE is not set and APP_ORIGIN https://console.example.com names a host beyond this machine");
  expect(refused.output).toContain("Set AUTH_MODE=oidc");

  const unsafe = await startConsole({ ...exposed, AUTH_MODE: "none" }, port + 1);
  try {
    expect(unsafe.exitCode).toBeNull();
    expect(unsafe.output).toContain(
      "AUTH_MODE=none and APP_ORIGIN https://console.example.com names a host beyond this machine (a proxy in front): anyone who reaches the console acts as its operator",
    );
  } finally {
    unsafe.stop();
  }
});
