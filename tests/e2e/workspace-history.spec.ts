import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * Issue 41: a long conversation on the Workspace page. #general with 2,500 messages opens at the newest; a
 * person scrolls up (keys and the mouse wheel) page by page to its very first message; while they read up
 * there, another member posts in another browser: the view stays where it is and a "new messages" button
 * says something came, which takes them to the end. The list is virtualised (only the rows in view are in
 * the page) and the times carry no seconds.
 */

const COUNT = 2500;
const text = (i: number) => `history message ${String(i).padStart(4, "0")}`;

/** Posts the messages in order (the first and the last alone; those between a few at a time). */
async function seed(request: APIRequestContext): Promise<void> {
  const post = async (i: number) => expect((await postEmulatorAdmin(request, "act/post", { text: text(i) })).ok()).toBe(true);
  await post(0);
  for (let i = 1; i < COUNT - 1; i += 8) await Promise.all(Array.from({ length: Math.min(8, COUNT - 1 - i) }, (_, k) => post(i + k)));
  await post(COUNT - 1);
}

/** The top-level messages of #general, oldest first, as the emulator's admin surface pages them. */
async function topLevelTexts(request: APIRequestContext): Promise<string[]> {
  const member = (await (await request.get("/emulator/admin/workspace/member")).json()) as { conversations: Array<{ id: string; name: string }> };
  const channel = member.conversations.find((c) => c.name === "general")!.id;
  const texts: string[] = [];
  let cursor = "";
  do {
    const page = (await (
      await request.get(`/emulator/admin/workspace/history?channel=${channel}&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)
    ).json()) as { messages: Array<{ ts: string; text: string; thread_ts?: string }>; response_metadata: { next_cursor: string } };
    texts.unshift(...page.messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts).map((m) => m.text));
    cursor = page.response_metadata.next_cursor;
  } while (cursor !== "");
  return texts;
}

const distanceFromEnd = (scroller: Locator) => scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

async function openGeneral(page: Page): Promise<Locator> {
  await page.goto("/workspace");
  await expect(page.getByRole("heading", { name: "#general" })).toBeVisible();
  return page.getByRole("region", { name: "Messages in #general" });
}

test("a 2,500-message channel opens at the newest, scrolls up to its first message, and keeps the view when another member posts", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  await postEmulatorAdmin(request, "reset", {});
  await seed(request);

  const scroller = await openGeneral(page);
  const messages = scroller.getByRole("list", { name: "Messages" });
  await expect(messages.getByRole("listitem").filter({ hasText: text(COUNT - 1) })).toBeVisible();
  await expect.poll(() => distanceFromEnd(scroller)).toBeLessThan(40);
  // Virtualised: a screenful of rows in the page, not thousands.
  expect(await messages.locator(":scope > li").count()).toBeLessThan(80);
  // Times to the minute, as a chat client shows them ("2:05 PM", "14:05"): no seconds.
  const time =
    (await messages
      .getByRole("listitem")
      .filter({ hasText: text(COUNT - 1) })
      .locator("time")
      .first()
      .textContent()) ?? "";
  expect(time).toMatch(/^\d{1,2}:\d{2}(\s?[AP]M)?$/);

  // The keyboard: the list takes the focus, and Page Up scrolls it up.
  await scroller.focus();
  await page.keyboard.press("PageUp");
  await expect.poll(() => distanceFromEnd(scroller)).toBeGreaterThan(100);

  // The mouse wheel, over the list, to the very beginning: older pages load as the top comes near.
  const box = (await scroller.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const beginning = scroller.getByText("This is the very beginning of #general.");
  // At the top with nothing more to read: the last page, loaded above, keeps the view where it was, so the
  // person (and this test) scrolls on until the top stays the top.
  const atTop = async () => (await beginning.isVisible()) && (await scroller.evaluate((el) => el.scrollTop)) === 0;
  for (let turn = 0; turn < 600 && !(await atTop()); turn++) {
    await page.mouse.wheel(0, -4000);
    await page.waitForTimeout(30);
  }
  await expect(beginning).toBeVisible();
  // The first row is the channel's first message (the workspace's seeded ones come before those posted here).
  const all = await topLevelTexts(request);
  expect(all.length).toBeGreaterThan(COUNT);
  await expect(messages.locator(":scope > li").first()).toContainText(all[0]!);
  // Everything read now, the list says how long it is.
  await expect(messages.locator(":scope > li").first()).toHaveAttribute("aria-setsize", String(all.length));

  // Another member, in another browser, posts while this one reads the first messages.
  const other = await browser.newContext();
  try {
    const second = await other.newPage();
    await openGeneral(second);
    const you = second.getByRole("combobox", { name: "You are" });
    await you.selectOption((await you.locator("option").nth(1).getAttribute("value")) ?? "");
    const before = await scroller.evaluate((el) => el.scrollTop);
    const composer = second.getByRole("combobox", { name: "Message #general" });
    await composer.pressSequentially("hello from below");
    await composer.press("Enter");
    await expect(second.getByRole("listitem").filter({ hasText: "hello from below" })).toBeVisible();

    const newMessages = page.getByRole("button", { name: "New messages" });
    await expect(newMessages).toBeVisible();
    // The view did not move: the first message is where it was.
    expect(Math.abs((await scroller.evaluate((el) => el.scrollTop)) - before)).toBeLessThan(2);
    await expect(beginning).toBeVisible();
    await expect(messages.locator(":scope > li").first()).toContainText(all[0]!);

    await newMessages.click();
    await expect(messages.getByRole("listitem").filter({ hasText: "hello from below" })).toBeVisible();
    await expect.poll(() => distanceFromEnd(scroller)).toBeLessThan(40);
    await expect(newMessages).toBeHidden();
  } finally {
    await other.close();
  }
});
