import { expect, test, type Page } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The API keys page and what the audit says (issue 36, item 17): it fits a 390 px phone, links the token API's
 * doc to a page the console serves (no network needed), a key's Uses names the kind a refused request asked
 * for, and a revoke made with curl is recorded as the route it called, not as a click of the Revoke button.
 */

test.beforeEach(async ({ request }) => {
  expect((await postEmulatorAdmin(request, "reset", {})).ok()).toBe(true);
});

async function install(page: Page) {
  await page.goto("/oauth/install");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(/\/\?installed=/);
}

async function createKey(page: Page, name: string): Promise<string> {
  await page.goto("/api-keys");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  return (await page.getByTestId("new-api-key").textContent()) ?? "";
}

test("fits a 390 px screen without sideways scrolling, with a key, light and dark", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await createKey(page, `phone ${Date.now()}`);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: test.info().outputPath(`api-keys-390-${scheme}.png`), fullPage: true });
  }
});

test("docs/token-api.md is a link to the doc, served by the console", async ({ page }) => {
  await page.goto("/api-keys");
  await page.getByRole("link", { name: "docs/token-api.md" }).click();
  await expect(page).toHaveURL(/\/docs\/token-api$/);
  await expect(page.getByText("The token API: fresh tokens for your app's own backend")).toBeVisible();
  await expect(page.getByText("Bolt for JavaScript")).toBeVisible();
});

test("a key's Uses names the kind a refused request asked for: a 422 kind=user is listed as user", async ({ page, playwright }) => {
  await install(page);
  const name = `audit ${Date.now()}`;
  const key = await createKey(page, name);
  const team = (await page.request.get("/api/session", { headers: { "x-switchboard-request": "1" } }).then((r) => r.json())) as {
    installations: { team: { id: string } }[];
  };
  const teamId = team.installations[0]!.team.id;
  // A backend, not a browser: no cookies, no Origin.
  const backend = await playwright.request.newContext();
  const refused = await backend.get(`${test.info().project.use.baseURL}/api/v1/installations/${teamId}/token?kind=user`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(refused.status()).toBe(422);
  await backend.dispose();

  await page.reload();
  const row = page.locator("li[data-api-key]").filter({ hasText: name });
  await row.getByText("Uses").click();
  const use = row.locator("details li").filter({ hasText: "422" });
  await expect(use).toContainText(`${teamId} · user`);
  await expect(use).not.toContainText("· bot");
});

test("a revoke made with curl is recorded as the route it called; the Revoke button's as the button", async ({ page, playwright, baseURL }) => {
  await install(page);
  const card = page.locator("article[data-installation]");
  const id = (await card.getAttribute("data-installation")) ?? "";
  // As curl sends it: the console's Origin (state-changing routes require it), no page, no Sec-Fetch headers.
  const curl = await playwright.request.newContext();
  const revoked = await curl.post(`${baseURL}/api/tokens/revoke`, { headers: { origin: baseURL! }, data: { installation: id, token: "user" } });
  expect(revoked.ok()).toBe(true);
  await curl.dispose();
  await page.reload();
  const entries = card.getByRole("log", { name: /^Timeline of / }).getByRole("listitem");
  await expect(entries.filter({ hasText: "Revoked user token" })).toContainText("by POST /api/tokens/revoke");
  await expect(entries.filter({ hasText: "Revoked user token" })).not.toContainText("Revoke button");

  await card.getByRole("group", { name: "Bot token" }).getByRole("button", { name: "Revoke" }).click();
  await expect(entries.filter({ hasText: "Revoked bot token" })).toContainText("by Revoke button");
});
