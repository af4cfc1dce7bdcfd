import { expect, test, type Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The explorer's preview of a chat.* or views.* request, as a person types it: the message as a member
 * would see it (the app's name line, a header, a section with a button, a mention), a note while the JSON
 * does not parse, a `javascript:` link shown as text, working controls that show what they would send the
 * app, a modal that keeps what is typed in it, and nothing for other methods. Axe-clean and looked at in
 * both themes at 1366 and 390 px.
 */

test.beforeEach(async ({ request }) => {
  expect((await postEmulatorAdmin(request, "reset", { users: 3000 })).ok()).toBe(true);
  expect((await postEmulatorAdmin(request, "rate-limits", { enabled: false })).ok()).toBe(true);
});

async function installApp(page: Page) {
  await page.goto("/oauth/install");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/emulator") && !url.pathname.startsWith("/oauth"));
}

const previewPanel = (page: Page) => page.locator("section").filter({ has: page.getByRole("heading", { name: "Preview", exact: true }) });

const BLOCKS = `[{"type":"header","text":{"type":"plain_text","text":"Release 4.2 :rocket:"}},{"type":"section","block_id":"ship","text":{"type":"mrkdwn","text":"*Ready to ship*, <@U0PREVIEW>?"},"accessory":{"type":"button","action_id":"approve","text":{"type":"plain_text","text":"Approve"},"style":"primary","value":"r42"}}]`;

test("chat.postMessage: the preview follows the blocks typed key by key, notes broken JSON, and never links javascript:", async ({ page }) => {
  await installApp(page);
  await page.goto("/explorer?method=chat.postMessage&as=bot&verb=POST-json");
  await expect(page.getByText("Sends a message to a channel.")).toBeVisible();
  const preview = previewPanel(page);
  await expect(preview).toContainText("Type text, blocks or attachments to see the message.");

  // The text alone is the message, with the app's name line above it.
  await page.getByLabel(/^text/).pressSequentially("Deploy *done*");
  const message = preview.getByRole("article");
  await expect(message).toContainText("Deploy done");
  await expect(message.locator("strong")).toHaveText("done");
  await expect(message).toContainText("App");

  // Typed key by key: while the JSON is unfinished the note says so; once it parses, the blocks replace the text.
  const blocksField = page.getByLabel(/^blocks/);
  await blocksField.click();
  await blocksField.pressSequentially(BLOCKS.slice(0, 60));
  await expect(preview.getByText(/blocks does not parse as JSON/)).toBeVisible();
  await blocksField.pressSequentially(BLOCKS.slice(60));
  await expect(preview.getByText(/blocks does not parse as JSON/)).toHaveCount(0);
  await expect(message.getByRole("heading", { name: "Release 4.2 rocket" })).toBeVisible();
  await expect(message).toContainText("Ready to ship, @U0PREVIEW?");
  await expect(message).not.toContainText("Deploy done");

  // The button works as a member's would: what the app would get in block_actions shows under the message.
  await message.getByRole("button", { name: "Approve" }).click();
  const sent = preview.getByRole("status");
  await expect(sent).toContainText("block_actions");
  await expect(sent).toContainText('"action_id": "approve"');
  await expect(sent).toContainText('"block_id": "ship"');
  await expect(sent).toContainText('"value": "r42"');

  // Edited with keystrokes: a deleted bracket breaks it, the bracket typed back mends it.
  await blocksField.focus();
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Backspace");
  await expect(preview.getByText(/blocks does not parse as JSON/)).toBeVisible();
  await expect(message).toContainText("Deploy done");
  // A third block with a script link and a web link, typed in before the closing bracket.
  await blocksField.pressSequentially(`,{"type":"section","text":{"type":"mrkdwn","text":"<javascript:alert(1)|evil> and <https://example.com|docs>"}}]`);
  await expect(preview.getByText(/blocks does not parse as JSON/)).toHaveCount(0);
  await expect(message.getByText("evil", { exact: true })).toBeVisible();
  await expect(message.getByRole("link", { name: "evil" })).toHaveCount(0);
  await expect(message.getByRole("link", { name: "docs" })).toHaveAttribute("href", "https://example.com/");
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);

  // An argument that parses but is not a list of blocks.
  await blocksField.fill('{"type":"divider"}');
  await expect(preview).toContainText("blocks is not a list of blocks");

  // Another method has no preview.
  await page.goto("/explorer?method=users.list");
  await expect(page.getByText("Lists all users in a Slack team.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Preview", exact: true })).toHaveCount(0);
});

