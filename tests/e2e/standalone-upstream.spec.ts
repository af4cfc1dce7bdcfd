import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { defaultAppCredentials } from "@/lib/emulator";
import { createEmulator } from "@/lib/emulator/emulator";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { Workspace } from "@/lib/emulator/types";
import { seriousViolations } from "./support/axe";
import { startSpecConsole, stopSpecConsole } from "./support/console-server";
import { startStandaloneEmulator, type StandaloneEmulator } from "./support/hosted";

/**
 * A team's setup: a standalone emulator (`npm run emulator`), and a console with sign-in on (AUTH_MODE=oidc,
 * people sign in with the emulator as with the platform) pointed at it with PLATFORM_BASE_URL. What was the
 * embedded emulator's alone works the same: a message sent through an install's webhook arrives in the
 * emulator's channel on the webhooks page, and an admin generates an app configuration token on the settings
 * page, which then opens the installed app through the emulator's App Manifest API. And the emulator's index page tells a script how to issue a token in a way that works: the Origin on
 * the standalone, the admin token's header on an embedded emulator behind a sign-in (a console of its own).
 * The servers are this spec's own, from the suite's build, on the three ports after E2E_PORT.
 */
const mainPort = Number(process.env.E2E_PORT ?? 3100);
const origin = `http://localhost:${mainPort + 1}`;
const emulatorPort = mainPort + 2;
const signInOrigin = `http://localhost:${mainPort + 3}`;
const SEED = "standalone-upstream-e2e";
const USERS = 40;
const ADMIN_TOKEN = randomBytes(32).toString("base64url");
const consoleApp = defaultAppCredentials(SEED, "rotation");
const ws = createEmulator({ seed: SEED, users: USERS }).state.workspace as Workspace;
const admin = Array.from({ length: 20 }, (_, i) => memberIdAt(ws, i)).find((id) => canSignIn(ws, id))!;

let emulator: StandaloneEmulator;
let server: ChildProcess | undefined;
let signInServer: ChildProcess | undefined;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  emulator = await startStandaloneEmulator({
    port: emulatorPort,
    seed: SEED,
    users: USERS,
    adminToken: ADMIN_TOKEN,
    consoleOrigins: [origin],
    redirectUrls: [`${origin}/auth/callback`],
  });
  server = await startSpecConsole(
    mainPort + 1,
    {
      PLATFORM_BASE_URL: emulator.url,
      CLIENT_ID: consoleApp.clientId,
      CLIENT_SECRET: consoleApp.clientSecret,
      SIGNING_SECRET: consoleApp.signingSecret,
      EMULATOR_ADMIN_TOKEN: ADMIN_TOKEN,
      AUTH_MODE: "oidc",
      ADMIN_USERS: admin,
    },
    "the console with sign-in over the standalone emulator",
  );
});

test.afterAll(() => {
  stopSpecConsole(server);
  stopSpecConsole(signInServer);
  emulator?.stop();
});

/** A new browser signed in as `userId` on the standalone emulator's sign-in page, through the console's own link. */
async function signedIn(browser: Browser, userId: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${origin}/`);
  await page.getByRole("link", { name: /^Sign in with/ }).click();
  await expect(page).toHaveURL(new RegExp(`^${emulator.url}/openid/connect/authorize\\?`));
  await page.getByLabel("Sign in as").selectOption(userId);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${origin}/`);
  await expect(page.getByTestId("signed-in-person")).toBeVisible();
  return page;
}

/** Screenshots at 1366 and 390 px, light and dark, and axe clean in each scheme. */
async function lookAt(page: Page, name: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: test.info().outputPath(`${name}-${scheme}-${width}.png`), fullPage: true });
    }
    expect(await seriousViolations(page)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1366, height: 900 });
}

