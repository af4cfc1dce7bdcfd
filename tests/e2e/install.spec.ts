import { expect, test } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The whole install as a person makes it: "Add to workspace" on the console, Allow on the emulator's
 * consent page, back on the console with the installation listed. Along the way the test keeps every
 * response body the browser received, and afterwards reads every cookie and both storages: no raw token
 * may appear anywhere the browser can read.
 */

/** A token that is not masked: its prefix followed by at least 10 token characters. */
const RAW_TOKEN = /xox[abpe][.-][A-Za-z0-9-]{10,}/;

test.beforeEach(async ({ request }) => {
  expect((await postEmulatorAdmin(request, "reset", {})).ok()).toBe(true);
});

test("installs from the Add to workspace button, and no raw token reaches the browser", async ({ page, context }) => {
  const bodies: { url: string; text: string }[] = [];
  const pending: Promise<void>[] = [];
  // requestfinished fires once a body has fully arrived: a request cut off by a navigation (a session poll
  // in flight when the consent page loads) never finishes, and waiting for its body would wait forever.
  page.on("requestfinished", (request) => {
    pending.push(
      request
        .response()
        .then((response) => response?.body())
        .then((body) => {
          if (body) bodies.push({ url: request.url(), text: body.toString("utf8") });
        })
        // Redirects have no body to read.
        .catch(() => undefined),
    );
  });

  await page.goto("/");
  await expect(page.getByText("No installations yet")).toBeVisible();
  await page.getByRole("link", { name: "Add to workspace" }).click();

  await expect(page).toHaveURL(/\/emulator\/oauth\/v2\/authorize\?/);
  await expect(page.getByRole("heading", { name: /is requesting permission to access/ })).toBeVisible();
  await page.getByRole("button", { name: "Allow" }).click();

  await expect(page).toHaveURL(/\/\?installed=/);
  const card = page.locator("article[data-installation]");
  await expect(card).toHaveCount(1);
  await expect(card.getByRole("heading", { name: "Switchboard Rotation in Emulated Workspace" })).toBeVisible();
  await expect(card.getByText("active", { exact: true })).toBeVisible();
  const bot = card.getByRole("group", { name: "Bot token" });
  await expect(bot.getByTestId("bot-token")).toHaveText(/^xoxe\.xoxb-…[A-Za-z0-9]{4}$/);
  await expect(bot.getByText(/expires in 1[12]h \d\dm \d\ds/)).toBeVisible();
  await expect(bot.getByRole("list", { name: "Bot token scopes" })).toContainText("chat:write");
  await expect(card.getByRole("group", { name: "User token" }).getByTestId("user-token")).toHaveText(/^xoxe\.xoxp-…/);

  // The token works, as the platform says through the console; the timeline keeps the answer.
  const timeline = card.getByRole("log", { name: /^Timeline of / });
  await bot.getByRole("button", { name: "Test" }).click();
  await expect(timeline.getByRole("listitem").first()).toContainText("Tested bot token: ok");
  // A refresh issues a new pair; the page shows the new masked token.
  const before = await bot.getByTestId("bot-token").textContent();
  await bot.getByRole("button", { name: "Refresh" }).click();
  await expect(timeline.getByRole("listitem").first()).toContainText("Refreshed bot token");
  await expect(bot.getByTestId("bot-token")).not.toHaveText(before ?? "");

  await page.reload();
  await expect(page.locator("article[data-installation]")).toHaveCount(1);
  await Promise.all(pending);

  expect(bodies.length).toBeGreaterThan(5);
  const leaks = bodies.filter((b) => RAW_TOKEN.test(b.text)).map((b) => `${b.url}: ${RAW_TOKEN.exec(b.text)?.[0].slice(0, 12)}…`);
  expect(leaks).toEqual([]);

  const documentCookie = await page.evaluate(() => document.cookie);
  expect(documentCookie).not.toMatch(RAW_TOKEN);
  expect(documentCookie).not.toContain("sb_inst_");
  const cookies = await context.cookies();
  // The installation lives in the server's store: the browser holds no cookie of it at all.
  expect(cookies.filter((c) => c.name.startsWith("sb_inst_"))).toEqual([]);
  for (const cookie of cookies) expect(`${cookie.name}=${decodeURIComponent(cookie.value)}`).not.toMatch(RAW_TOKEN);

  const storage = await page.evaluate(() => {
    const dump = (s: Storage) => Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i) ?? "")}`).join("\n");
    return { local: dump(localStorage), session: dump(sessionStorage) };
  });
  expect(storage.local).not.toMatch(RAW_TOKEN);
  expect(storage.session).not.toMatch(RAW_TOKEN);
});

test("the installations page links to no raw secret: no Apps link, and nothing it or the emulator's page links to shows one", async ({ page, request }) => {
  const apps = (await (await request.get("/emulator/admin/apps")).json()) as { apps: Array<{ client_secret: string; signing_secret: string }> };
  const secrets = apps.apps.flatMap((app) => [app.client_secret, app.signing_secret]);
  expect(secrets.length).toBeGreaterThanOrEqual(4);

  await page.goto("/");
  await expect(page.getByRole("link", { name: "Emulator", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Apps", exact: true })).toHaveCount(0);
  await expect(page.locator('a[href*="/admin/apps"]')).toHaveCount(0);

  /** Every link of the page open now, and what each answers when a person opens it. */
  const linkedBodies = async () => {
    const hrefs = await page.locator("a[href]").evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
    const own = [...new Set(hrefs)].filter((href) => new URL(href).origin === new URL(page.url()).origin);
    expect(own.length).toBeGreaterThan(0);
    return Promise.all(own.map(async (href) => ({ href, text: await (await page.request.get(href)).text() })));
  };
  for (const { href, text } of [{ href: "/", text: await page.content() }, ...(await linkedBodies())]) {
    for (const secret of secrets) expect(text.includes(secret), `${href} shows an app's secret`).toBe(false);
  }

  // The emulator's own page, reached by clicking, links to its admin JSON but not to the apps' secrets.
  await page.getByRole("link", { name: "Emulator", exact: true }).click();
  await expect(page).toHaveURL(/\/emulator\/?$/);
  await expect(page.getByRole("heading", { name: "Apps" })).toBeVisible();
  await expect(page.locator('a[href*="/admin/apps"]')).toHaveCount(0);
  for (const { href, text } of [{ href: page.url(), text: await page.content() }, ...(await linkedBodies())]) {
    for (const secret of secrets) expect(text.includes(secret), `${href} shows an app's secret`).toBe(false);
  }
});