test("views.open: the modal's inputs keep what is typed, and Submit shows the state.values the app would get", async ({ page }) => {
  await installApp(page);
  await page.goto("/explorer?method=views.open&as=bot&verb=POST-json");
  await expect(page.getByRole("heading", { name: "Preview", exact: true })).toBeVisible();
  const view = {
    type: "modal",
    title: { type: "plain_text", text: "File a ticket" },
    submit: { type: "plain_text", text: "File" },
    blocks: [
      { type: "input", block_id: "title", label: { type: "plain_text", text: "Title" }, element: { type: "plain_text_input", action_id: "value" } },
      {
        type: "input",
        block_id: "sev",
        optional: true,
        label: { type: "plain_text", text: "Severity" },
        hint: { type: "plain_text", text: "How bad is it?" },
        element: {
          type: "static_select",
          action_id: "pick",
          options: [
            { text: { type: "plain_text", text: "Low" }, value: "low" },
            { text: { type: "plain_text", text: "High" }, value: "high" },
          ],
        },
      },
    ],
  };
  await page.getByLabel(/^view/).fill(JSON.stringify(view));
  const modal = page.getByRole("region", { name: "Modal: File a ticket" });
  await expect(modal).toBeVisible();
  await modal.getByLabel("Title").pressSequentially("Printer on fire");
  await modal.getByLabel("Severity (optional)").selectOption("high");
  await modal.screenshot({ path: test.info().outputPath("preview-modal-light-1280.png") });
  await modal.getByRole("button", { name: "File" }).click();
  const sent = previewPanel(page).getByRole("status");
  await expect(sent).toContainText("view_submission");
  await expect(sent).toContainText('"value": "Printer on fire"');
  await expect(sent).toContainText('"value": "high"');
});

test("the preview is axe-clean, and looks like a chat message in light and dark at 1366 and 390 px", async ({ page }) => {
  await installApp(page);
  const blocks = JSON.parse(BLOCKS) as unknown[];
  blocks.push(
    { type: "divider" },
    {
      type: "section",
      fields: [
        { type: "mrkdwn", text: "*Owner*\n<@U0PREVIEW>" },
        { type: "mrkdwn", text: "*Channel*\n<#C0DEPLOYS|deploys>" },
      ],
    },
    {
      type: "actions",
      elements: [
        {
          type: "static_select",
          action_id: "env",
          placeholder: { type: "plain_text", text: "Environment" },
          options: [{ text: { type: "plain_text", text: "Staging" }, value: "staging" }],
        },
        { type: "datepicker", action_id: "day", initial_date: "2026-12-01" },
        { type: "button", action_id: "stop", text: { type: "plain_text", text: "Cancel release" }, style: "danger" },
        { type: "overflow", action_id: "more", options: [{ text: { type: "plain_text", text: "View logs" }, value: "logs" }] },
      ],
    },
    { type: "context", elements: [{ type: "mrkdwn", text: "Built from `main` · :white_check_mark: 128 tests" }] },
    {
      type: "rich_text",
      elements: [
        {
          type: "rich_text_list",
          style: "bullet",
          elements: [
            {
              type: "rich_text_section",
              elements: [
                { type: "text", text: "Faster ", style: { bold: true } },
                { type: "text", text: "search" },
              ],
            },
          ],
        },
      ],
    },
    { type: "carousel" },
  );
  const attachments = [
    { color: "warning", title: "Known issue", text: "Exports may be slow", fields: [{ title: "Impact", value: "Low", short: true }], footer: "status page" },
  ];
  const query = new URLSearchParams({
    method: "chat.postMessage",
    as: "bot",
    verb: "POST-json",
    "p.channel": "general",
    "p.text": "Release 4.2",
    "p.blocks": JSON.stringify(blocks),
    "p.attachments": JSON.stringify(attachments),
  });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/explorer?${query}`);
      const preview = previewPanel(page);
      await expect(preview.getByRole("heading", { name: "Release 4.2 rocket" })).toBeVisible();
      await expect(preview).toContainText("unsupported block: carousel");
      await preview.scrollIntoViewIfNeeded();
      await preview.screenshot({ path: test.info().outputPath(`preview-${scheme}-${width}.png`) });
      expect(await seriousViolations(page), `${scheme} ${width}`).toEqual([]);
    }
  }
});
