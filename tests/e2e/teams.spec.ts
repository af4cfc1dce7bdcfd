import type { ChildProcess } from "node:child_process";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createEmulator } from "@/lib/emulator/emulator";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { Workspace } from "@/lib/emulator/types";
import { seriousViolations } from "./support/axe";
import { startSpecConsole, stopSpecConsole } from "./support/console-server";

/**
 * A hosted team dashboard, as its people use it (issue 26): a console with sign-in (AUTH_MODE=oidc) in front
 * of an emulator with two workspaces. Two members of two workspaces each install the app and see only their
 * own; a third member of the first workspace sees it but cannot revoke it; an admin (ADMIN_USERS) sees both
 * and may; someone not signed in installs through the button and ends on a page of its own. This spec starts
 * its console from the suite's build (E2E_PORT's), three ports on, the way sign-in.spec.ts does.
 */
const mainPort = Number(process.env.E2E_PORT ?? 3100);
const port = mainPort + 3;
const origin = `http://localhost:${port}`;
const SEED = "teams-e2e";
const USERS = 50;
let server: ChildProcess | undefined;

// The emulator's members follow from its seed: the same workspaces, computed here, name the admin up front.
const [one, two] = [...createEmulator({ seed: SEED, workspaces: 2, users: USERS }).state.workspaces.values()] as [Workspace, Workspace];
const membersOf = (ws: Workspace) => Array.from({ length: 20 }, (_, i) => memberIdAt(ws, i)).filter((id) => canSignIn(ws, id));
const admin = membersOf(two)[2]!;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startSpecConsole(
    port,
    { AUTH_MODE: "oidc", ADMIN_USERS: admin, EMULATOR_SEED: SEED, EMULATOR_USERS: String(USERS), EMULATOR_WORKSPACES: "2", BACKGROUND_REFRESH: "true" },
    "the team console",
  );
});

test.afterAll(() => stopSpecConsole(server));

