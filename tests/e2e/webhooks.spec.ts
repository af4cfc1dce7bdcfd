import { expect, test, type Locator, type Page } from "@playwright/test";
import { forgetPastedWebhooks } from "./support/pasted-webhooks";

test.beforeEach(({ request }) => forgetPastedWebhooks(request));

/** Installs the console's app through the emulator's consent page, picking the webhook's channel. */
async function installWithWebhook(page: Page, channel: string) {
  await page.goto("/oauth/install");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("requesting permission");
  await page.getByLabel(/Where should .* post\?/).selectOption({ label: `#${channel}` });
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(/\/\?installed=/);
}

test("posts a message through the install's incoming webhook and sees it arrive in the emulator's channel", async ({ page, request }) => {
  await installWithWebhook(page, "random");
  await page.goto("/webhooks");

  const webhook = page.getByRole("radio", { name: /#random/ });
  await expect(webhook).toBeChecked();
  // The URL is shown masked: its host and last 4 characters, never the secret path.
  const masked = page.getByRole("radiogroup", { name: "Webhook to post through" }).getByText(/localhost:\d+\/…\w{4}/);
  await expect(masked).toBeVisible();

  const text = `Deploy finished ${Date.now()}`;
  await page.getByLabel("Message text").fill(text);
  await page.getByRole("button", { name: "Send message" }).click();

  const result = page.getByRole("status", { name: "Send result" });
  await expect(result).toContainText("HTTP 200");
  await expect(result.getByLabel("Response body")).toHaveText("ok");

  // The emulator's channel, as the console shows it.
  const channel = page.getByRole("list", { name: "Messages in #random, newest first" });
  await expect(channel.getByText(text)).toBeVisible();
  await expect(channel.getByText("incoming-webhook").first()).toBeVisible();

  // And in the emulator's own state.
  const state = await (await request.get("/emulator/admin/state")).json();
  const random = state.channels.find((c: { name: string }) => c.name === "random");
  expect(random.messages.map((m: { text: string }) => m.text)).toContain(text);

  // The send history keeps what was sent, without the URL.
  const history = page.getByRole("list", { name: "Sends, newest first" });
  await expect(history.getByText(text)).toBeVisible();

  // Nothing the browser can read holds the webhook's secret path.
  const list = await page.evaluate(async () => (await fetch("/api/webhooks")).text());
  expect(list).not.toMatch(/\/services\//);
  expect(await page.content()).not.toMatch(/\/services\/T[A-Z0-9]+\/B/);
});

test("shows the platform's error and a hint for a malformed JSON payload", async ({ page }) => {
  await installWithWebhook(page, "general");
  await page.goto("/webhooks");
  await page.getByRole("button", { name: "JSON payload", exact: true }).click();
  await page.getByLabel("JSON payload").fill('{"text": "unterminated');
  await page.getByRole("button", { name: "Send message" }).click();
  const result = page.getByRole("status", { name: "Send result" });
  await expect(result).toContainText("HTTP 400");
  await expect(result.getByLabel("Response body")).toHaveText("invalid_payload");
  await expect(result).toContainText("What to do");
});

test("refuses to store a pasted URL outside the allowlist, with the reason", async ({ page }) => {
  await page.goto("/webhooks");
  await page.getByRole("textbox", { name: "Webhook URL" }).fill("https://hooks.slack.com@127.0.0.1/services/T1/B1/secret");
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByRole("form", { name: "Paste a webhook URL" }).getByRole("alert")).toContainText("'@'");

  // A made-up secret, assembled here so that no webhook-looking URL sits in the repository.
  const secret = ["abcdefghijkl", "mnopqrstwxyz"].join("");
  await page.getByRole("textbox", { name: "Webhook URL" }).fill(`https://hooks.slack.com/services/T000/B000/${secret}`);
  await page.getByLabel("Label").fill("Team alerts");
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByRole("radio", { name: /Team alerts/ })).toBeChecked();
  await expect(page.getByRole("radiogroup", { name: "Webhook to post through" }).getByText("hooks.slack.com/…wxyz")).toBeVisible();
});

/**
 * The text of the element that isolates `locator`'s text for the bidi algorithm (itself or its nearest
 * ancestor with unicode-bidi isolate or plaintext, which <bdi> has), or null when nothing isolates it.
 */
function isolatedText(locator: Locator): Promise<string | null> {
  return locator.evaluate((element) => {
    for (let at: Element | null = element; at; at = at.parentElement) {
      if (/^(isolate|isolate-override|plaintext)$/.test(getComputedStyle(at).unicodeBidi)) return at.textContent;
    }
    return null;
  });
}

test("text with a right-to-left override is isolated, so it cannot reorder what is shown around it", async ({ page }) => {
  await installWithWebhook(page, "general");
  await page.goto("/webhooks");

  // A label that, left alone, would flip the masked URL after it to its left ("txt.exe" read as "exe.txt").
  const secret = ["abcdefghijkl", "mnopqrstrtlo"].join("");
  await page.getByRole("textbox", { name: "Webhook URL" }).fill(`https://hooks.slack.com/services/T000/B001/${secret}`);
  const label = "alerts \u202Etxt.exe";
  await page.getByLabel("Label").fill(label);
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByRole("radio", { name: /alerts/ })).toBeChecked();
  const list = page.getByRole("radiogroup", { name: "Webhook to post through" });
  expect(await isolatedText(list.getByText(label))).toBe(label);
  const composer = page.getByRole("region", { name: "Compose" });
  const to = composer.getByText(label);
  expect(await isolatedText(to)).toBe(label);
  const [labelBox, urlBox] = [await to.boundingBox(), await composer.getByText("hooks.slack.com/…rtlo").boundingBox()];
  expect(urlBox!.x).toBeGreaterThan(labelBox!.x + labelBox!.width - 1);

  // A message through the install's webhook, as the emulator's channel and the send history show it.
  await page.getByRole("radio", { name: /#general/ }).check();
  const text = `invoice ${Date.now()} \u202Etxt.exe`;
  await page.getByLabel("Message text").fill(text);
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByRole("status", { name: "Send result" })).toContainText("HTTP 200");
  const channel = page.getByRole("list", { name: "Messages in #general, newest first" });
  const history = page.getByRole("list", { name: "Sends, newest first" });
  for (const shown of [channel.getByText(text), history.getByText(text)]) {
    await expect(shown).toBeVisible();
    expect(await isolatedText(shown)).toBe(text);
  }
});
