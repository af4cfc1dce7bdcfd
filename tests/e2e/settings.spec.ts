import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The app settings page as a person uses it, with the embedded emulator as the platform: the app's
 * settings with its secrets masked, rotation turned on for the legacy app and its tokens migrated with the
 * guide, scopes changed and the app reinstalled with them, the manifest downloaded as JSON and YAML, and
 * the same page through the App Manifest API once a configuration token is kept.
 */

const RAW_TOKEN = /xox[abpe][.-][A-Za-z0-9-]{10,}/;
const SCREENSHOTS = "test-results/settings";

interface AdminApp {
  app_id: string;
  name: string;
  client_id: string;
  client_secret: string;
  signing_secret: string;
}

async function emulatorApps(page: Page): Promise<AdminApp[]> {
  const response = await page.request.get("/emulator/admin/apps");
  return ((await response.json()) as { apps: AdminApp[] }).apps;
}

async function install(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);
}

async function shoot(page: Page, name: string) {
  // The action's notice floats over the page: out of the way of what the screenshot is for.
  const dismiss = page.getByRole("button", { name: "Dismiss" });
  if (await dismiss.isVisible()) await dismiss.click();
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test.beforeEach(async ({ request, baseURL }) => {
  expect((await postEmulatorAdmin(request, "reset", {})).ok()).toBe(true);
  // The configuration token lives in the server's store, which outlasts a test's browser context: none to start with.
  expect((await request.delete("/api/app-config/token", { headers: { origin: baseURL! } })).ok()).toBe(true);
});

test("shows the app's credentials masked, its redirect URLs, scopes, request URL verification and rotation", async ({ page }) => {
  const rotation = (await emulatorApps(page)).find((a) => a.name === "Switchboard Rotation")!;
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "App settings" }).click();
  await expect(page.getByRole("heading", { name: "App settings" })).toBeVisible();
  await expect(page.getByText("emulator admin surface")).toBeVisible();
  await expect(page.getByRole("heading", { name: /Switchboard Rotation/ })).toBeVisible();

  await expect(page.getByTestId("client-id")).toHaveText(rotation.client_id);
  await expect(page.getByTestId("client-secret")).toContainText(`…${rotation.client_secret.slice(-4)}`);
  await expect(page.getByTestId("signing-secret")).toContainText(`…${rotation.signing_secret.slice(-4)}`);
  const html = await page.content();
  expect(html).not.toContain(rotation.client_secret);
  expect(html).not.toContain(rotation.signing_secret);

  await expect(page.getByText(/\/oauth\/callback/).first()).toBeVisible();
  await expect(page.getByRole("list", { name: "Bot token scopes" })).toContainText("chat:write");
  await expect(page.getByRole("list", { name: "User token scopes" })).toContainText("users:read");
  await expect(page.getByText(/\/api\/events/).first()).toBeVisible();
  await page.getByRole("button", { name: "Verify again" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The request URL's verification: verified." })).toBeVisible();
  await expect(page.getByTestId("verification")).toContainText("verified");
  await expect(page.getByText("On, for good")).toBeVisible();
  await shoot(page, "settings");
});

test("turns rotation on for the legacy app and migrates its long-lived tokens with the guide", async ({ page }) => {
  await install(page, "/oauth/install?app=legacy");
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: /Switchboard Legacy/ })).toBeVisible();
  const guide = page.locator("section").filter({ has: page.getByRole("heading", { name: "Rotation migration guide" }) });
  const step = (n: number) => guide.getByRole("listitem", { name: new RegExp(`^Step ${n}:`) });
  await expect(step(1)).toContainText("to do");
  await expect(step(2).getByTestId("migrate-bot")).toContainText("long-lived");

  // Step 1: irreversible, so the dialog asks first.
  await step(1).getByRole("button", { name: "Turn on token rotation…" }).click();
  const dialog = page.getByRole("dialog", { name: /Turn on token rotation/ });
  await expect(dialog).toContainText("cannot be turned off again");
  await expect(dialog.getByRole("button", { name: "Turn rotation on for good" })).toBeDisabled();
  await dialog.getByRole("checkbox").check();
  await dialog.getByRole("button", { name: "Turn rotation on for good" }).click();
  await expect(step(1)).toContainText("Token rotation is on");

  // Step 2 and 4: each token exchanged once, and its original tried with auth.test.
  for (const kind of ["bot", "user"] as const) {
    await step(2)
      .getByRole("button", { name: `Exchange ${kind} token…` })
      .click();
    const confirm = page.getByRole("dialog", { name: /Exchange the/ });
    await confirm.getByRole("checkbox").check();
    await confirm.getByRole("button", { name: "Exchange" }).click();
    await expect(step(2).getByTestId(`migrate-${kind}`)).toContainText("exchanged: rotating");
  }
  await expect(step(2)).toContainText("done");
  await expect(step(4).getByText(/answered token_expired: it no longer works/)).toHaveCount(2);
  await expect(step(3)).toContainText("as exchanged, not revoked");
  await expect(page.getByRole("heading", { name: /Switchboard Legacy/ })).toBeVisible();
  await shoot(page, "settings-migration");
  expect(await page.content()).not.toMatch(RAW_TOKEN);
});

