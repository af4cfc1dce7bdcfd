import { expect, test, type Page } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The explorer's history that lasts (issue 42): kept on the server for the person, so a reload and a new
 * tab still show it; searched on the History page as a method is typed; two answers compared (a structural
 * diff, in a Web Worker) with the changed paths shown; cleared after a confirmation.
 */

test.beforeEach(async ({ request }) => {
  // A reset forgets the console's installations and clears the operator's history (support/emulator-admin.ts).
  expect((await postEmulatorAdmin(request, "reset", { users: 3000 })).ok()).toBe(true);
});

async function installApp(page: Page) {
  await page.goto("/oauth/install");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/emulator") && !url.pathname.startsWith("/oauth"));
}

/** Sends users.list with a page size, as typed in the form, and waits for its answer. */
async function sendUsersList(page: Page, limit: string) {
  await page.getByLabel("limit", { exact: true }).fill(limit);
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/users.list");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  expect((await answered).status()).toBe(200);
}

test("calls are kept across a reload and a new tab, searched by typing, compared and cleared", async ({ page, context }) => {
  await installApp(page);
  // auth.test, sent by its link; then users.list twice, 2 and then 3 members a page.
  await page.goto("/explorer?method=auth.test");
  await expect(page.getByText("the whole answer is in the JSON view below")).toBeVisible();
  const method = page.getByRole("combobox", { name: "Method" });
  await method.fill("users.list");
  await method.press("Enter");
  await expect(page.getByLabel("limit", { exact: true })).toHaveValue("50");
  await sendUsersList(page, "2");
  await sendUsersList(page, "3");

  const panel = page.getByRole("list", { name: "Request history" });
  await expect(panel.getByRole("listitem")).toHaveCount(3);
  await expect(panel.getByRole("listitem").first()).toContainText("users.list");
  await expect(panel.getByRole("listitem").first()).toContainText("limit=3");

  // A reload, and another tab: the history is the server's, not the tab's. The reloaded link of a read
  // (users.list) sends it again, as it always has: that call is kept too.
  await page.reload();
  await expect(page.getByRole("list", { name: "Request history" }).getByRole("listitem")).toHaveCount(4);
  await expect(page.getByRole("list", { name: "Request history" }).getByRole("listitem").last()).toContainText("auth.test");
  const other = await context.newPage();
  await other.goto("/explorer");
  const otherPanel = other.getByRole("list", { name: "Request history" });
  await expect(otherPanel.getByRole("listitem")).toHaveCount(4);
  await expect(otherPanel.getByRole("listitem").last()).toContainText("auth.test");
  // Putting an entry back in the form from the new tab's panel.
  await otherPanel.getByRole("listitem").filter({ hasText: "limit=2" }).getByRole("button").click();
  await expect(other.getByRole("combobox", { name: "Method" })).toHaveValue("users.list");
  await expect(other.getByLabel("limit", { exact: true })).toHaveValue("2");
  await other.close();

  // The History page, from the explorer's panel.
  await page.getByRole("link", { name: "All history" }).click();
  await expect(page).toHaveURL(/\/explorer\/history$/);
  const rows = page.getByRole("rowgroup", { name: "History entries" }).getByRole("row");
  await expect(rows).toHaveCount(4);
  // Typed key by key: each keystroke narrows the list.
  const search = page.getByRole("searchbox", { name: "Method" });
  await search.pressSequentially("users", { delay: 60 });
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: "auth.test" })).toHaveCount(0);
  await search.fill("");
  await search.pressSequentially("auth.t", { delay: 60 });
  await expect(rows).toHaveCount(1);
  await search.fill("");
  await expect(rows).toHaveCount(4);

  // A pick stays picked when the list changes (another page, another search): compared with an entry found by a search.
  await page.getByRole("checkbox", { name: /Pick users\.list ok · 2 members/ }).check();
  await search.pressSequentially("auth.t", { delay: 60 });
  await expect(rows).toHaveCount(1);
  await page.getByRole("checkbox", { name: /Pick auth\.test/ }).check();
  await page.getByRole("button", { name: "Compare 2/2 picked" }).click();
  await expect(page.getByRole("list", { name: "Differences" })).toBeVisible();
  await page.getByRole("checkbox", { name: /Pick auth\.test/ }).uncheck();
  await search.fill("");
  await expect(rows).toHaveCount(4);

  // Compare the two users.list answers: a third member added, the cursor changed.
  await page.getByRole("checkbox", { name: /Pick users\.list ok · 2 members/ }).check();
  await page
    .getByRole("checkbox", { name: /Pick users\.list ok · 3 members/ })
    .first()
    .check();
  await page.getByRole("button", { name: "Compare 2/2 picked" }).click();
  const differences = page.getByRole("list", { name: "Differences" });
  await expect(differences).toBeVisible();
  await expect(differences.getByRole("listitem").filter({ hasText: "$.members[2]" })).toContainText("added");
  await expect(differences.getByRole("listitem").filter({ hasText: "$.response_metadata.next_cursor" })).toContainText("changed");
  await expect(page.getByText(/\d+ changed · 1 added · 0 removed/)).toBeVisible();

  // Clear, after the confirmation.
  await page.getByRole("button", { name: "Clear history…" }).click();
  const dialog = page.getByRole("dialog", { name: "Clear your request history?" });
  await dialog.getByRole("button", { name: "Clear history" }).click();
  await expect(page.getByText("No entry matches.")).toBeVisible();
  await page.goto("/explorer");
  await expect(page.getByText("Calls you make appear here")).toBeVisible();
});

