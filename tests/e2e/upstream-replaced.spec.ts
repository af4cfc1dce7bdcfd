import { expect, test } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * Issue 36, item 1, as a person meets it: the emulator is reset (as a restart of one that keeps no state
 * would), and the dashboard says so on the installation's card, with what to do, rather than showing a
 * token that lives; Reinstall makes it work again. Screenshots at 1366 and 390 px go to /tmp.
 */
test("an installation made on an emulator that was since reset says so on its card, and Reinstall brings it back", async ({ page }) => {
  expect((await postEmulatorAdmin(page.request, "reset", {})).ok()).toBe(true);
  await page.goto("/");
  await page.getByRole("link", { name: "Add to workspace" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);
  const card = page.locator("article[data-installation]");
  await expect(card).toHaveCount(1);
  await expect(card.getByRole("group", { name: "Bot token" }).getByText(/expires in/)).toBeVisible();

  // The platform forgets everything it issued; the console still holds the installation.
  expect((await postEmulatorAdmin(page.request, "reset", {}, { keepInstallations: true })).ok()).toBe(true);
  // The console asks the upstream what it is at most every 30 s: a person reloading sees it within that.
  await expect(async () => {
    await page.reload();
    await expect(card.getByRole("alert")).toContainText("reset or replaced", { timeout: 2_000 });
  }).toPass({ timeout: 60_000, intervals: [3_000] });
  const alert = card.getByRole("alert");
  await expect(alert).toContainText("Needs reinstalling: the emulator it was installed on was reset or replaced");
  await expect(card.getByText("needs reinstall", { exact: true })).toBeVisible();
  await expect(
    card
      .getByRole("log", { name: /^Timeline of / })
      .getByRole("listitem")
      .first(),
  ).toContainText("The emulator was reset or replaced");
  await expect(card.getByText(/expires in/)).toHaveCount(0);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await card.screenshot({ path: `/tmp/upstream-replaced-${width}.png` });
  }
  await page.setViewportSize({ width: 1366, height: 900 });

  await alert.getByRole("link", { name: "Reinstall" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);
  await expect(card.getByRole("alert")).toHaveCount(0);
  await card.getByRole("group", { name: "Bot token" }).getByRole("button", { name: "Test" }).click();
  await expect(
    card
      .getByRole("log", { name: /^Timeline of / })
      .getByRole("listitem")
      .first(),
  ).toContainText("Tested bot token: ok");
});
