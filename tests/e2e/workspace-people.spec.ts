import { expect, test, type Page } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * "You are" on the Workspace page reaches every member of the workspace, not only the first offered: a
 * person types the name of a member far down the list (the 2,500th of 3,000) key by key in "Find someone",
 * picks them, and acts as them; a member added from the page is found the same way.
 */

test.beforeEach(async ({ request }) => {
  expect((await postEmulatorAdmin(request, "reset", { users: 3000 })).ok()).toBe(true);
});

async function installApp(page: Page) {
  await page.goto("/oauth/install");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/emulator") && !url.pathname.startsWith("/oauth"));
}

/** The member at `position` of users.list, read through the explorer's own route as a developer could. */
async function memberAt(page: Page, position: number): Promise<{ id: string; real_name: string }> {
  const headers = { "x-switchboard-request": "1" };
  const session = (await (await page.request.get("/api/session", { headers })).json()) as { installations: Array<{ id: string }> };
  let cursor = "";
  for (let seen = 0; ;) {
    const query = new URLSearchParams({ installation: session.installations[0]!.id, limit: "1000", ...(cursor ? { cursor } : {}) });
    const page1 = (await (await page.request.get(`/api/call/users.list?${query}`, { headers })).json()) as {
      members: Array<{ id: string; real_name: string }>;
      response_metadata: { next_cursor: string };
    };
    if (position < seen + page1.members.length) return page1.members[position - seen]!;
    seen += page1.members.length;
    cursor = page1.response_metadata.next_cursor;
  }
}

test("a member far down the list is found by typing their name in Find someone, picked, and acted as; an added one too", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await installApp(page);
  const far = await memberAt(page, 2500);
  await page.goto("/workspace");
  await expect(page.getByRole("heading", { name: "#general" })).toBeVisible();
  const you = page.getByRole("combobox", { name: "You are" });
  await expect(you.locator("option", { hasText: far.real_name })).toHaveCount(0);

  const find = page.getByRole("searchbox", { name: "Find someone" });
  await find.pressSequentially(far.real_name, { delay: 40 });
  const found = page.getByRole("list", { name: "People found" });
  const them = found.getByRole("button", { name: `${far.real_name} (${far.id})` });
  await expect(them).toBeVisible();
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(them).toBeInViewport();
    await page.screenshot({ path: testInfo.outputPath(`workspace-find-${width}.png`) });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  await them.click();
  await expect(you.locator("option:checked")).toHaveText(`${far.real_name} (${far.id})`);
  await expect(found).toBeHidden();
  await expect(find).toHaveValue("");

  // Acting as them: a post in #general is theirs.
  const composer = page.getByRole("combobox", { name: "Message #general" });
  await composer.fill("posted by the 2,500th member");
  await composer.press("Enter");
  await expect(page.getByRole("listitem").filter({ hasText: "posted by the 2,500th member" })).toContainText(far.real_name);

  // A member added from the page is found by the same search, by their id too.
  await page.getByRole("button", { name: "Add a member" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a member" });
  await dialog.getByLabel("Name").pressSequentially("Grace Hopper");
  await dialog.getByRole("button", { name: "Add to the workspace" }).click();
  await expect(dialog).toBeHidden();
  await find.pressSequentially("grace hop", { delay: 40 });
  const grace = found.getByRole("button", { name: /^Grace Hopper \(U/ });
  await expect(grace).toBeVisible();
  const graceId = /\((U[A-Z0-9]+)\)/.exec((await grace.textContent()) ?? "")?.[1] ?? "";
  await find.fill("");
  await find.pressSequentially(graceId.toLowerCase(), { delay: 40 });
  await found.getByRole("button", { name: `Grace Hopper (${graceId})` }).click();
  await expect(you.locator("option:checked")).toHaveText(`Grace Hopper (${graceId})`);
});