test("a saved request's last two runs are compared from the History page", async ({ page }) => {
  await installApp(page);
  const headers = { "x-switchboard-request": "1" };
  const session = (await (await page.request.get("/api/session", { headers })).json()) as { installations: Array<{ id: string }> };
  const installation = session.installations[0]!.id;
  // Two runs of one saved request (as the collections' runs send them), a page of 2 members and then of 4.
  for (const limit of ["2", "4"]) {
    const run = await page.request.get(`/api/call/users.list?${new URLSearchParams({ installation, limit, savedRequestId: "sr_e2e" })}`, { headers });
    expect(run.status()).toBe(200);
  }
  await page.goto("/explorer/history?savedRequestId=sr_e2e");
  const rows = page.getByRole("rowgroup", { name: "History entries" }).getByRole("row");
  await expect(rows).toHaveCount(2);
  await rows.first().getByRole("button", { name: "Compare this saved request's last two runs" }).click();
  const differences = page.getByRole("list", { name: "Differences" });
  await expect(differences.getByRole("listitem").filter({ hasText: "$.members[3]" })).toContainText("added");
  await expect(page.getByText(/\d+ changed · 2 added · 0 removed/)).toBeVisible();
});

test("a call that carried no token is not said to leave one out, and the History page reads at 1366 and 390 px", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await installApp(page);
  await page.goto("/explorer");
  // auth.test typed key by key and sent: the explorer names the installation's bot token (token=bot), no token argument.
  const method = page.getByRole("combobox", { name: "Method" });
  await method.click();
  await page.keyboard.press("Control+a");
  await method.pressSequentially("auth.test", { delay: 30 });
  await page.keyboard.press("Tab");
  await expect(method).toHaveValue("auth.test");
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/auth.test");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  expect((await answered).status()).toBe(200);
  await expect(page.getByRole("list", { name: "Request history" }).getByRole("listitem")).toHaveCount(1);

  await page.getByRole("link", { name: "All history" }).click();
  const row = page.getByRole("rowgroup", { name: "History entries" }).getByRole("row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("auth.test");
  await expect(row).not.toContainText("Left out");

  // The installation's name reads whole beside the request, at a laptop's width and a phone's.
  const session = (await (await page.request.get("/api/session", { headers: { "x-switchboard-request": "1" } })).json()) as {
    installations: Array<{ name: string }>;
  };
  const name = session.installations[0]!.name;
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // One place shows it at each width (its column, or under the request on a phone).
    const installation = row.getByText(name, { exact: true }).filter({ visible: true });
    await expect(installation).toHaveCount(1);
    expect(await installation.evaluate((el) => el.scrollWidth <= el.clientWidth), `the installation's name is cut at ${width} px`).toBe(true);
    expect(await row.getByRole("link", { name: "auth.test" }).evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
    // Nothing of the page is off its side.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: testInfo.outputPath(`history-${width}.png`), fullPage: true });
  }
});
