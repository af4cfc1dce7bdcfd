import { expect, request as playwrightRequest, test } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The token API's keys as an admin uses them (issue 27): create one on the API keys page (shown once), a
 * backend (no browser: no Origin, no cookies) gets a token with it, its use shows under the key, and once
 * revoked the key is refused. A browser asking with the same key is refused from the start.
 */
test.beforeEach(async ({ request }) => {
  expect((await postEmulatorAdmin(request, "reset", {})).ok()).toBe(true);
});

test("an admin creates a key, a backend gets a token with it, the use is audited, and a revoked key is refused", async ({ page, baseURL }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Add to workspace" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);
  const installationId = new URL(page.url()).searchParams.get("installed")!;
  const teamId = installationId.split("-")[0]!;

  // Opened from the header's link, as a person would.
  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
  await page.getByLabel("Name").fill("billing worker");
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByTestId("new-api-key");
  await expect(shown).toHaveText(/^sbk_[A-Za-z0-9_-]{43}$/);
  const key = (await shown.textContent())!;
  const row = page.locator("li[data-api-key]").filter({ hasText: "billing worker" });
  await expect(row).toContainText("never used");
  await expect(row).not.toContainText(key);
  await page.screenshot({ path: "test-results/api-keys-created.png", fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // The app's backend: a plain HTTP client, no browser headers.
  const backend = await playwrightRequest.newContext();
  const answer = await backend.get(`${baseURL}/api/v1/installations/${teamId}/token?kind=bot`, { headers: { authorization: `Bearer ${key}` } });
  expect(answer.status()).toBe(200);
  expect(await answer.json()).toMatchObject({
    ok: true,
    team_id: teamId,
    installation_id: installationId,
    kind: "bot",
    access_token: expect.stringMatching(/^xoxe\.xoxb-/),
  });

  // The browser with the same key is refused: its requests say they are a browser's.
  const fromBrowser = await page.request.get(`/api/v1/installations/${teamId}/token`, { headers: { authorization: `Bearer ${key}`, origin: baseURL! } });
  expect(fromBrowser.status()).toBe(403);
  expect(await fromBrowser.json()).toMatchObject({ error: "browser_not_allowed" });

  // The use shows under the key, without the token.
  await page.reload();
  await expect(row).toContainText("last used");
  await row.getByText("Uses").click();
  await expect(row).toContainText(`${teamId} · bot · 200`);

  page.once("dialog", (dialog) => void dialog.accept());
  await row.getByRole("button", { name: "Revoke…" }).click();
  await expect(row).toContainText("revoked");
  const refused = await backend.get(`${baseURL}/api/v1/installations/${teamId}/token`, { headers: { authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ error: "api_key_revoked" });
  await backend.dispose();
});
