import { expect, test, type Page } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * Fields that open holding a value (issue 36, item 13), typed into as a person types, key by key: the
 * explorer's Method field opens on users.list and the events page's message on "can you help?". Typing
 * replaces what they hold, and Enter in the Method field picks from the list: it never sends a name the
 * catalog does not have.
 */

test.beforeEach(async ({ request }) => {
  expect((await postEmulatorAdmin(request, "reset", {})).ok()).toBe(true);
});

async function install(page: Page) {
  await page.goto("/oauth/install");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(/\/\?installed=/);
}

test("typing in the explorer's Method field replaces users.list, and Enter picks from the list without sending", async ({ page }) => {
  await install(page);
  const calls: string[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith("/api/call/")) calls.push(path);
  });
  await page.goto("/explorer");
  const method = page.getByRole("combobox", { name: "Method" });
  await expect(method).toHaveValue("users.list");
  await expect(method).toHaveAttribute("placeholder", /Search methods/);

  await method.click();
  await page.keyboard.type("conversations.li");
  await expect(method).toHaveValue("conversations.li");
  await page.keyboard.press("Enter");
  // Enter picked the best match; it sent nothing.
  await expect(method).toHaveValue("conversations.list");
  await expect(method).toHaveAttribute("aria-expanded", "false");

  // A name the catalog does not have (what appending to users.list made): Enter keeps it and says so, and
  // sends nothing either. The page opened again, as a person arrives at it.
  await page.goto("/explorer");
  await expect(method).toHaveAttribute("placeholder", /Search methods/);
  await method.click();
  await page.keyboard.type("users.list");
  await page.keyboard.type("conversations.li");
  await expect(method).toHaveValue("users.listconversations.li");
  await page.keyboard.press("Enter");
  await expect(page.getByText("No method in the catalog matches.")).toBeVisible();
  await expect(method).toHaveValue("users.listconversations.li");
  await page.keyboard.press("Escape");

  await page.waitForTimeout(500);
  expect(calls).toEqual([]);
  await expect(page.getByRole("list", { name: "Request history" }).getByRole("listitem")).toHaveCount(0);
});

test("typing in the events page's message replaces the suggested text, and the mention carries what was typed", async ({ page }) => {
  await install(page);
  await page.goto("/events");
  const message = page.getByLabel("Message after the mention");
  await expect(message).toHaveValue("can you help?");
  await message.click();
  await page.keyboard.type("the deploy is done");
  await expect(message).toHaveValue("the deploy is done");
  // Once typed in, the text is the person's: a click puts the caret where it lands, and typing goes there.
  await message.click();
  await page.keyboard.press("End");
  await page.keyboard.type("!");
  await expect(message).toHaveValue("the deploy is done!");

  await page.getByRole("button", { name: "Mention the app" }).click();
  const notice = page.getByRole("form", { name: "Mention the app" }).getByRole("status");
  await expect(notice).toContainText("the deploy is done!");
  await expect(notice).not.toContainText("can you help?");
});
