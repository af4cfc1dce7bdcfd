import { expect, test, type Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The dashboard lists any number of installations a page at a time, searched and filtered on the server
 * (issue 26): a search typed key by key, a filter by state, the list opened by link, and back to all.
 */
test.beforeEach(async ({ request }) => {
  expect((await postEmulatorAdmin(request, "reset", { users: 50, workspaces: 3 })).ok()).toBe(true);
});

test.afterAll(async ({ request }) => {
  expect((await postEmulatorAdmin(request, "reset", {})).ok()).toBe(true);
});

/** Add to workspace from the dashboard into the workspace named `name`, switching workspace on the consent page as a person would. */
async function addToWorkspace(page: Page, name: string): Promise<void> {
  await page.goto("/");
  await page.getByRole("link", { name: "Add to workspace" }).click();
  await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
  if ((await page.locator("p.lead").innerText()).replace(/ \(.*\)$/, "").trim() !== name) await page.getByRole("link", { name, exact: true }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);
}

test("searches installations on the server as a person types, filters them by state, and opens the same list by link", async ({ page }) => {
  for (const name of ["Emulated Workspace", "Emulated Workspace 2", "Emulated Workspace 3"]) await addToWorkspace(page, name);
  await page.goto("/");
  const cards = page.locator("article[data-installation]");
  const status = page.getByRole("region", { name: "Find installations" }).getByRole("status");
  await expect(cards).toHaveCount(3);
  await expect(status).toHaveText("Showing 3 of 3.");

  // Typed key by key: the spaces stay, and the list follows once typing rests.
  const search = page.getByLabel("Search installations");
  await search.pressSequentially("workspace 3", { delay: 40 });
  await expect(search).toHaveValue("workspace 3");
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText("Emulated Workspace 3");
  await expect(status).toHaveText("Showing 1 of 1 matching, of 3.");
  await expect(page).toHaveURL(/[?&]q=workspace(\+|%20)3/);
  await page.screenshot({ path: "test-results/installations-search.png", fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // Opened by link: the same search, in the box and in the list.
  await page.goto("/?q=Workspace%202");
  await expect(page.getByLabel("Search installations")).toHaveValue("Workspace 2");
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText("Emulated Workspace 2");

  // A filter with nothing in it says so; Show all brings every installation back.
  await page.goto("/");
  await expect(page.getByLabel("Show")).toContainText("Long-lived (legacy) (0)");
  await page.getByLabel("Show").selectOption("legacy");
  await expect(status).toHaveText("No installation matches in long-lived (legacy), of 3.");
  await expect(cards).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]state=legacy/);
  await page.getByRole("button", { name: "Show all" }).click();
  await expect(cards).toHaveCount(3);
  await expect(page).not.toHaveURL(/state=/);
});
