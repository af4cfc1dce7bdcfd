import { expect, test, type Page } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * Time travel as a developer does it on the installations page: the platform clock's control moves the
 * embedded emulator's clock 12.5 h to a chosen time, every countdown turns to expired at once, without a
 * reload and without a call, and the next call refreshes the token once (the emulator's grants say so),
 * the timeline recording the expiry (noticed by the clock) and the refresh. Screenshots go to /tmp.
 */

test.beforeEach(async ({ request }) => {
  expect((await postEmulatorAdmin(request, "reset", {})).ok()).toBe(true);
});

async function refreshGrants(page: Page): Promise<number> {
  const state = (await (await page.request.get("/emulator/admin/state")).json()) as { installations: { refresh_grants: number }[] };
  return state.installations.reduce((sum, i) => sum + i.refresh_grants, 0);
}

test("moving the platform's clock 12.5 h turns every countdown to expired without a reload or a call; the next call refreshes once", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Add to workspace" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);
  const card = page.locator("article[data-installation]");
  await expect(card).toHaveCount(1);
  await expect(card.getByText(/expires in 1[12]h/)).toHaveCount(2);

  const control = page.getByRole("region", { name: "Platform clock" });
  await expect(control.getByRole("button", { name: "+1 h" })).toBeVisible();
  for (const label of ["+11 h 50 m", "+12 h", "+13 h"]) await expect(control.getByRole("button", { name: label })).toBeVisible();
  const platformTime = control.getByTestId("platform-time");
  await expect(platformTime).toHaveAttribute("datetime", /\d{4}-/);
  const platformNow = Date.parse((await platformTime.getAttribute("datetime")) ?? "");
  expect(Math.abs(platformNow - Date.now())).toBeLessThan(5_000);

  // From here on nothing may call the platform or act on a token, and the page is the same document.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const calls: string[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith("/api/call/") || path.startsWith("/api/tokens/")) calls.push(path);
  });

  // A chosen later time, 12.5 h (and a minute) ahead of the platform's, in the picker's terms: the browser's local time.
  const target = await page.evaluate((ms) => {
    const d = new Date(ms + 12.5 * 3600 * 1000 + 60_000);
    const pad = (n: number) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  }, platformNow);
  await control.getByLabel("A later time").fill(target);
  await control.getByRole("button", { name: "Move to this time" }).click();

  const status = control.getByRole("status");
  await expect(status).toContainText(/Moved the platform's clock \+12 h 3[01] min/);
  await expect(status).toContainText("Now expired, refreshed on the next call: the bot token");
  await expect(status).toContainText("the user token");
  await expect(status).toContainText("No longer valid: authorization codes");
  await expect(status).toContainText("pagination cursors");

  // Every countdown says expired, at once.
  await expect(card.getByText("expired: refreshed on next use")).toHaveCount(2);
  await expect(card.getByText(/expires in/)).toHaveCount(0);
  const moved = Date.parse((await platformTime.getAttribute("datetime")) ?? "");
  expect(moved - Date.now()).toBeGreaterThan(12.5 * 3600 * 1000 - 10_000);
  const timeline = card.getByRole("log", { name: /^Timeline of / });
  await expect(timeline.getByRole("listitem").filter({ hasText: "Bot token expired" })).toContainText("noticed by the console's clock");
  await expect(timeline.getByRole("listitem").filter({ hasText: "User token expired" })).toContainText("noticed by the console's clock");
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  expect(calls).toEqual([]);
  expect(await refreshGrants(page)).toBe(0);

  await control.screenshot({ path: "/tmp/time-travel-control-1366.png" });
  await page.screenshot({ path: "/tmp/time-travel-page-1366.png", fullPage: true });

  // The next call (Test on the bot token) refreshes it once, before using it.
  const bot = card.getByRole("group", { name: "Bot token" });
  await bot.getByRole("button", { name: "Test" }).click();
  await expect(timeline.getByRole("listitem").first()).toContainText("Tested bot token: ok");
  await expect(timeline.getByRole("listitem").nth(1)).toContainText("Refreshed bot token");
  await expect(timeline.getByRole("listitem").nth(1)).toContainText("on expiry · by Test button");
  expect(await refreshGrants(page)).toBe(1);
  await expect(bot.getByText(/expires in 1[12]h/)).toBeVisible();
  await expect(card.getByText("expired: refreshed on next use")).toHaveCount(1);

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await control.screenshot({ path: "/tmp/time-travel-control-390.png" });
});

test("the control refuses nothing it offers, and a time before the platform's says why", async ({ page }) => {
  await page.goto("/");
  const control = page.getByRole("region", { name: "Platform clock" });
  await control.getByRole("button", { name: "+1 h" }).click();
  await expect(control.getByRole("status")).toContainText("Moved the platform's clock +1 h");
  await expect(control.getByRole("status")).toContainText("No token of this browser expired.");
  const refused = await page.request.post("/api/platform-clock", {
    data: { to: Date.now() },
    headers: { origin: test.info().project.use.baseURL ?? "" },
  });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { error: string }).error).toBe("invalid_clock_move");
});
