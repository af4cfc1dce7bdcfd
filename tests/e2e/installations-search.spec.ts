import { spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { startPostgres, type TestPostgres } from "../unit/support/postgres";
import { startSpecConsole, stopSpecConsole } from "./support/console-server";

/**
 * Issue 43, many installations: a console of this spec's own on PostgreSQL, seeded with 300 installations by
 * `npm run seed` (workspaces "Acme 00000" to "Acme 00299"), read a page at a time from the database. A person
 * types a workspace's name key by key on the dashboard and in the explorer's installation picker and finds
 * it among them, and pages through the list with Next and Previous.
 */
const port = Number(process.env.E2E_PORT ?? 3100) + 5;
const origin = `http://localhost:${port}`;
const COUNT = 300;

let postgres: TestPostgres;
let server: ChildProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  postgres = await startPostgres();
  const shared = {
    DATABASE_URL: await postgres.createDatabase("installations_search"),
    ENCRYPTION_KEYS: randomBytes(32).toString("base64"),
    EMULATOR_ADMIN_TOKEN: randomBytes(32).toString("base64url"),
  };
  server = await startSpecConsole(port, shared, "the spec's console on PostgreSQL");
  const seeded = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/seed.ts", "--installations", String(COUNT), "--emulator-url", `${origin}/emulator`],
    {
      env: { ...process.env, ...shared, APP_ORIGIN: origin, DATA_DIR: "memory://", SESSION_PASSWORD: randomBytes(32).toString("base64url"), LOG_LEVEL: "warn" },
      encoding: "utf8",
    },
  );
  expect(seeded.status, `${seeded.stdout}\n${seeded.stderr}`).toBe(0);
});

test.afterAll(async () => {
  stopSpecConsole(server);
  await postgres?.stop();
});

test("finds one workspace among 300 by typing its name, and pages through the list", async ({ page }) => {
  await page.goto(`${origin}/`);
  const cards = page.locator("article[data-installation]");
  const status = page.getByRole("region", { name: "Find installations" }).getByRole("status");
  await expect(cards).toHaveCount(50);
  await expect(status).toHaveText(`Showing 50 of ${COUNT}.`);
  await expect(page.getByLabel("Show")).toContainText(`All (${COUNT})`);

  // Next and Previous follow the server's cursors: the second page, then back to the first.
  const firstPage = await cards.first().getAttribute("data-installation");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/[?&]after=/);
  await expect(cards.first()).not.toHaveAttribute("data-installation", firstPage!);
  await expect(cards).toHaveCount(50);
  await page.getByRole("button", { name: "Previous" }).click();
  await expect(page).toHaveURL(/[?&]before=/);
  await expect(cards.first()).toHaveAttribute("data-installation", firstPage!);
  await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();

  // Typed key by key: the list narrows as typing rests, to the one workspace.
  const search = page.getByLabel("Search installations");
  await search.pressSequentially("acme 0021", { delay: 60 });
  await expect(cards).toHaveCount(10);
  await expect(status).toHaveText(`Showing 10 of 10 matching, of ${COUNT}.`);
  await search.pressSequentially("7", { delay: 60 });
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText("Acme 00217");
  await expect(page).toHaveURL(/[?&]q=acme(\+|%20)00217/);

  // A cursor the console did not give: the list says what went wrong, not a page from nowhere.
  const refused = await page.request.get(`${origin}/api/session?after=garbled`, { headers: { "x-switchboard-request": "1" } });
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toMatchObject({ error: "invalid_cursor" });
});

test("the explorer's installation picker finds a workspace as the person types", async ({ page }) => {
  await page.goto(`${origin}/explorer`);
  const picker = page.getByLabel("Installation", { exact: true });
  const found = page.getByText(/found$|shown: type to find another\.$/);
  await expect(found).toHaveText(`50 of ${COUNT} shown: type to find another.`);
  await expect(picker.locator("option")).toHaveCount(50);

  const search = page.getByLabel("Find a workspace");
  await search.pressSequentially("Acme 0029", { delay: 60 });
  await expect(found).toHaveText("10 found");
  await expect(picker.locator("option")).toHaveCount(10);
  await search.pressSequentially("9", { delay: 60 });
  await expect(found).toHaveText("1 found");
  await expect(picker.locator("option")).toHaveCount(1);
  await expect(picker.locator("option:checked")).toContainText("Acme 00299");

  // The call goes out with the installation found: auth.test answers for its workspace.
  const method = page.getByLabel("Method");
  await method.fill("auth.test");
  await method.press("Tab");
  await expect(method).toHaveValue("auth.test");
  const send = page.getByRole("button", { name: "Send", exact: true });
  await expect(send).toBeEnabled();
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/auth.test");
  await send.click();
  const answer = await answered;
  expect(new URL(answer.url()).searchParams.get("installation")).toBe(await picker.inputValue());
  expect(await answer.json()).toMatchObject({ ok: true, team: "Acme 00299" });
});