test("changes the bot scopes, then reinstalls with them", async ({ page }) => {
  await install(page, "/oauth/install");
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: /Switchboard Rotation/ })).toBeVisible();
  await page.getByLabel("Add a bot scope").fill("reactions:read");
  await page.getByRole("button", { name: "Add bot scope" }).click();
  await expect(page.getByRole("list", { name: "Bot token scopes" })).toContainText("reactions:read");
  await page.getByRole("button", { name: "Save scopes" }).click();
  const saved = page.getByRole("status").filter({ hasText: "Scopes saved in the manifest" }).first();
  await expect(saved).toBeVisible();

  await page.getByRole("link", { name: /Reinstall in .* with the new scopes/ }).click();
  await expect(page).toHaveURL(/\/emulator\/oauth\/v2\/authorize\?/);
  await expect(page.getByText("reactions:read")).toBeVisible();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);
  const session = await page.request.get("/api/session", { headers: { "x-switchboard-request": "1" } });
  const { installations } = (await session.json()) as { installations: { bot: { scopes: string[] } }[] };
  expect(installations).toHaveLength(1);
  expect(installations[0]!.bot.scopes).toContain("reactions:read");
});

test("refuses a scope the platform does not have, keeping what was typed and saying why, and adds the rest", async ({ page }) => {
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: /Switchboard Rotation/ })).toBeVisible();
  const field = page.getByLabel("Add a bot scope");
  const bot = page.getByRole("list", { name: "Bot token scopes" });
  await field.pressSequentially("not-a-scope");
  await page.getByRole("button", { name: "Add bot scope" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "not-a-scope" });
  await expect(alert).toContainText("not-a-scope is not a scope the platform knows");
  await expect(field).toHaveValue("not-a-scope");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(bot).not.toContainText("not-a-scope");

  // A user token scope in the bot list is refused too; the good one beside it is added.
  await field.fill("");
  await field.pressSequentially("reactions:read search:read");
  await field.press("Enter");
  await expect(bot).toContainText("reactions:read");
  await expect(bot).not.toContainText("search:read");
  await expect(field).toHaveValue("search:read");
  await expect(page.getByRole("alert").filter({ hasText: "search:read" })).toContainText("search:read is a scope for user tokens, not a bot token scope");
  await shoot(page, "scopes-refused");
  await page.getByRole("button", { name: "Save scopes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Scopes saved in the manifest" }).first()).toBeVisible();
  const apps = await emulatorApps(page);
  const scopes = (apps.find((a) => a.name === "Switchboard Rotation") as unknown as { scopes: { bot: string[] } }).scopes.bot;
  expect(scopes).toContain("reactions:read");
  expect(scopes).not.toContain("search:read");
  expect(scopes).not.toContain("not-a-scope");
});

