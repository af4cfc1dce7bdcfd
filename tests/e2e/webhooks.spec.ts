import { expect, test, type Page } from "@playwright/test";

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
