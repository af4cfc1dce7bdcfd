import { expect, test } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The store keeps an installation's whole timeline; the card shows the newest 20 entries and "Show older"
 * brings the rest, a page at a time, by mouse or keyboard. 23 tests of the bot token (through the same route
 * the card's Test button calls) plus the install make 24 entries. A screenshot goes to /tmp.
 */

test.beforeEach(async ({ request }) => {
  expect((await postEmulatorAdmin(request, "reset", {})).ok()).toBe(true);
});

test("Show older pages through a timeline longer than the 20 newest entries, from the keyboard", async ({ page, baseURL }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Add to workspace" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);
  const card = page.locator("article[data-installation]");
  await expect(card).toHaveCount(1);
  const id = await card.getAttribute("data-installation");
  expect(id).toBeTruthy();

  for (let i = 0; i < 23; i++) {
    const tested = await page.request.post("/api/tokens/test", { headers: { origin: baseURL! }, data: { installation: id, token: "bot" } });
    expect(tested.ok()).toBe(true);
  }

  // Opened by link again: the newest 20, and the button for the rest.
  await page.goto("/");
  const log = card.getByRole("log", { name: /^Timeline of / });
  await expect(log.getByRole("listitem")).toHaveCount(20);
  await expect(log.getByRole("listitem").first()).toContainText("Tested");
  const older = card.getByRole("button", { name: /^Show older entries of the timeline of / });
  await expect(older).toHaveText("Show older");

  // Every entry the store keeps: the install and the 23 tests at least.
  const kept = await page.request.get(`/api/installations/${encodeURIComponent(id!)}/timeline?limit=100`, { headers: { "x-switchboard-request": "1" } });
  const total = ((await kept.json()) as { entries: unknown[] }).entries.length;
  expect(total).toBeGreaterThanOrEqual(24);
  expect(total).toBeLessThanOrEqual(40);

  await older.focus();
  await page.keyboard.press("Enter");
  await expect(log.getByRole("listitem")).toHaveCount(total);
  await expect(log.getByRole("listitem").last()).toContainText("Installed");
  // Nothing older is kept: the button goes.
  await expect(older).toHaveCount(0);

  await card
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Timeline" }) })
    .screenshot({ path: "/tmp/timeline-show-older.png" });

  // A new entry on top keeps every older one shown.
  await card.getByRole("group", { name: "Bot token" }).getByRole("button", { name: "Test", exact: true }).click();
  await expect(log.getByRole("listitem")).toHaveCount(total + 1);
});