/** A new browser that signs in as `userId` of `ws` on the platform's page, switching workspace there as a person would. */
async function signedIn(browser: Browser, ws: Workspace, userId: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.getByRole("link", { name: /^Sign in with / }).click();
  await expect(page).toHaveURL(/\/emulator\/openid\/connect\/authorize\?/);
  if (!(await page.locator("p.lead").innerText()).startsWith(ws.team.name)) await page.getByRole("link", { name: ws.team.name }).click();
  await page.getByLabel("Sign in as").selectOption(userId);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${origin}/`);
  await expect(page.getByTestId("signed-in-person")).toContainText(ws.team.name);
  return page;
}

/** Add to workspace from the dashboard, into `ws` (switching workspace on the consent page), as `userId`, then Allow. */
async function addToWorkspace(page: Page, ws: Workspace, userId: string): Promise<void> {
  await page.getByRole("link", { name: "Add to workspace" }).click();
  await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
  if (!(await page.locator("p.lead").innerText()).startsWith(ws.team.name)) await page.getByRole("link", { name: ws.team.name }).click();
  await page.getByLabel("Installing as").selectOption(userId);
  await page.getByRole("button", { name: "Allow" }).click();
}

const cards = (page: Page) => page.locator("article[data-installation]");

test("two members of two workspaces each see only their own; a member cannot revoke what another installed; an admin sees both and may", async ({
  browser,
}) => {
  const installerOne = await signedIn(browser, one, membersOf(one)[0]!);
  await addToWorkspace(installerOne, one, membersOf(one)[0]!);
  await expect(installerOne).toHaveURL(/\/\?installed=/);
  await expect(cards(installerOne)).toHaveCount(1);
  await expect(cards(installerOne).first()).toContainText(one.team.name);
  // A hosted console keeps tokens alive with nobody watching: the refresher's state, and each token's planned refresh.
  await expect(installerOne.getByTestId("refresher-status")).toContainText("Background refresh: healthy");
  await expect(cards(installerOne).first().getByTestId("bot-planned-refresh")).toContainText("planned at");

  const installerTwo = await signedIn(browser, two, membersOf(two)[0]!);
  await addToWorkspace(installerTwo, two, membersOf(two)[0]!);
  await expect(installerTwo).toHaveURL(/\/\?installed=/);
  await expect(cards(installerTwo)).toHaveCount(1);
  await expect(cards(installerTwo).first()).toContainText(two.team.name);

  // The first installer, opened by link again, still sees only their workspace's installation.
  await installerOne.goto(`${origin}/`);
  await expect(cards(installerOne)).toHaveCount(1);
  await expect(cards(installerOne).first()).not.toContainText(two.team.name);
  const idTwo = await cards(installerTwo).first().getAttribute("data-installation");
  // Another workspace's installation, named in a link, is not there for them: the API answers as for an unknown id.
  const foreign = await installerOne.request.get(`${origin}/api/installations/${encodeURIComponent(idTwo!)}/timeline`, {
    headers: { "x-switchboard-request": "1" },
  });
  expect(foreign.status()).toBe(404);

  // Another member of the first workspace: sees the installation, may test it, but the revoke, exchange,
  // uninstall and forget buttons are not theirs, and the server refuses them too.
  const memberOne = await signedIn(browser, one, membersOf(one)[1]!);
  const card = cards(memberOne).first();
  await expect(cards(memberOne)).toHaveCount(1);
  await expect(card.getByRole("button", { name: /^Test/ }).first()).toBeVisible();
  await expect(card.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
  await expect(card.getByRole("button", { name: /^Uninstall/ })).toHaveCount(0);
  await expect(card.getByRole("button", { name: /^Forget/ })).toHaveCount(0);
  await expect(card).toContainText("Revoking, exchanging, uninstalling and forgetting are for an admin");
  // The emulator's clock moves every workspace's tokens: an admin's control, not a member's.
  await expect(memberOne.getByRole("region", { name: "Platform clock" })).toHaveCount(0);
  await memberOne.screenshot({ path: "test-results/teams-member.png", fullPage: true });
  expect(await seriousViolations(memberOne)).toEqual([]);
  const idOne = await card.getAttribute("data-installation");
  const refused = await memberOne.request.post(`${origin}/api/tokens/revoke`, { headers: { origin }, data: { installation: idOne, token: "bot" } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ error: "not_allowed" });

  // A Test by the member is in the timeline with their name.
  await card.getByRole("button", { name: /^Test/ }).first().click();
  await expect(
    card
      .getByRole("log", { name: /^Timeline of / })
      .getByRole("listitem")
      .first(),
  ).toContainText(membersOf(one)[1]!);

  // User tokens belong to people: the member has none of their own until they install too. Then the one
  // installation holds a user token for each of them, and the member's acts as them.
  await expect(card.getByRole("region", { name: "People's user tokens" })).toContainText("You have no user token here");
  await addToWorkspace(memberOne, one, membersOf(one)[1]!);
  await expect(memberOne).toHaveURL(/\/\?installed=/);
  await expect(cards(memberOne)).toHaveCount(1);
  const people = cards(memberOne).first().getByRole("region", { name: "People's user tokens" });
  await expect(people).toContainText("User tokens of 2 people");
  await expect(people).toContainText(`${membersOf(one)[1]!} (you) · installed last`);
  await expect(people).toContainText(membersOf(one)[0]!);
  await expect(cards(memberOne).first().getByRole("group", { name: "User token" })).toContainText(membersOf(one)[1]!);
  await memberOne.screenshot({ path: "test-results/teams-two-user-tokens.png", fullPage: true });

  // The admin, a member of the second workspace, sees both and may revoke the first workspace's.
  const adminPage = await signedIn(browser, two, admin);
  await expect(cards(adminPage)).toHaveCount(2);
  const firstForAdmin = adminPage.locator(`article[data-installation="${idOne}"]`);
  await expect(firstForAdmin.getByRole("button", { name: /^Uninstall/ })).toBeVisible();
  await expect(adminPage.getByRole("region", { name: "Platform clock" })).toBeVisible();
  await adminPage.screenshot({ path: "test-results/teams-admin.png", fullPage: true });
});

test("someone outside the team installs through the button and ends on a page that says so, with nothing of the console", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // A plain link on another site: no console session needed to start.
  await page.goto(`${origin}/oauth/install`);
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(`${origin}/oauth/installed`);
  await expect(page.getByRole("heading", { name: new RegExp(`is installed in ${one.team.name}$`) })).toBeVisible();
  await expect(page.getByRole("link", { name: "Installations" })).toHaveCount(0);
  await expect(page.getByTestId("signed-in-person")).toHaveCount(0);
  await page.screenshot({ path: "test-results/teams-outsider-installed.png" });
  expect(await seriousViolations(page)).toEqual([]);
  // A reload shows it again; the dashboard is still behind the sign-in.
  await page.reload();
  await expect(page.getByRole("heading", { name: /is installed in/ })).toBeVisible();
  await page.goto(`${origin}/`);
  await expect(page).toHaveURL(`${origin}/signin`);
});