test("a message sent through an install's webhook arrives in the standalone emulator's channel", async ({ browser }) => {
  const page = await signedIn(browser, admin);
  await page.goto(`${origin}/oauth/install`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("requesting permission");
  await page.getByLabel(/Where should .* post\?/).selectOption({ label: "#random" });
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(/\/\?installed=/);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Incoming webhooks", level: 1 })).toBeVisible();
  await expect(page.getByText(`${emulator.url}/services/`)).toBeVisible();
  await expect(page.getByRole("radio", { name: /#random/ })).toBeChecked();

  const text = `Deploy finished ${Date.now()}`;
  // The field holds a greeting to start with: replaced, as a person selects it and types over it.
  const field = page.getByLabel("Message text");
  await field.press("ControlOrMeta+a");
  await field.pressSequentially(text);
  await expect(field).toHaveValue(text);
  await page.getByRole("button", { name: "Send message" }).click();
  const result = page.getByRole("status", { name: "Send result" });
  await expect(result).toContainText("HTTP 200");
  await expect(result.getByLabel("Response body")).toHaveText("ok");

  const channel = page.getByRole("list", { name: "Messages in #random, newest first" });
  await expect(channel.getByText(text)).toBeVisible();
  await expect(channel.getByText("incoming-webhook").first()).toBeVisible();
  // And in the standalone emulator's own state.
  const state = (await emulator.admin("state")) as { channels: Array<{ name: string; messages: Array<{ text: string }> }> };
  expect(state.channels.find((c) => c.name === "random")?.messages.map((m) => m.text)).toContain(text);
  await lookAt(page, "webhooks");
});

test("an admin generates an app configuration token on the settings page from the standalone emulator, which opens the installed app", async ({ browser }) => {
  const page = await signedIn(browser, admin);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "App settings", level: 1 })).toBeVisible();
  await expect(page.getByText("Against a standalone emulator, as against the platform")).toBeVisible();
  const generate = page.getByRole("button", { name: "Generate a configuration token (emulator)" });
  await expect(generate).toBeVisible();
  await lookAt(page, "settings-before");

  await generate.click();
  await expect(page.getByRole("status")).toContainText(/Configuration token kept: xoxe\./);
  await expect(page.getByText("kept, sealed")).toBeVisible();
  await expect(page.getByTestId("config-token")).toHaveText(/^xoxe\./);
  // The pair works at the standalone emulator's App Manifest API: the console's app opens.
  await expect(page.getByText("App Manifest API", { exact: true })).toBeVisible();
  const apps = (await emulator.admin("apps")).apps as Array<{ app_id: string; client_id: string }>;
  const appId = apps.find((a) => a.client_id === consoleApp.clientId)!.app_id;
  await expect(page.getByRole("heading", { level: 2 }).filter({ hasText: appId })).toBeVisible();
  // Nothing the browser holds is the token itself.
  const overview = await page.evaluate(async () => (await fetch("/api/app-config", { headers: { "x-switchboard-request": "1" } })).text());
  expect(overview).not.toMatch(/xoxe\.xoxp-1-[A-Za-z0-9-]{20,}/);
  expect(overview).not.toMatch(/xoxe-1-[A-Za-z0-9]{20,}/);
  await lookAt(page, "settings-generated");
});

test("the emulator's index page gives a token command that works: the Origin on the standalone, the admin token's header behind a sign-in", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto(`${emulator.url}/`);
  const standaloneCommand = page.locator("pre code");
  await expect(standaloneCommand).toContainText(`-H 'Origin: ${emulator.url}'`);
  await page.screenshot({ path: test.info().outputPath("index-standalone.png"), fullPage: true });

  signInServer = await startSpecConsole(
    mainPort + 3,
    { AUTH_MODE: "oidc", ADMIN_USERS: admin, EMULATOR_ADMIN_TOKEN: ADMIN_TOKEN },
    "a console with sign-in and its embedded emulator",
  );
  await page.goto(`${signInOrigin}/emulator/`);
  const command = page.locator("pre code");
  await expect(command).toContainText(`-H 'Authorization: Bearer '"$EMULATOR_ADMIN_TOKEN"`);
  await expect(command).not.toContainText("Origin:");
  await expect(page.getByText("People sign in to this server")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("index-sign-in.png"), fullPage: true });
  // What the command sends is answered: a script with the admin token issues a token without signing in.
  const issued = await page.request.post(`${signInOrigin}/emulator/admin/config-tokens`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    data: {},
  });
  expect(issued.status()).toBe(200);
  expect(await issued.json()).toMatchObject({ ok: true, token: expect.stringMatching(/^xoxe\./) });
});
