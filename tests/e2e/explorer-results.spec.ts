import { expect, test, type APIRequestContext, type Page, type Response } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * What the explorer shows of a method and of its answer: an argument form whose fields are named for their
 * arguments, with the arguments a message needs beside the required ones; a table of any list's items
 * (conversations.history's messages, not only members and channels); and counts written as a person would.
 */

async function resetEmulator(request: APIRequestContext) {
  expect((await postEmulatorAdmin(request, "reset", { users: 3000 })).ok()).toBe(true);
}

/** "Add to workspace", then Allow on the emulator's consent page. */
async function installApp(page: Page) {
  await page.goto("/oauth/install");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/emulator") && !url.pathname.startsWith("/oauth"));
}

const isCallTo = (method: string) => (response: Response) => new URL(response.url()).pathname === `/api/call/${method}`;

test.beforeEach(async ({ page, request }) => {
  await resetEmulator(request);
  await installApp(page);
});

test("chat.postMessage: text, blocks and attachments beside channel, each field named for its argument", async ({ page }) => {
  await page.goto("/explorer?method=chat.postMessage&verb=POST-json");
  await expect(page.getByText("Sends a message to a channel.")).toBeVisible();

  // Named by the argument alone, its type said apart: "text", described as "string, …", never "textstring".
  const channel = page.getByLabel("channel", { exact: true });
  const text = page.getByLabel("text", { exact: true });
  await expect(channel).toHaveAccessibleName("channel");
  await expect(channel).toHaveAccessibleDescription(/^string, required\b/);
  await expect(text).toHaveAccessibleName("text");
  await expect(text).toHaveAccessibleDescription(/^string, conditionally required One of text, blocks or attachments is required/);
  await expect(page.getByLabel("blocks", { exact: true })).toHaveAccessibleDescription(/^json, conditionally required\b/);
  await expect(page.getByLabel("attachments", { exact: true })).toBeVisible();

  // They are in view without opening "More arguments", which keeps the other fourteen.
  const more = page.locator("details").filter({ has: page.getByText(/^More arguments/) });
  await expect(more.locator("summary")).toHaveText("More arguments (14)");
  await expect(more).not.toHaveAttribute("open");
  await expect(text).toBeVisible();
  await expect(page.getByText("One of text, blocks or attachments is required")).toBeVisible();
  // Descriptions copied from the platform's pages no longer point "below" at a page the console does not show.
  await expect(page.getByText("represents a channel, private group, or IM channel to send the message to.")).toBeVisible();
  await expect(page.getByText(/See below|for more details/)).toHaveCount(0);

  const form = page.locator("form").filter({ has: text });
  await form.screenshot({ path: test.info().outputPath("chat-post-message-form.png") });

  await channel.click();
  await page.keyboard.type("general");
  await text.click();
  await page.keyboard.type("Deploy finished");
  const posted = page.waitForResponse(isCallTo("chat.postMessage"));
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const body = (await (await posted).json()) as { ok: boolean; error?: string; message?: { text?: string } };
  expect(body.error).toBeUndefined();
  expect(body.message?.text).toBe("Deploy finished");
});

test("conversations.history opens on a table of its messages, ts and text first, with one row for one message", async ({ page }) => {
  // A message to show, posted through the console's own call route.
  await page.goto("/explorer?method=chat.postMessage&verb=POST-json&p.channel=general&p.text=Deploy%20finished");
  const posted = page.waitForResponse(isCallTo("chat.postMessage"));
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const { channel, ts } = (await (await posted).json()) as { ok: boolean; channel: string; ts: string };
  expect(channel).toMatch(/^C/);

  // A shared link to a read: it sends itself. From just before the post: #general's seeded history is older.
  const answered = page.waitForResponse(isCallTo("conversations.history"));
  await page.goto(`/explorer?method=conversations.history&p.channel=${channel}&p.oldest=${Math.floor(Number(ts)) - 1}`);
  const history = (await (await answered).json()) as { ok: boolean; messages: { ts: string; text: string; user?: string; bot_id?: string }[] };
  expect(history.ok).toBe(true);
  expect(history.messages).toHaveLength(1);
  const message = history.messages[0]!;

  const table = page.getByRole("table", { name: "Results" });
  await expect(page.getByTestId("row-count")).toHaveText("1 row");
  const headers = await table.getByRole("columnheader").allTextContents();
  expect(headers.slice(0, 2).map((h) => h.replace(/[▲▼↕]/g, ""))).toEqual(["ts", "text"]);
  // Scalar fields only: a message's blocks stay in the JSON view.
  expect(headers.map((h) => h.replace(/[▲▼↕]/g, ""))).not.toContain("blocks");
  const cells = table.getByRole("row").nth(1).getByRole("cell");
  await expect(cells.nth(0)).toHaveText(message.ts);
  await expect(cells.nth(1)).toHaveText("Deploy finished");

  await expect(page.getByTestId("page-items")).toHaveText("1 item on this page");

  await page.getByLabel("Filter rows").fill("deploy");
  await expect(page.getByTestId("row-count")).toHaveText("1 of 1 row");
  await page.getByLabel("Filter rows").fill("");

  // For a person to look at: the filter, the count and the table, as the Results panel shows them.
  await table.locator("xpath=..").screenshot({ path: test.info().outputPath("conversations-history-table.png") });
});
