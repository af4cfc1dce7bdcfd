import { expect, test, type Page } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * A fresh workspace has something to explore (issue 36, item 14): the embedded emulator seeds #general and
 * three more channels from EMULATOR_SEED, with the installed bot in #general; and an argument that takes a
 * channel, a member or a file has a picker listing them through the selected installation, beside the field
 * that still takes a typed id.
 */

test.beforeEach(async ({ request }) => {
  expect((await postEmulatorAdmin(request, "reset", {})).ok()).toBe(true);
});

async function install(page: Page) {
  await page.goto("/oauth/install");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(/\/\?installed=/);
}

const isCallTo = (method: string) => (response: { url(): string }) => new URL(response.url()).pathname === `/api/call/${method}`;

test("picks #general from the channel picker, and conversations.history answers its seeded messages", async ({ page }) => {
  await install(page);
  await page.goto("/explorer");
  const method = page.getByRole("combobox", { name: "Method" });
  await expect(method).toHaveAttribute("placeholder", /Search methods/);
  await method.click();
  await page.keyboard.type("conversations.history");
  await page.keyboard.press("Enter");
  await expect(method).toHaveValue("conversations.history");

  const picker = page.getByLabel("Pick a channel for channel");
  await expect(picker.getByRole("option", { name: "#general" })).toHaveCount(1);
  for (const name of ["#random", "#engineering", "#incidents"]) await expect(picker.getByRole("option", { name })).toHaveCount(1);
  await picker.selectOption({ label: "#general" });
  const channel = page.getByRole("textbox", { name: "channel", exact: true });
  await expect(channel).toHaveValue(/^C0[0-9A-Z]{7}$/);
  const generalId = await channel.inputValue();

  const answered = page.waitForResponse(isCallTo("conversations.history"));
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const history = (await (await answered).json()) as { ok: boolean; messages: { text: string }[]; response_metadata: { next_cursor: string } };
  expect(history.ok).toBe(true);
  expect(history.messages.length).toBeGreaterThan(0);
  expect(history.response_metadata.next_cursor).not.toBe("");
  await expect(page.getByRole("table", { name: "Results" })).toBeVisible();
  // Every page: #general's 55 seeded messages (thread replies stay in their threads).
  await page.getByRole("button", { name: "Fetch all" }).click();
  await expect(page.getByText("Every page fetched")).toBeVisible();
  await expect(page.getByTestId("row-count")).toHaveText("55 rows");

  // The field still takes a typed id: the picker follows it.
  await channel.fill("");
  await expect(picker).toHaveValue("");
  await channel.pressSequentially(generalId);
  await expect(picker).toHaveValue(generalId);
});

test("a member picker lists the workspace's people through users.list, and a file picker says why it lists none", async ({ page }) => {
  await install(page);
  await page.goto("/explorer?method=users.info");
  const picker = page.getByLabel("Pick a member for user");
  // A page of users.list, each member by name with their id.
  await expect(picker.locator("option").nth(20)).toBeAttached();
  expect(await picker.locator("option").nth(1).textContent()).toMatch(/^.+ \(U0[0-9A-Z]{7}\)$/);
  await picker.selectOption({ index: 1 });
  const user = page.getByRole("textbox", { name: "user", exact: true });
  await expect(user).toHaveValue(/^U0[0-9A-Z]{7}$/);
  const answered = page.waitForResponse(isCallTo("users.info"));
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const info = (await (await answered).json()) as { ok: boolean; user: { id: string } };
  expect(info).toMatchObject({ ok: true, user: { id: await user.inputValue() } });

  // The console's app does not ask for files:read: the picker says so, and the field takes an id as typed.
  await page.goto("/explorer?method=files.info");
  await expect(page.getByText("Not listed: files.list answered missing_scope (it needs files:read)")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "file", exact: true })).toBeEditable();
});
