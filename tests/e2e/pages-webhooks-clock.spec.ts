import type { ChildProcess } from "node:child_process";
import { expect, test, type Page } from "@playwright/test";
import { startSpecConsole, stopSpecConsole } from "./support/console-server";

/**
 * The webhooks page with several workspaces, and the clocks it shows (issue 36, items 15 and 16): the
 * "#general in the emulator" panel reads the workspace of the webhook's installation, and its times (the
 * platform's) and the send history's (the console's) say which clock they are after the platform's clock
 * moved; a token revoked before the move is not reported as expired by it. A console of this spec's own
 * (two workspaces), from the suite's build, 51 ports on.
 */
const port = Number(process.env.E2E_PORT ?? 3100) + 51;
const origin = `http://localhost:${port}`;
let server: ChildProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startSpecConsole(port, { EMULATOR_WORKSPACES: "2", EMULATOR_SEED: "pages-webhooks", EMULATOR_USERS: "50" }, "the two-workspace console");
});

test.afterAll(() => stopSpecConsole(server));

test.beforeEach(async ({ request }) => {
  // A fresh emulator (clock back to +0) and no installation left in the console.
  const session = await request.get(`${origin}/api/session?limit=200`, { headers: { "x-switchboard-request": "1" } });
  for (const { id } of ((await session.json()) as { installations: { id: string }[] }).installations) {
    await request.delete(`${origin}/api/installations/${encodeURIComponent(id)}`, { headers: { origin } });
  }
  expect((await request.post(`${origin}/emulator/admin/reset`, { data: {}, headers: { origin } })).ok()).toBe(true);
});

/** Add to workspace into `workspace` (switching on the consent page, as a person does), its webhook to #general. */
async function installInto(page: Page, workspace: string) {
  await page.goto(`${origin}/oauth/install`);
  await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
  if (!(await page.locator("p.lead").innerText()).startsWith(workspace)) await page.getByRole("link", { name: workspace, exact: true }).click();
  await expect(page.locator("p.lead")).toContainText(workspace);
  await page.getByLabel(/Where should .* post\?/).selectOption({ label: "#general" });
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(/\/\?installed=/);
}

async function send(page: Page, text: string) {
  await page.getByLabel("Message text").fill(text);
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByRole("status", { name: "Send result" })).toContainText("HTTP 200");
}

test("a send to Workspace 2's #general shows in the panel, read from Workspace 2", async ({ page }) => {
  await installInto(page, "Emulated Workspace 2");
  await page.goto(`${origin}/webhooks`);
  await expect(page.getByRole("radio", { name: /#general · .*Emulated Workspace 2/ })).toBeChecked();
  const text = `to workspace two ${Date.now()}`;
  await send(page, text);
  const channel = page.getByRole("list", { name: "Messages in #general, newest first" });
  await expect(channel.getByText(text)).toBeVisible();
  await expect(page.getByText("No messages in #general yet")).toHaveCount(0);
  // Workspace 1's #general does not have it.
  const first = (await (await page.request.get(`${origin}/emulator/admin/state`)).json()) as { channels: { name: string; messages: { text: string }[] }[] };
  expect(first.channels.find((c) => c.name === "general")?.messages.map((m) => m.text) ?? []).not.toContain(text);
});

test("after a +13 h move the panel's times say they are the platform's, 13 h ahead, and the send history's say they are yours", async ({ page }) => {
  await installInto(page, "Emulated Workspace");
  await page.getByRole("region", { name: "Platform clock" }).getByRole("button", { name: "+13 h" }).click();
  await expect(page.getByRole("region", { name: "Platform clock" }).getByRole("status")).toContainText("Moved the platform's clock +13 h");

  await page.goto(`${origin}/webhooks`);
  const text = `after the move ${Date.now()}`;
  await send(page, text);
  const channel = page.getByRole("list", { name: "Messages in #general, newest first" });
  await expect(channel.getByText(text)).toBeVisible();
  await expect(page.getByTestId("channel-clock")).toContainText("Times by the platform's clock, 13 h ahead of yours");
  await expect(page.getByRole("heading", { name: /Send history/ })).toContainText("times by your clock");
  // The same message, at two instants 13 h apart: each panel has said which clock it is.
  const onPlatform = Date.parse((await channel.getByRole("listitem").filter({ hasText: text }).locator("time").getAttribute("datetime")) ?? "");
  const history = page.getByRole("list", { name: "Sends, newest first" }).getByRole("listitem").filter({ hasText: text });
  const onConsole = Date.parse((await history.locator("time").getAttribute("datetime")) ?? "");
  expect(Math.round((onPlatform - onConsole) / 3600_000)).toBe(13);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`webhooks-after-move-${scheme}.png`), fullPage: true });
  }
});

test("a user token revoked before a +13 h move is not reported expired by the console's clock; the bot token is", async ({ page }) => {
  await installInto(page, "Emulated Workspace");
  const card = page.locator("article[data-installation]");
  const user = card.getByRole("group", { name: "User token" });
  await user.getByRole("button", { name: "Revoke" }).click();
  const entries = card.getByRole("log", { name: /^Timeline of / }).getByRole("listitem");
  await expect(entries.first()).toContainText("Revoked user token");

  await page.getByRole("region", { name: "Platform clock" }).getByRole("button", { name: "+13 h" }).click();
  await expect(entries.filter({ hasText: "Bot token expired" })).toContainText("noticed by the console's clock");
  await page.reload();
  await expect(entries.filter({ hasText: "Bot token expired" })).toHaveCount(1);
  await expect(entries.filter({ hasText: "User token expired" })).toHaveCount(0);
});
