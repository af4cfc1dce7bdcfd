import { createHmac } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { defaultAppCredentials } from "../../lib/emulator";
import { postEmulatorAdmin } from "./support/emulator-admin";

const sign = (secret: string, timestamp: string, body: string) => `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;

async function install(page: Page) {
  await page.goto("/oauth/install");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(/\/\?installed=/);
}

test("mentioning the app delivers a signed app_mention that appears live on /events, for every browser of the console", async ({ page, browser }) => {
  await install(page);
  await page.goto("/events");
  await expect(page.getByRole("status", { name: "Feed connection" })).toContainText("Listening");

  const words = `ship it ${Date.now()}`;
  await page.getByLabel("Message after the mention").fill(words);
  await page.getByRole("button", { name: "Mention the app" }).click();
  await expect(page.getByRole("form", { name: "Mention the app" }).getByRole("status")).toContainText("is on its way");

  const feed = page.getByRole("list", { name: "Received events" });
  const event = feed.getByRole("article", { name: /^app_mention event Ev/ }).filter({ hasText: words });
  await expect(event).toBeVisible();
  await expect(event).toContainText("event_callback");

  // The payload is there, collapsed until asked for.
  await event.getByText("Payload").click();
  await expect(event.getByLabel("Event payload")).toContainText('"type": "app_mention"');

  // The scopes panel says app_mentions:read was granted.
  await expect(page.getByRole("row", { name: /app_mention events.*granted/ })).toBeVisible();

  // Installations belong to the console, not to a browser: without sign-in, the person at this machine is its
  // operator in every browser, so another browser (no cookie of the install) sees this workspace's events too.
  const elsewhere = await browser.newContext();
  const theirs = await elsewhere.newPage();
  await theirs.goto("/events");
  await expect(theirs.getByRole("status", { name: "Feed connection" })).toContainText("Listening");
  await expect(
    theirs
      .getByRole("list", { name: "Received events" })
      .getByRole("article", { name: /^app_mention event/ })
      .filter({ hasText: words }),
  ).toHaveCount(1);
  await elsewhere.close();
});

test("a request with a forged signature is refused with 401 and never reaches the feed", async ({ page, request, baseURL }) => {
  await install(page);
  await page.goto("/events");
  await expect(page.getByRole("status", { name: "Feed connection" })).toContainText("Listening");

  const marker = `forged ${Date.now()}`;
  const body = JSON.stringify({
    type: "event_callback",
    team_id: "T0FORGED",
    event_id: "Ev0FORGED",
    event: { type: "app_mention", user: "U0FORGED", text: marker, channel: "C0FORGED", ts: "1.000001" },
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const forged = sign("not-the-signing-secret", timestamp, body);
  const response = await request.post(`${baseURL}/api/events`, {
    headers: { "content-type": "application/json", "x-slack-request-timestamp": timestamp, "x-slack-signature": forged },
    data: body,
  });
  expect(response.status()).toBe(401);
  expect(await response.json()).toMatchObject({ error: "invalid_signature" });

  // A genuine event sent afterwards arrives, so the feed is live, and the forged one is still absent.
  const words = `after the forgery ${Date.now()}`;
  await page.getByLabel("Message after the mention").fill(words);
  await page.getByRole("button", { name: "Mention the app" }).click();
  const feed = page.getByRole("list", { name: "Received events" });
  await expect(feed.getByRole("article").filter({ hasText: words }).first()).toBeVisible();
  await expect(feed.getByRole("article").filter({ hasText: marker })).toHaveCount(0);
});

test("a url_verification challenge is echoed only when signed with the signing secret", async ({ request, baseURL }) => {
  const body = JSON.stringify({ type: "url_verification", token: "x", challenge: "challenge-accepted" });
  const now = String(Math.floor(Date.now() / 1000));
  // With the embedded emulator, the signing secret is its default rotation app's (seed "switchboard").
  const { signingSecret } = defaultAppCredentials(process.env.EMULATOR_SEED ?? "switchboard", "rotation");

  const signed = await request.post(`${baseURL}/api/events`, {
    headers: { "content-type": "application/json", "x-slack-request-timestamp": now, "x-slack-signature": sign(signingSecret, now, body) },
    data: body,
  });
  expect(signed.status()).toBe(200);
  expect(await signed.json()).toEqual({ challenge: "challenge-accepted" });

  const unsigned = await request.post(`${baseURL}/api/events`, { headers: { "content-type": "application/json" }, data: body });
  expect(unsigned.status()).toBe(401);
  expect(await unsigned.text()).not.toContain("challenge-accepted");

  // A correctly signed request captured and replayed 10 minutes later.
  const old = String(Math.floor(Date.now() / 1000) - 600);
  const stale = await request.post(`${baseURL}/api/events`, {
    headers: { "content-type": "application/json", "x-slack-request-timestamp": old, "x-slack-signature": sign(signingSecret, old, body) },
    data: body,
  });
  expect(stale.status()).toBe(401);
});

test("without app_mentions:read the scopes panel offers a reinstall, and a mention sends no event", async ({ page, request }) => {
  // The platform keeps the scopes an app was granted across reinstalls: start from a workspace without the app.
  expect((await postEmulatorAdmin(request, "reset", {})).ok()).toBe(true);
  await page.goto("/oauth/install?scope=chat:write,incoming-webhook");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(/\/\?installed=/);
  await page.goto("/events");

  await expect(page.getByRole("row", { name: /app_mention events.*missing/ })).toBeVisible();
  await expect(page.getByRole("row", { name: /incoming webhook.*granted/ })).toBeVisible();
  const reinstall = page.getByRole("link", { name: /Reinstall in .* with the missing scopes/ });
  const href = new URL((await reinstall.getAttribute("href")) ?? "", "http://x");
  expect(href.pathname).toBe("/oauth/install");
  expect(href.searchParams.get("scope")?.split(",")).toEqual(expect.arrayContaining(["chat:write", "incoming-webhook", "app_mentions:read", "users:read"]));

  await page.getByRole("button", { name: "Mention the app" }).click();
  await expect(page.getByRole("form", { name: "Mention the app" }).getByRole("status")).toContainText("needs app_mentions:read");

  // Reinstalling through the panel grants the scope.
  await reinstall.click();
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(/\/\?installed=/);
  await page.goto("/events");
  await expect(page.getByRole("row", { name: /app_mention events.*granted/ })).toBeVisible();
  await expect(page.getByText("Every feature has the scope it needs.")).toBeVisible();
});

test("two url_verification requests, identical but for their app, each say which app they were for", async ({ page, request }) => {
  const seed = process.env.EMULATOR_SEED ?? "switchboard";
  const rotation = defaultAppCredentials(seed, "rotation");
  const legacy = defaultAppCredentials(seed, "legacy");
  await page.goto("/");
  await page.getByRole("navigation").getByRole("link", { name: "Events" }).click();
  await page.waitForURL(/\/events$/);
  await expect(page.getByRole("status", { name: "Feed connection" })).toContainText("Listening");

  // "Retry" on each default app's request URL: the emulator sends it a fresh challenge, signed with that app's secret.
  for (const app of [rotation, legacy]) expect((await postEmulatorAdmin(request, `apps/${app.appId}/verify`, {})).ok()).toBe(true);

  const feed = page.getByRole("list", { name: "Received events" });
  const ofRotation = feed.getByRole("article", { name: "url_verification event for Switchboard Rotation" }).first();
  const ofLegacy = feed.getByRole("article", { name: "url_verification event for Switchboard Legacy" }).first();
  await expect(ofRotation).toBeVisible();
  await expect(ofLegacy).toBeVisible();
  await expect(ofRotation).toContainText(`app Switchboard Rotation ${rotation.appId}`);
  await expect(ofLegacy).toContainText(`app Switchboard Legacy ${legacy.appId}`);
  await page.screenshot({ path: test.info().outputPath("events-app-names.png"), fullPage: true });

  // Opened by its address, the page names them the same way from the snapshot.
  await page.goto("/events");
  await expect(feed.getByRole("article", { name: "url_verification event for Switchboard Legacy" }).first()).toBeVisible();
});