/** Scope names on the page that a line break cuts inside a word (anywhere but after their `:` or `.`). */
async function scopesCutMidWord(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((elements) =>
    elements.flatMap((element) => {
      const chars: { ch: string; top: number }[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        // The name only: not the screen-reader text (" (added)") nor the Remove button beside it.
        if (node.parentElement?.closest(".sr-only, button")) continue;
        for (let i = 0; i < node.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (rect && node.data[i]!.trim()) chars.push({ ch: node.data[i]!, top: Math.round(rect.top) });
        }
      }
      const cut = chars.some((c, i) => i > 0 && c.top > chars[i - 1]!.top + 2 && !/[:.]/.test(chars[i - 1]!.ch));
      return cut ? [chars.map((c) => c.ch).join("")] : [];
    }),
  );
}

test("at 390 px, scope names wrap only after their : or . on the settings page and in the scopes panel", async ({ page }) => {
  await install(page, "/oauth/install");
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: /Switchboard Rotation/ })).toBeVisible();
  const field = page.getByLabel("Add a bot scope");
  await field.pressSequentially("conversations.connect:manage chat:write.customize");
  await field.press("Enter");
  await expect(page.getByRole("list", { name: "Bot token scopes" })).toContainText("conversations.connect:manage");
  expect(await scopesCutMidWord(page, 'ul[aria-label$="token scopes"] > li')).toEqual([]);
  await page.getByRole("list", { name: "Bot token scopes" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOTS}/scopes-editor-390.png`, fullPage: true });

  await page.goto("/webhooks");
  const panel = page.getByRole("region", { name: /^Scopes · / });
  await expect(panel.getByRole("table")).toBeVisible();
  expect(await scopesCutMidWord(page, "table code")).toEqual([]);
  await panel.screenshot({ path: `${SCREENSHOTS}/scopes-panel-390.png` });
});

test("downloads the manifest as JSON and as YAML", async ({ page }) => {
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: /Switchboard Rotation/ })).toBeVisible();

  const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download JSON" }).click()]);
  expect(json.suggestedFilename()).toBe("switchboard-rotation-manifest.json");
  const manifest = JSON.parse(await readFile((await json.path())!, "utf8")) as {
    display_information: { name: string };
    settings: { token_rotation_enabled: boolean };
  };
  expect(manifest.display_information.name).toBe("Switchboard Rotation");
  expect(manifest.settings.token_rotation_enabled).toBe(true);

  const [yaml] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download YAML" }).click()]);
  expect(yaml.suggestedFilename()).toBe("switchboard-rotation-manifest.yaml");
  const text = await readFile((await yaml.path())!, "utf8");
  expect(text).toContain('display_information:\n  name: "Switchboard Rotation"\n');
  expect(text).toMatch(/\n {2}token_rotation_enabled: true\n/);

  await page.getByRole("group", { name: "Manifest format" }).getByRole("button", { name: "YAML" }).click();
  await expect(page.getByLabel("Manifest as YAML")).toContainText("token_rotation_enabled: true");
});

test("with a configuration token the same page goes through the App Manifest API, and shows the token masked only", async ({ page, request }) => {
  await page.goto("/settings");
  await page.getByRole("button", { name: "Generate a configuration token (emulator)" }).click();
  await expect(page.getByText("App Manifest API", { exact: true })).toBeVisible();
  await expect(page.getByTestId("config-token")).toHaveText(/^xoxe\.xoxp-…[A-Za-z0-9]{4}$/);
  await expect(page.getByRole("heading", { name: /Switchboard Rotation/ })).toBeVisible();

  // A pair pasted as a person copies it from the platform's page: rotated at once, so the kept token is another.
  const pair = (await (await postEmulatorAdmin(request, "config-tokens", {})).json()) as { token: string; refresh_token: string };
  await page.getByLabel("Access token").fill(pair.token);
  await page.getByLabel("Refresh token").fill(pair.refresh_token);
  await page.getByRole("button", { name: "Keep this token" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Configuration token kept" })).toBeVisible();
  await expect(page.getByTestId("config-token")).not.toHaveText(`xoxe.xoxp-…${pair.token.slice(-4)}`);
  await expect(page.getByLabel("Access token")).toHaveValue("");
  expect(await page.content()).not.toMatch(RAW_TOKEN);
  await shoot(page, "settings-manifest-api");
});