test("a collection runs against a workspace found by typing in Run against, past the first page of installations", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(`${origin}/explorer`);
  const method = page.getByRole("combobox", { name: "Method" });
  await method.click();
  await page.keyboard.press("Control+a");
  await method.pressSequentially("auth.test");
  await page.keyboard.press("Tab");
  await expect(method).toHaveValue("auth.test");
  await page.getByLabel(/^Save .+ as$/).pressSequentially("Who am I");
  await page.getByLabel("New collection's name").pressSequentially("Checks");
  await page.getByRole("button", { name: "Save request" }).click();
  await expect(page.getByRole("status").filter({ hasText: 'Saved "Who am I".' })).toBeVisible();

  // The explorer's own picker is left as it is: "Run against" finds the workspace itself, typed key by key.
  const runAgainst = page.getByLabel("Run against");
  await expect(runAgainst.locator("option", { hasText: "Acme 00299" })).toHaveCount(0);
  const find = page.getByLabel("Find the workspace for the run");
  await find.pressSequentially("Acme 00299", { delay: 60 });
  await expect(runAgainst.locator("option")).toHaveCount(1);
  await expect(runAgainst.locator("option:checked")).toContainText("Acme 00299");
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await runAgainst.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`run-against-${width}.png`) });
  }
  await page.setViewportSize({ width: 1366, height: 900 });

  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/auth.test");
  await page.getByRole("button", { name: "Run the collection" }).click();
  const answer = await answered;
  expect(await answer.json()).toMatchObject({ ok: true, team: "Acme 00299" });
  await expect(page.getByRole("region", { name: "Run results" })).toContainText("Acme 00299");
  // Cleared, the search leaves the workspace chosen offered and picked.
  await find.fill("");
  await expect(runAgainst.locator("option:checked")).toContainText("Acme 00299");
});

test("the History page names a call made past the first page of installations, and filters by a workspace found by typing", async ({ page }, testInfo) => {
  const idOf = async (name: string) => {
    const found = await page.request.get(`${origin}/api/session?q=${encodeURIComponent(name)}`, { headers: { "x-switchboard-request": "1" } });
    const body = (await found.json()) as { installations: Array<{ id: string; team: { name: string } }> };
    return body.installations.find((i) => i.team.name === name)!.id;
  };
  // A call with a workspace the session's first page holds, and one with a workspace far past it.
  for (const name of ["Acme 00000", "Acme 00150"]) {
    const called = await page.request.get(`${origin}/api/call/auth.test?installation=${await idOf(name)}&token=bot`, {
      headers: { "x-switchboard-request": "1" },
    });
    expect(await called.json()).toMatchObject({ ok: true, team: name });
  }

  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(`${origin}/explorer/history`);
  const rows = page.getByRole("rowgroup", { name: "History entries" }).getByRole("row");
  await expect(rows.filter({ hasText: "auth.test" }).filter({ hasText: /in Acme 00150/ })).not.toHaveCount(0);
  await expect(rows.filter({ hasText: /in Acme 00000/ })).not.toHaveCount(0);

  // The filter finds the workspace as it is typed, past the first 50 it offers.
  const filter = page.getByLabel("Installation", { exact: true });
  await expect(filter.locator("option", { hasText: "Acme 00150" })).toHaveCount(0);
  await page.getByLabel("Find an installation").pressSequentially("Acme 00150", { delay: 60 });
  await expect(filter.locator("option")).toHaveCount(2);
  await filter.selectOption({ label: (await filter.locator("option", { hasText: "Acme 00150" }).textContent())! });
  await expect(rows.filter({ hasText: /in Acme 00000/ })).toHaveCount(0);
  await expect(rows.first()).toContainText("Acme 00150");
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: testInfo.outputPath(`history-filter-${width}.png`), fullPage: true });
  }
  // Cleared, the search keeps the filter's workspace offered and chosen.
  await page.getByLabel("Find an installation").fill("");
  await expect(filter.locator("option:checked")).toContainText("Acme 00150");
});
