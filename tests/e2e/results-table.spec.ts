import { expect, test, type APIRequestContext, type Locator, type Page, type Response } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The explorer's results table over a page of users.list: sorting by a column with its header (ascending,
 * descending, the platform's order again), and a filter that looks in one column or in all of them.
 */

const PAGE_SIZE = 200;
/** The order the table promises for text: the reader's collation, with numbers inside names by value. */
const COLLATOR = new Intl.Collator("en", { numeric: true });

interface Member {
  id: string;
  name: string;
  real_name?: string;
  tz?: string | null;
  is_admin?: boolean;
  is_bot?: boolean;
  deleted?: boolean;
  profile?: { real_name?: string; email?: string; title?: string };
}

async function resetEmulator(request: APIRequestContext) {
  expect((await postEmulatorAdmin(request, "reset", { users: 3000 })).ok()).toBe(true);
  expect((await postEmulatorAdmin(request, "rate-limits", { enabled: false })).ok()).toBe(true);
}

/** The install a person makes: "Add to workspace", then Allow on the emulator's consent page. */
async function installApp(page: Page) {
  await page.goto("/oauth/install");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/emulator") && !url.pathname.startsWith("/oauth"));
}

/** A shared explorer link for users.list, which sends itself on load (a read-only method). */
async function openUsersList(page: Page): Promise<Member[]> {
  const answered = page.waitForResponse((response: Response) => new URL(response.url()).pathname === "/api/call/users.list");
  await page.goto(`/explorer?method=users.list&p.limit=${PAGE_SIZE}`);
  const body = (await (await answered).json()) as { ok: boolean; members: Member[] };
  expect(body.ok).toBe(true);
  await expect(page.getByTestId("row-count")).toHaveText(`${body.members.length} rows`);
  return body.members;
}

/** The text of one column in the rows on screen, top to bottom. */
function visibleColumn(table: Locator, columnIndex: number): Promise<string[]> {
  return table
    .locator('[role="row"]:has([role="cell"])')
    .evaluateAll((rows, i) => rows.map((row) => row.querySelectorAll('[role="cell"]')[i]?.textContent ?? ""), columnIndex);
}

/** A member's cells as the table shows them, in its column order. */
function cellsOf(m: Member): string[] {
  const profile = m.profile ?? {};
  const cells = [m.id, m.name, m.real_name ?? profile.real_name, profile.email, profile.title, m.tz, m.is_admin, m.is_bot, m.deleted];
  return cells.map((v) => String(v ?? "").toLowerCase());
}

const NAME = 1;
const IS_ADMIN = 6;

test.beforeEach(async ({ page, request }) => {
  await resetEmulator(request);
  await installApp(page);
});

test.afterAll(async ({ request }) => {
  await resetEmulator(request);
});

test("sorts by a column's header: ascending, descending, then the platform's order again", async ({ page }) => {
  const members = await openUsersList(page);
  const table = page.getByRole("table", { name: "Members" });
  const header = table.getByRole("columnheader", { name: "name", exact: true });
  const sortByName = table.getByRole("button", { name: "Sort by name" });
  const ascending = members.map((m) => m.name).sort(COLLATOR.compare);
  await expect(header).not.toHaveAttribute("aria-sort");

  await sortByName.click();
  await expect(header).toHaveAttribute("aria-sort", "ascending");
  await expect(sortByName).toContainText("▲");
  await expect.poll(async () => (await visibleColumn(table, NAME)).slice(0, 10)).toEqual(ascending.slice(0, 10));
  const shown = await visibleColumn(table, NAME);
  expect(shown.length).toBeGreaterThan(10);
  expect(shown).toEqual([...shown].sort(COLLATOR.compare));

  await sortByName.click();
  await expect(header).toHaveAttribute("aria-sort", "descending");
  await expect(sortByName).toContainText("▼");
  await expect.poll(async () => (await visibleColumn(table, NAME)).slice(0, 10)).toEqual(ascending.toReversed().slice(0, 10));

  // The third press, from the keyboard, goes back to the order the platform sent.
  await sortByName.focus();
  await page.keyboard.press("Enter");
  await expect(header).not.toHaveAttribute("aria-sort");
  await expect(table.locator('[role="columnheader"][aria-sort]')).toHaveCount(0);
  await expect.poll(async () => (await visibleColumn(table, NAME)).slice(0, 10)).toEqual(members.slice(0, 10).map((m) => m.name));
});

test("filters in one chosen column, where all columns match more, and sorts what it keeps", async ({ page }) => {
  const members = await openUsersList(page);
  const table = page.getByRole("table", { name: "Members" });
  const filter = page.getByLabel("Filter rows");
  const column = page.getByLabel("Filter in column");
  // "true" is in is_admin, and in deleted too: all columns match the deleted members as well.
  const anyColumn = members.filter((m) => cellsOf(m).some((text) => text.includes("true")));
  const admins = members.filter((m) => m.is_admin === true);
  expect(admins.length).toBeGreaterThan(0);
  expect(anyColumn.length).toBeGreaterThan(admins.length);

  await expect(column).toHaveValue("");
  await filter.fill("true");
  await expect(page.getByTestId("row-count")).toHaveText(`${anyColumn.length} of ${members.length} rows`);

  await column.selectOption("is_admin");
  await expect(filter).toHaveAttribute("placeholder", "Filter members by is_admin…");
  await expect(page.getByTestId("row-count")).toHaveText(`${admins.length} of ${members.length} rows`);
  expect(new Set(await visibleColumn(table, IS_ADMIN))).toEqual(new Set(["true"]));

  await table.getByRole("button", { name: "Sort by name" }).click();
  const sortedAdmins = admins.map((m) => m.name).sort(COLLATOR.compare);
  await expect.poll(async () => (await visibleColumn(table, NAME)).slice(0, 10)).toEqual(sortedAdmins.slice(0, 10));
  // For a person to look at: the sorted header, the filter and its column.
  const top = (await filter.boundingBox())!.y;
  const box = (await table.boundingBox())!;
  await page.mouse.move(0, 0);
  await page.screenshot({
    path: test.info().outputPath("sorted-and-filtered.png"),
    clip: { x: box.x - 12, y: top - 12, width: box.width + 24, height: box.y + box.height - top + 24 },
  });

  await column.selectOption({ label: "All columns" });
  await expect(page.getByTestId("row-count")).toHaveText(`${anyColumn.length} of ${members.length} rows`);
});
