import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { startSpecConsole, stopSpecConsole } from "./support/console-server";

/**
 * Signing in with AUTH_MODE=oidc, as a person does it: the console sends them to its own sign-in page, and
 * "Sign in with" to the platform's (the embedded emulator's), where they pick who they are; they come back
 * signed in with their name in the header, and sign out. The other specs' server runs without sign-in, so this one starts a console of its
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

test("a person is sent to the console's sign-in page, signs in with the platform, lands back signed in, and signs out", async ({ page, browser }) => {
  await page.goto(`${origin}/explorer`);
  // The console's own page first: what Switchboard is, and "Sign in with", which begins the flow at /auth/signin.
  await expect(page).toHaveURL(`${origin}/signin?next=%2Fexplorer`);
  await expect(page.getByRole("heading", { name: "Sign in to Switchboard" })).toBeVisible();
  await expect(page.getByText("A developer console for the platform's Web API")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API explorer" })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  const begin = page.getByRole("link", { name: "Sign in with Emulated Workspace" });
  await expect(begin).toHaveAttribute("href", "/auth/signin?next=%2Fexplorer");
  await begin.click();
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

  // A copy of this browser's cookies, taken before signing out (issue 37.5).
  const copy = await browser.newContext();
  await copy.addCookies(await page.context().cookies());
  const copyPage = await copy.newPage();
  await copyPage.goto(`${origin}/webhooks`);
  await expect(copyPage.getByTestId("signed-in-person")).toContainText(name);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "You are signed out" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto(`${origin}/`);
  await expect(page).toHaveURL(`${origin}/signin`);

  // The copy is signed out too: its pages go to sign in, and the API refuses it.
  await copyPage.reload();
  await expect(copyPage).toHaveURL(`${origin}/signin?next=%2Fwebhooks`);
  expect((await copy.request.get(`${origin}/api/me`, { headers: { "x-switchboard-request": "1" } })).status()).toBe(401);
  await copy.close();
});

test("the console's sign-in page, at 1366 and 390 px, light and dark", async ({ browser }) => {
  for (const width of [1366, 390]) {
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ viewport: { width, height: width > 500 ? 768 : 844 }, colorScheme });
      const page = await context.newPage();
      await page.goto(`${origin}/webhooks`);
      await expect(page.getByRole("link", { name: "Sign in with Emulated Workspace" })).toBeVisible();
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: `test-results/sign-in-page-${width}-${colorScheme}.png`, fullPage: true });
      await context.close();
    }
  }
});

test("a link another site sent with a huge return path does not lock this browser out of sign-in", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The link (2,500 characters of return path) starts a sign-in nobody completes. Three with 760 each did the same.
  await page.goto(`${origin}/auth/signin?next=${encodeURIComponent(`/explorer?p.text=${"a".repeat(2500)}`)}`);
  await expect(page).toHaveURL(/\/emulator\/openid\/connect\/authorize\?/);
  for (let i = 0; i < 3; i++) await page.goto(`${origin}/auth/signin?next=${encodeURIComponent(`/explorer?p.text=${String(i).repeat(760)}`)}`);
  expect((await context.cookies()).find((c) => c.name === "sb_signin_state")!.value.length).toBeLessThan(4000);

  // Later, the person signs in from the console's sign-in page.
  await page.goto(`${origin}/settings`);
  await expect(page).toHaveURL(`${origin}/signin?next=%2Fsettings`);
  await page.getByRole("link", { name: "Sign in with Emulated Workspace" }).click();
  await expect(page.getByLabel("Sign in as")).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${origin}/settings`);
  await expect(page.getByTestId("signed-in-person")).toBeVisible();
  await context.close();
});

test("a return path with a character outside Latin-1 lands there after signing in, not on a server error", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/signin?next=%2F%E2%80%A8x`);
  await page.getByRole("link", { name: "Sign in with Emulated Workspace" }).click();
  const callback = page.waitForResponse((r) => r.url().startsWith(`${origin}/auth/callback`));
  await page.getByRole("button", { name: "Continue" }).click();
  expect((await callback).status()).toBe(303);
  await expect(page).toHaveURL(`${origin}/%E2%80%A8x`);
  await context.close();
});

test("a sign-in link that did not start in this browser gets a page saying so, with Sign in again", async ({ page }) => {
  await page.goto(`${origin}/auth/callback?code=stolen&state=${"s".repeat(43)}`);
  await expect(page.getByRole("heading", { name: "The sign-in state is missing" })).toBeVisible();
  await page.screenshot({ path: "test-results/sign-in-error.png" });
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("link", { name: "Sign in again" }).click();
  await expect(page).toHaveURL(`${origin}/signin`);
  await expect(page.getByRole("heading", { name: "Sign in to Switchboard" })).toBeVisible();
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