test("a cancelled install and a replayed callback get a 400 page that says which, with Start again", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Add to workspace" }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { name: "The install was cancelled" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Start again" })).toHaveAttribute("href", "/oauth/install");

  await page.getByRole("link", { name: "Start again" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);

  let callbackUrl = "";
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/oauth/callback") callbackUrl = request.url();
  });
  await page.getByRole("link", { name: "Add to workspace" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);
  expect(callbackUrl).toContain("state=");

  const replay = await page.goto(callbackUrl);
  expect(replay?.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "This install was already completed" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the console" }).click();
  await expect(page.locator("article[data-installation]")).toHaveCount(1);
});

test("where the console cannot read the app's rotation setting, Exchange is offered and explains token_rotation_not_enabled after the confirmation", async ({
  page,
}) => {
  // As against the platform without a configuration token: the app's settings cannot be read.
  await page.route("**/api/app-config/apps/**", (route) =>
    route.fulfill({ status: 409, json: { ok: false, error: "config_token_required", message: "Paste an app configuration token first." } }),
  );
  await page.goto("/");
  await page.getByRole("link", { name: "Install the legacy app" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  const card = page.locator("article[data-installation]");
  await expect(card.getByRole("heading", { name: "Switchboard Legacy in Emulated Workspace" })).toBeVisible();
  const bot = card.getByRole("group", { name: "Bot token" });
  await expect(bot.getByText("long-lived · never expires")).toBeVisible();

  await bot.getByRole("button", { name: "Exchange" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("The original token stops working");
  await expect(dialog).toContainText("Do not revoke the original afterwards");
  const confirm = dialog.getByRole("button", { name: "Exchange token" });
  await expect(confirm).toBeDisabled();
  await dialog.getByRole("checkbox").check();
  await confirm.click();
  const latest = card
    .getByRole("log", { name: /^Timeline of / })
    .getByRole("listitem")
    .first();
  await expect(latest).toContainText("Exchange of bot token failed: token_rotation_not_enabled");
  await expect(latest).toContainText("does not have token rotation turned on");
  // The same beside the button, where it was asked.
  const result = bot.getByRole("status", { name: "Bot token: last result" });
  await expect(result).toContainText("Exchange: token_rotation_not_enabled");
  await expect(result).toContainText("does not have token rotation turned on");
  await expect(bot.getByText("long-lived · never expires")).toBeVisible();
  await expect(bot.getByRole("link", { name: "Turn on rotation (app settings)" })).toBeVisible();
});

test("revoke, refresh, uninstall and forget from the console", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Add to workspace" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  const card = page.locator("article[data-installation]");
  const bot = card.getByRole("group", { name: "Bot token" });

  const latest = card
    .getByRole("log", { name: /^Timeline of / })
    .getByRole("listitem")
    .first();

  await bot.getByRole("button", { name: "Revoke" }).click();
  await expect(latest).toContainText("Revoked bot token");
  await expect(bot.getByText("revoked", { exact: true })).toBeVisible();
  await bot.getByRole("button", { name: "Test" }).click();
  await expect(latest).toContainText("token_revoked");
  await bot.getByRole("button", { name: "Refresh" }).click();
  await expect(bot.getByText("revoked", { exact: true })).toBeHidden();
  await bot.getByRole("button", { name: "Test" }).click();
  await expect(latest).toContainText("Tested bot token: ok");

  // Uninstalled, the installation stays listed with its timeline until it is forgotten.
  await card.getByRole("button", { name: "Uninstall…" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Uninstall" }).click();
  await expect(card.getByText("uninstalled", { exact: true })).toBeVisible();
  await card.getByRole("button", { name: "Forget…" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Forget" }).click();
  await expect(page.getByText("No installations yet")).toBeVisible();

  await page.getByRole("link", { name: "Add to workspace" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(card).toHaveCount(1);
  await card.getByRole("button", { name: "Forget…" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Forget" }).click();
  await expect(page.getByText("No installations yet")).toBeVisible();
});
