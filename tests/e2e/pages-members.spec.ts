import type { ChildProcess } from "node:child_process";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createEmulator } from "@/lib/emulator/emulator";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { Workspace } from "@/lib/emulator/types";
import { startSpecConsole, stopSpecConsole } from "./support/console-server";

/**
 * What a signed-in member (not an admin) is offered (issue 36, items 12 and 17): App settings shows them what
 * they may do, not buttons the server refuses; the nav has no API keys for them; a member of a workspace with
 * no installation reads that there is none in their workspace; an explorer link naming another workspace's
 * installation says it is not theirs and sends nothing; an admin's API key is shown created by their name.
 * A console with sign-in of this spec's own (two workspaces), from the suite's build, 52 ports on.
 */
const port = Number(process.env.E2E_PORT ?? 3100) + 52;
const origin = `http://localhost:${port}`;
const SEED = "pages-members";
const USERS = 50;
let server: ChildProcess | undefined;

const [one, two] = [...createEmulator({ seed: SEED, workspaces: 2, users: USERS }).state.workspaces.values()] as [Workspace, Workspace];
const membersOf = (ws: Workspace) => Array.from({ length: 20 }, (_, i) => memberIdAt(ws, i)).filter((id) => canSignIn(ws, id));
const admin = membersOf(one)[2]!;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startSpecConsole(
    port,
    { AUTH_MODE: "oidc", ADMIN_USERS: admin, EMULATOR_SEED: SEED, EMULATOR_USERS: String(USERS), EMULATOR_WORKSPACES: "2" },
    "the console with sign-in",
  );
});

test.afterAll(() => stopSpecConsole(server));

/** A new browser signed in as `userId` of `ws` on the platform's page (through the console's own sign-in page, if it shows one). */
async function signedIn(browser: Browser, ws: Workspace, userId: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  if (!/\/emulator\/openid\/connect\/authorize\?/.test(page.url()))
    await page
      .getByRole("link", { name: /^Sign in/ })
      .first()
      .click();
  await expect(page).toHaveURL(/\/emulator\/openid\/connect\/authorize\?/);
  if (!(await page.locator("p.lead").innerText()).startsWith(ws.team.name)) await page.getByRole("link", { name: ws.team.name, exact: true }).click();
  await page.getByLabel("Sign in as").selectOption(userId);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${origin}/`);
  await expect(page.getByTestId("signed-in-person")).toContainText(ws.team.name);
  return page;
}

async function addToWorkspace(page: Page, ws: Workspace, userId: string): Promise<void> {
  await page.getByRole("link", { name: "Add to workspace" }).click();
  await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
  if (!(await page.locator("p.lead").innerText()).startsWith(ws.team.name)) await page.getByRole("link", { name: ws.team.name, exact: true }).click();
  await page.getByLabel("Installing as").selectOption(userId);
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);
}

const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });

test("a member's App settings offers what they may do, and their nav has no API keys; an admin's has both", async ({ browser }) => {
  const member = await signedIn(browser, one, membersOf(one)[0]!);
  await addToWorkspace(member, one, membersOf(one)[0]!);
  await expect(nav(member).getByRole("link", { name: "App settings" })).toBeVisible();
  await expect(nav(member).getByRole("link", { name: "API keys" })).toHaveCount(0);

  await nav(member).getByRole("link", { name: "App settings" }).click();
  await expect(member.getByRole("heading", { name: "OAuth & permissions" })).toBeVisible();
  await expect(member.getByRole("list", { name: "Bot token scopes" })).toContainText("chat:write");
  await expect(member.getByTestId("member-rights")).toContainText("an admin changes them");
  await expect(member.getByText("Only an admin changes an app's scopes")).toBeVisible();
  for (const name of ["Save scopes", /^Remove /, /^Add/, "Generate a configuration token (emulator)", "Turn on token rotation…", "Verify again"]) {
    await expect(member.getByRole("button", { name })).toHaveCount(0);
  }
  // What a member may do is still there: keep a configuration token of their own.
  await expect(member.getByRole("button", { name: "Keep this token" })).toBeVisible();

  for (const width of [1366, 390]) {
    await member.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    for (const scheme of ["light", "dark"] as const) {
      await member.emulateMedia({ colorScheme: scheme });
      expect(await member.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await member.screenshot({ path: test.info().outputPath(`settings-member-${width}-${scheme}.png`), fullPage: true });
    }
  }

  const boss = await signedIn(browser, one, admin);
  await expect(nav(boss).getByRole("link", { name: "API keys" })).toBeVisible();
  await nav(boss).getByRole("link", { name: "App settings" }).click();
  await expect(boss.getByRole("button", { name: "Save scopes" })).toBeVisible();
  await expect(boss.getByRole("button", { name: "Generate a configuration token (emulator)" })).toBeVisible();
  await expect(boss.getByTestId("member-rights")).toHaveCount(0);

  // An admin's key says who created it by name, not by id alone.
  await nav(boss).getByRole("link", { name: "API keys" }).click();
  // The key list comes once the page is live: a click before that would submit the form as plain HTML.
  await expect(boss.getByText("No keys yet.").or(boss.locator("li[data-api-key]").first())).toBeVisible();
  const keyName = `worker ${Date.now()}`;
  await boss.getByLabel("Name").fill(keyName);
  await expect(boss.getByLabel("Name")).toHaveValue(keyName);
  await boss.getByRole("button", { name: "Create key" }).click();
  await expect(boss.getByTestId("new-api-key")).toBeVisible();
  const adminName = (await boss.getByTestId("signed-in-person").locator("span.font-medium").textContent()) ?? "";
  expect(adminName).not.toBe("");
  await expect(boss.locator("li[data-api-key]").filter({ hasText: keyName })).toContainText(`by ${adminName} (${admin})`);
});

test("a member of a workspace without installations reads none in their workspace; another workspace's installation in an explorer link is not theirs, and nothing is sent", async ({
  browser,
}) => {
  const installer = await signedIn(browser, one, membersOf(one)[1]!);
  await addToWorkspace(installer, one, membersOf(one)[1]!);
  const foreignId = (await installer.locator("article[data-installation]").first().getAttribute("data-installation")) ?? "";
  expect(foreignId).not.toBe("");

  const other = await signedIn(browser, two, membersOf(two)[0]!);
  await expect(other.getByRole("heading", { name: "None in your workspace yet" })).toBeVisible();
  await expect(other.getByRole("heading", { name: "No installations yet" })).toHaveCount(0);
  await addToWorkspace(other, two, membersOf(two)[0]!);

  const calls: string[] = [];
  other.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith("/api/call/")) calls.push(path);
  });
  await other.goto(`${origin}/explorer?method=auth.test&installation=${encodeURIComponent(foreignId)}`);
  const alert = other.getByRole("alert").filter({ hasText: foreignId });
  await expect(alert).toContainText("not one of yours");
  await expect(alert).toContainText("nothing was sent");
  await other.waitForTimeout(1500);
  expect(calls).toEqual([]);
});
