import { expect, test } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * Issue 41: what a row of the Workspace page's message list does, done as a person does it. The list's
 * handlers stay the same objects while the page renders again for things the rows do not show (an older
 * page being read, an act's note), and each row's content is memoised apart from its place: a reaction
 * picked from the row's menu, a thread opened and replied to (typed key by key) and the menu worked from
 * the keyboard must still reach the emulator as the member, and show what it answered.
 */

test("a member reacts from a row's menu, replies in its thread, and works the menu from the keyboard", async ({ page, request }) => {
  expect((await postEmulatorAdmin(request, "reset", {})).ok()).toBe(true);
  for (const text of ["first message", "second message", "third message"]) expect((await postEmulatorAdmin(request, "act/post", { text })).ok()).toBe(true);

  await page.goto("/workspace");
  const list = page.getByRole("region", { name: "Messages in #general" });
  const second = list.getByRole("listitem").filter({ hasText: "second message" });
  await expect(second).toBeVisible();

  // A reaction from the row's menu: the emulator stores it and the row shows it, pressed (the member's own).
  await second.getByText("+ react").click();
  await second.getByRole("button", { name: "React with eyes" }).click();
  await expect(second.getByRole("button", { name: "eyes: 1, take back yours" })).toHaveAttribute("aria-pressed", "true");
  // Picking a reaction closes the menu (it would cover the row's thread button).
  await expect(second.getByRole("button", { name: "React with eyes" })).toBeHidden();
  // Opened again, a click elsewhere closes it.
  await second.getByText("+ react").click();
  await expect(second.getByRole("button", { name: "React with eyes" })).toBeVisible();
  // Where a person looks for it: just under its button, from its left edge (the row places it, not a box around the button).
  const opener = (await second.getByText("+ react").boundingBox())!;
  const popup = (await second.getByRole("button", { name: "React with +1" }).boundingBox())!;
  expect(popup.y).toBeGreaterThanOrEqual(opener.y + opener.height - 1);
  expect(popup.y).toBeLessThan(opener.y + opener.height + 12);
  expect(Math.abs(popup.x - opener.x)).toBeLessThan(12);
  await page.getByRole("heading", { level: 1 }).first().click();
  await expect(second.getByRole("button", { name: "React with eyes" })).toBeHidden();

  // The thread: opened, a reply typed key by key, then the row counts it.
  await second.getByRole("button", { name: "Reply in thread" }).click();
  const replyBox = second.getByRole("textbox", { name: "Reply in thread" });
  await replyBox.pressSequentially("a reply, typed");
  await replyBox.press("Enter");
  await expect(second.getByRole("list", { name: "Thread replies" }).getByText("a reply, typed")).toBeVisible();
  await expect(second.getByRole("button", { name: "1 reply" })).toHaveAttribute("aria-expanded", "true");

  // The keyboard: the third row's menu opened with Enter, a reaction picked with Enter.
  const third = list.getByRole("listitem").filter({ hasText: "third message" });
  await third.getByText("+ react").focus();
  await page.keyboard.press("Enter");
  // Escape closes it and gives the focus back to its button; opened again with Enter, a reaction picked with Enter.
  await third.getByRole("button", { name: "React with tada" }).focus();
  await page.keyboard.press("Escape");
  await expect(third.getByRole("button", { name: "React with tada" })).toBeHidden();
  await expect(third.getByRole("button", { name: "React", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await third.getByRole("button", { name: "React with tada" }).focus();
  await page.keyboard.press("Enter");
  await expect(third.getByRole("button", { name: "tada: 1, take back yours" })).toBeVisible();

  // What the emulator holds: the reactions by this member, the reply in the second message's thread.
  const member = (await (await request.get("/emulator/admin/workspace/member")).json()) as { user: string; conversations: Array<{ id: string; name: string }> };
  const channel = member.conversations.find((c) => c.name === "general")!.id;
  const history = (await (await request.get(`/emulator/admin/workspace/history?channel=${channel}&limit=100`)).json()) as {
    messages: Array<{ ts: string; text: string; thread_ts?: string; reactions?: Array<{ name: string; users: string[] }> }>;
  };
  const byText = (text: string) => history.messages.find((m) => m.text === text)!;
  expect(byText("second message").reactions).toEqual([expect.objectContaining({ name: "eyes", users: [member.user] })]);
  expect(byText("third message").reactions).toEqual([expect.objectContaining({ name: "tada", users: [member.user] })]);
  expect(byText("a reply, typed").thread_ts).toBe(byText("second message").ts);
});
