import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * Issue 22, items 11, 13, 15 and 16, as a person meets them on the installations page: a pasted token never
 * brings back a dead one, Exchange is offered only when the app's rotation lets it work (and Turn on
 * rotation only while it is off), each token action's result shows beside its button, and every time is
 * written one way, the browser's locale's. Screenshots go to /tmp.
 */

const SHOTS = "/tmp";

test.beforeEach(async ({ request }) => {
  expect((await postEmulatorAdmin(request, "reset", {})).ok()).toBe(true);
});

interface AdminApp {
  app_id: string;
  name: string;
  client_id: string;
  client_secret: string;
  manifest: { settings?: Record<string, unknown> };
}

async function legacyApp(request: APIRequestContext): Promise<AdminApp> {
  const apps = ((await (await request.get("/emulator/admin/apps")).json()) as { apps: AdminApp[] }).apps;
  const legacy = apps.find((a) => a.name === "Switchboard Legacy");
  if (!legacy) throw new Error("no legacy app");
  return legacy;
}

async function turnOnLegacyRotation(request: APIRequestContext) {
  const legacy = await legacyApp(request);
  const manifest = { ...legacy.manifest, settings: { ...legacy.manifest.settings, token_rotation_enabled: true } };
  expect((await postEmulatorAdmin(request, "apps", manifest)).ok()).toBe(true);
}

/** A long-lived bot token of the legacy app, installed from somewhere else (a script, another browser). */
async function longLivedTokenElsewhere(request: APIRequestContext, origin: string): Promise<string> {
  const legacy = await legacyApp(request);
  const redirectUri = `${origin}/oauth/callback`;
  const authorize = `/emulator/oauth/v2/authorize?${new URLSearchParams({ client_id: legacy.client_id, scope: "users:read,chat:write", redirect_uri: redirectUri, state: "elsewhere" })}`;
  const html = await (await request.get(authorize)).text();
  const channel = /<select id="channel_id"[\s\S]*?<option value="([^"]+)" selected/.exec(html)?.[1];
  const consent = await request.post(authorize, { form: { decision: "allow", ...(channel ? { channel_id: channel } : {}) }, maxRedirects: 0 });
  const code = new URL(consent.headers().location ?? "", origin).searchParams.get("code") ?? "";
  const access = await request.post("/emulator/api/oauth.v2.access", {
    form: { client_id: legacy.client_id, client_secret: legacy.client_secret, code, redirect_uri: redirectUri },
  });
  const token = ((await access.json()) as { access_token?: string }).access_token ?? "";
  expect(token).toMatch(/^xoxb-/);
  return token;
}

