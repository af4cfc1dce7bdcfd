import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createEmulator } from "@/lib/emulator/emulator";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { Workspace } from "@/lib/emulator/types";
import { seriousViolations } from "./support/axe";
import { startSpecConsole, stopSpecConsole } from "./support/console-server";
import { freePort } from "./support/hosted";

/**
 * "Add to workspace" on a hosted console (issue 36, items 3 to 6): exposed (HOST=0.0.0.0, so the embedded
 * emulator's admin surface answers its token only), with sign-in (AUTH_MODE=oidc) and two workspaces. A
 * member of the second workspace installs into theirs, asked for the app's own scopes; someone outside the
 * team installs and ends on a page that names the app (never its id) with its icon and the way into the
 * workspace, or cancels and is offered what they can do. This spec starts its own console from the suite's
 * build (E2E_PORT's), on a free port.
 */
const SEED = "add-to-workspace-e2e";
const USERS = 40;
const APP = "Switchboard Rotation";
let server: ChildProcess | undefined;
let origin = "";

const [one, two] = [...createEmulator({ seed: SEED, workspaces: 2, users: USERS }).state.workspaces.values()] as [Workspace, Workspace];
const membersOf = (ws: Workspace) => Array.from({ length: 20 }, (_, i) => memberIdAt(ws, i)).filter((id) => canSignIn(ws, id));

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const port = await freePort();
  origin = `http://localhost:${port}`;
  server = await startSpecConsole(
    port,
    {
      HOST: "0.0.0.0",
      EMULATOR_ADMIN_TOKEN: randomBytes(32).toString("base64url"),
      AUTH_MODE: "oidc",
      EMULATOR_SEED: SEED,
      EMULATOR_USERS: String(USERS),
      EMULATOR_WORKSPACES: "2",
    },
    "the hosted console",
  );
});

test.afterAll(() => stopSpecConsole(server));

/** A new browser that signs in to the console as `userId` of `ws`, picking them on the platform's page as a person would. */
async function signedIn(browser: Browser, ws: Workspace, userId: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${origin}/`);
  // The console may first show a sign-in page of its own, with the platform's "Sign in with" on it.
  if (!/\/emulator\/openid\/connect\/authorize\?/.test(page.url())) await page.getByRole("link", { name: /^Sign in with/ }).click();
  await expect(page).toHaveURL(/\/emulator\/openid\/connect\/authorize\?/);
  if (!(await page.locator("p.lead").innerText()).startsWith(ws.team.name)) await page.getByRole("link", { name: ws.team.name }).click();
  await page.getByLabel("Sign in as").selectOption(userId);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${origin}/`);
  await expect(page.getByTestId("signed-in-person")).toContainText(ws.team.name);
  return page;
}

test("a member of the second workspace adds the app to their own workspace, as themselves, with the app's own scopes", async ({ browser }) => {
  const member = membersOf(two)[4]!;
  const page = await signedIn(browser, two, member);
  await page.getByRole("link", { name: "Add to workspace" }).click();

  // The consent page is the member's workspace's, with them as who allows: nothing to switch.
  await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${APP} is requesting permission to access the ${two.team.name} workspace`);
  await expect(page.getByLabel("Installing as")).toHaveValue(member);
  // The scopes asked for are the app's settings' (its manifest has channels:join), not a list of the console's.
  await expect(page.locator("ul.scopes").first()).toContainText("channels:join");

  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);
  const card = page.locator("article[data-installation]");
  await expect(card).toHaveCount(1);
  await expect(card.first()).toContainText(`${APP} in ${two.team.name}`);
  await expect(card.first().getByRole("list", { name: "Bot token scopes" })).toContainText("channels:join");
});

/** The page at each width and scheme, for a person to look at (test-results/). */
async function screenshots(page: Page, name: string) {
  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ] as const) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      // Nothing wider than the screen: no sideways scrolling on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `test-results/${name}-${width}-${scheme}.png`, fullPage: true });
    }
  }
}

test("someone outside the team installs and sees the app by its name and icon, with the way into the workspace", async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  // A plain link on the app's own site: nobody is signed in to the console or the platform in this browser.
  await page.goto(`${origin}/oauth/install`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(one.team.name);
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(`${origin}/oauth/installed`);

  await expect(page).toHaveTitle(new RegExp(`^${APP} is installed in ${one.team.name}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${APP} is installed in ${one.team.name}`);
  const icon = page.getByRole("img", { name: `${APP}'s icon` });
  await expect(icon).toBeVisible();
  expect(await icon.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await expect(page.locator("main")).not.toContainText("Its team manages");
  await expect(page.getByRole("link", { name: "Installations" })).toHaveCount(0);
  await screenshots(page, "outsider-installed");
  expect(await seriousViolations(page)).toEqual([]);

  // The next step: the workspace, at the app's App Home, by the platform's own link.
  const open = page.getByRole("link", { name: `Open ${one.team.name}` });
  expect(new URL((await open.getAttribute("href"))!, origin).pathname).toBe("/emulator/app_redirect");
  await page.setViewportSize({ width: 1366, height: 768 });
  await open.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(APP);
  await expect(page.locator(".card")).toContainText(`${APP} is installed in ${one.team.name}`);
});

test("someone outside the team who cancels is offered the install again and the app's page, not the console's sign-in", async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${origin}/oauth/install`);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { name: "The install was cancelled" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to the console" })).toHaveCount(0);
  const appPage = page.getByRole("link", { name: `${APP}'s page` });
  await expect(appPage).toBeVisible();
  await screenshots(page, "outsider-cancelled");
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1366, height: 768 });

  // The app's page (on the emulator, the app's row of its index page); Start again is the consent page again,
  // with no sign-in in the way.
  const appId = /#app-(A\w+)$/.exec((await appPage.getAttribute("href"))!)?.[1];
  expect(appId).toBeTruthy();
  await appPage.click();
  await expect(page.locator(`[id="app-${appId}"]`)).toContainText(APP);
  await page.goBack();
  await page.getByRole("link", { name: "Start again" }).click();
  await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
});
