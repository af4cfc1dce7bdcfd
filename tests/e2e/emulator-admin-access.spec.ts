import type { ChildProcess } from "node:child_process";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createEmulator } from "@/lib/emulator/emulator";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { Workspace } from "@/lib/emulator/types";
import { startSpecConsole, stopSpecConsole } from "./support/console-server";

/**
 * The embedded emulator's admin surface (/emulator/admin/…) on a console where people sign in: a member
 * signed in in one browser, following the emulator page's own links or scripting a same-origin fetch, is
 * refused with a clear JSON error and changes nothing; a browser nobody signed in to is refused too; an admin
 * in another browser is served, and their Workspace page works while a member's says it is for admins.
 * A console with sign-in of this spec's own (on loopback, as the developer's), from the suite's build, 61 ports on.
 */
const port = Number(process.env.E2E_PORT ?? 3100) + 61;
const origin = `http://localhost:${port}`;
const SEED = "emulator-admin-access";
const USERS = 50;
let server: ChildProcess | undefined;

const ws = createEmulator({ seed: SEED, users: USERS }).state.workspace as Workspace;
const [memberId, admin] = Array.from({ length: 20 }, (_, i) => memberIdAt(ws, i)).filter((id) => canSignIn(ws, id)) as [string, string];

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startSpecConsole(
    port,
    { AUTH_MODE: "oidc", ADMIN_USERS: admin, EMULATOR_SEED: SEED, EMULATOR_USERS: String(USERS) },
    "the console with sign-in",
  );
});

test.afterAll(() => stopSpecConsole(server));

/** A new browser signed in as `userId` on the platform's sign-in page, through the console's own. */
async function signedIn(browser: Browser, userId: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${origin}/`);
  await page.getByRole("link", { name: /^Sign in with/ }).click();
  await expect(page).toHaveURL(/\/emulator\/openid\/connect\/authorize\?/);
  await page.getByLabel("Sign in as").selectOption(userId);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${origin}/`);
  await expect(page.getByTestId("signed-in-person")).toBeVisible();
  return page;
}

/** A POST the page's own script sends to the admin surface (same origin, JSON), as any script on the console's origin could. */
function postFromPage(page: Page, path: string, body: unknown): Promise<{ status: number; body: { ok: boolean; error?: string; message?: string } }> {
  return page.evaluate(
    async ([path, body]) => {
      const response = await fetch(path as string, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      return { status: response.status, body: await response.json() };
    },
    [path, body] as const,
  );
}

/** Reads the emulator's faults with the admin token's stand-in here: an admin's browser. */
async function errorRate(page: Page): Promise<number> {
  const state = await page.evaluate(async () => (await fetch("/emulator/admin/state")).json());
  return (state as { faults: { error_rate: number } }).faults.error_rate;
}

test("a member is refused the emulator's admin surface with a clear error, a stranger too, and an admin in another browser is served", async ({ browser }) => {
  const member = await signedIn(browser, memberId);
  // The home page offers a member no link into the admin surface.
  await expect(member.getByRole("link", { name: "Emulator" })).toBeVisible();
  await expect(member.getByRole("link", { name: "State", exact: true })).toHaveCount(0);

  // The emulator's own page still lists the admin routes (it knows nothing of the console's sessions): following one says why not.
  await member.getByRole("link", { name: "Emulator" }).click();
  await expect(member.getByRole("heading", { name: "Admin (development only)" })).toBeVisible();
  const [refused] = await Promise.all([member.waitForResponse(/\/emulator\/admin\/state$/), member.getByRole("link", { name: /\/admin\/state$/ }).click()]);
  expect(refused.status()).toBe(403);
  await expect(member.locator("body")).toContainText("emulator_admin_only");
  await expect(member.locator("body")).toContainText("Only an admin (ADMIN_USERS) may use the embedded emulator's admin surface");

  // A script on the console's origin in the member's browser changes nothing either.
  const faults = await postFromPage(member, "/emulator/admin/faults", { error_rate: 1 });
  expect(faults).toMatchObject({ status: 403, body: { ok: false, error: "emulator_admin_only" } });
  const reset = await postFromPage(member, "/emulator/admin/reset", {});
  expect(reset.status).toBe(403);

  // The Workspace page (issue 41: admins only when people sign in) says so to a member, rather than breaking.
  await member.goto(`${origin}/workspace`);
  await expect(member.getByRole("alert").filter({ hasText: "Only an admin may act as a member of the emulated workspace" })).toBeVisible();

  // A browser nobody signed in to: from the console's sign-in page, the same script is refused.
  const strangerContext = await browser.newContext();
  const stranger = await strangerContext.newPage();
  await stranger.goto(`${origin}/signin`);
  const anonymous = await postFromPage(stranger, "/emulator/admin/faults", { error_rate: 1 });
  expect(anonymous).toMatchObject({ status: 401, body: { ok: false, error: "sign_in_required" } });
  const read = await stranger.evaluate(async () => (await fetch("/emulator/admin/apps")).status);
  expect(read).toBe(401);

  // An admin, in another browser, is served: the State link, a change, and the Workspace page.
  const boss = await signedIn(browser, admin);
  expect(await errorRate(boss)).toBe(0);
  await boss.getByRole("link", { name: "State", exact: true }).click();
  await expect(boss.locator("body")).toContainText('"ok":true');
  await boss.goto(`${origin}/`);
  const changed = await postFromPage(boss, "/emulator/admin/faults", { latency_ms: 0 });
  expect(changed).toMatchObject({ status: 200, body: { ok: true } });
  await boss.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspace" }).click();
  await expect(boss.getByRole("heading", { name: "#general" })).toBeVisible();
  await expect(boss.getByRole("alert").filter({ hasText: "Only an admin" })).toHaveCount(0);
  // Nothing the member or the stranger sent took effect.
  expect(await errorRate(boss)).toBe(0);
  await strangerContext.close();
});