async function install(page: Page, legacy = false): Promise<Locator> {
  await page.goto("/");
  await page.getByRole("link", { name: legacy ? "Install the legacy app" : "Add to workspace" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);
  const card = page.locator("article[data-installation]");
  await expect(card).toHaveCount(1);
  return card;
}

const entries = (card: Locator) => card.getByRole("log", { name: /^Timeline of / }).getByRole("listitem");
const lastResult = (group: Locator, label: "Bot token" | "User token") => group.getByRole("status", { name: `${label}: last result` });

test("item 11: a pasted token exchanged into an installation that needs reinstalling does not bring back its revoked user token", async ({ page }) => {
  const card = await install(page, true);
  const user = card.getByRole("group", { name: "User token" });
  const revokedUser = (await user.getByTestId("user-token").textContent()) ?? "";
  await user.getByRole("button", { name: "Revoke…" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke the user token and the installation" }).click();
  await expect(card.getByText("needs reinstall", { exact: true })).toBeVisible();

  // A fresh long-lived bot token of the same app, from elsewhere, once its app has rotation: pasted and exchanged.
  const pasted = await longLivedTokenElsewhere(page.request, new URL(page.url()).origin);
  await turnOnLegacyRotation(page.request);
  const panel = page.locator("section").filter({ has: page.getByRole("heading", { name: "Exchange a long-lived token" }) });
  await panel.getByLabel("Long-lived token").pressSequentially(pasted, { delay: 0 });
  await panel.getByLabel("Issued by").selectOption("legacy");
  await panel.getByRole("button", { name: "Exchange…" }).click();
  const dialog = page.getByRole("dialog", { name: "Exchange the pasted token for a rotating token?" });
  await dialog.getByRole("checkbox").check();
  await dialog.getByRole("button", { name: "Exchange token" }).click();
  await expect(panel.getByRole("status")).toContainText("Exchanged");

  await expect(card.getByText("active", { exact: true })).toBeVisible();
  // The revoked user token is gone, not shown as "long-lived · never expires".
  await expect(card.getByRole("group", { name: "User token" })).toHaveCount(0);
  await expect(card.getByText("long-lived · never expires")).toHaveCount(0);
  await expect(entries(card).first()).toContainText("Exchanged bot token");
  await expect(entries(card).first()).toContainText(`No longer kept: ${revokedUser}`);

  const bot = card.getByRole("group", { name: "Bot token" });
  await expect(bot.getByTestId("bot-token")).toHaveText(/^xoxe\.xoxb-/);
  await bot.getByRole("button", { name: "Test" }).click();
  await expect(lastResult(bot, "Bot token")).toContainText("Test: ok");
  await expect(card.getByText("active", { exact: true })).toBeVisible();
  await page.reload();
  await expect(card.getByText("active", { exact: true })).toBeVisible();
  await card.screenshot({ path: `${SHOTS}/tokens-item11-1366.png` });
});

test("item 11: once the app has rotation, a dead long-lived user token leaves the exchanged bot token alive", async ({ page }) => {
  const card = await install(page, true);
  await turnOnLegacyRotation(page.request);
  await page.reload();
  const bot = card.getByRole("group", { name: "Bot token" });
  const user = card.getByRole("group", { name: "User token" });
  await bot.getByRole("button", { name: "Exchange" }).click();
  await page.getByRole("dialog").getByRole("checkbox").check();
  await page.getByRole("dialog").getByRole("button", { name: "Exchange token" }).click();
  await expect(bot.getByTestId("bot-token")).toHaveText(/^xoxe\.xoxb-/);

  // With rotation, auth.revoke takes that one token (spec row 6): it asks first, and says so.
  await user.getByRole("button", { name: "Revoke…" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke the long-lived user token?" });
  await expect(dialog).toContainText("revokes this user token alone: the installation stays");
  await dialog.getByRole("button", { name: "Revoke the user token" }).click();
  await expect(user.getByText("revoked", { exact: true })).toBeVisible();
  await user.getByRole("button", { name: "Test" }).click();
  await expect(lastResult(user, "User token")).toContainText("Test: token_revoked");
  await expect(lastResult(user, "User token")).toContainText("Only this long-lived user token is dead");
  await expect(card.getByText("active", { exact: true })).toBeVisible();
  await expect(bot.getByText(/expires in 1[12]h/)).toBeVisible();
  await bot.getByRole("button", { name: "Test" }).click();
  await expect(lastResult(bot, "Bot token")).toContainText("Test: ok");
});

test("item 13: Exchange waits for token rotation where the console knows the app's setting, and Turn on rotation goes once it is on", async ({ page }) => {
  const card = await install(page, true);
  const bot = card.getByRole("group", { name: "Bot token" });
  await expect(bot.getByText("long-lived · never expires")).toBeVisible();
  await expect(bot.getByText("Token rotation is off for this app, so there is no Exchange")).toBeVisible();
  await expect(bot.getByRole("button", { name: "Exchange" })).toHaveCount(0);
  await expect(card.getByRole("img", { name: /^Token lifecycle of / })).toHaveAccessibleName(
    /From here the console can take: rotation on \(9\), revoke \(7\), uninstall \(8\)\./,
  );
  await card.screenshot({ path: `${SHOTS}/tokens-item13-off-1366.png` });

  // Turned on where the link leads, as a person would; back on the installations page by the navigation.
  await bot.getByRole("link", { name: "Turn on rotation (app settings)" }).click();
  await expect(page).toHaveURL(/\/settings\?app=A/);
  await page.getByRole("button", { name: "Turn on token rotation…" }).first().click();
  const confirm = page.getByRole("dialog", { name: /Turn on token rotation/ });
  await confirm.getByRole("checkbox").check();
  await confirm.getByRole("button", { name: "Turn rotation on for good" }).click();
  await expect(page.getByText("Token rotation is on").first()).toBeVisible();
  await page.getByRole("navigation").getByRole("link", { name: "Installations" }).click();

  await expect(bot.getByRole("button", { name: "Exchange" })).toBeVisible();
  await expect(bot.getByRole("link", { name: "Turn on rotation (app settings)" })).toHaveCount(0);
  await expect(bot.getByText(/Token rotation is off/)).toHaveCount(0);
  // A page opened afresh knows it too.
  await page.reload();
  await expect(bot.getByRole("button", { name: "Exchange" })).toBeVisible();
  await expect(bot.getByRole("link", { name: "Turn on rotation (app settings)" })).toHaveCount(0);

  await bot.getByRole("button", { name: "Exchange" }).click();
  await page.getByRole("dialog").getByRole("checkbox").check();
  await page.getByRole("dialog").getByRole("button", { name: "Exchange token" }).click();
  await expect(lastResult(bot, "Bot token")).toContainText("Exchange: ok");
  await expect(lastResult(bot, "Bot token")).toContainText("with a refresh token (oauth.v2.exchange)");
  await expect(bot.getByTestId("bot-token")).toHaveText(/^xoxe\.xoxb-/);
  await card.screenshot({ path: `${SHOTS}/tokens-item13-on-1366.png` });
});

test("item 15: Test shows auth.test's answer beside the button, Refresh and failures their result", async ({ page }) => {
  const card = await install(page);
  const bot = card.getByRole("group", { name: "Bot token" });
  const result = lastResult(bot, "Bot token");
  await expect(result).toBeEmpty();

  await bot.getByRole("button", { name: "Test" }).click();
  await expect(result).toContainText("Test: ok");
  await expect(result).toContainText("Emulated Workspace");
  await expect(result.getByRole("definition").nth(1)).not.toBeEmpty();
  // auth.test's url is the workspace's, shaped as the platform's (https://<domain>.slack.com/).
  await expect(result).toContainText(/https:\/\/emulated-[0-9a-f]+\.slack\.com\//);
  await bot.screenshot({ path: `${SHOTS}/tokens-item15-test-ok-1366.png` });

  const before = (await bot.getByTestId("bot-token").textContent()) ?? "";
  await bot.getByRole("button", { name: "Refresh" }).click();
  await expect(result).toContainText("Refresh: ok");
  await expect(result).toContainText(`${before} →`);
  await expect(result).not.toContainText("Emulated Workspace");

  await bot.getByRole("button", { name: "Revoke" }).click();
  await expect(result).toContainText("Revoke: ok");
  await bot.getByRole("button", { name: "Test" }).click();
  await expect(result).toContainText("Test: token_revoked");
  await expect(result).toContainText("Refresh issues a new one");
  // The user token's result is its own.
  await expect(lastResult(card.getByRole("group", { name: "User token" }), "User token")).toBeEmpty();
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await bot.screenshot({ path: `${SHOTS}/tokens-item15-${width}.png` });
  }
});

for (const [locale, pattern] of [
  ["en-US", /^\d{1,2}:\d{2}:\d{2}\s?[AP]M$/],
  ["en-GB", /^\d{2}:\d{2}:\d{2}$/],
] as const) {
  test.describe(`item 16 in ${locale}`, () => {
    test.use({ locale, timezoneId: "Europe/Berlin" });

    test(`every time on the installations page is written as ${locale} writes it`, async ({ page }) => {
      const card = await install(page);
      const bot = card.getByRole("group", { name: "Bot token" });
      await bot.getByRole("button", { name: "Test" }).click();
      await expect(lastResult(bot, "Bot token")).toContainText("Test: ok");
      const times = card.locator("time");
      expect(await times.count()).toBeGreaterThanOrEqual(3);
      for (const text of await times.allTextContents()) expect(text.trim()).toMatch(pattern);
      // The instant is the page's own, in the person's time zone.
      const first = await times.first().getAttribute("datetime");
      const berlin = new Intl.DateTimeFormat(locale, { timeStyle: "medium", timeZone: "Europe/Berlin" }).format(new Date(first ?? ""));
      await expect(times.first()).toHaveText(berlin);
    });
  });
}
