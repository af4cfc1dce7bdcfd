import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createEmulator } from "@/lib/emulator/emulator";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { Workspace } from "@/lib/emulator/types";
import { seriousViolations } from "./support/axe";
import { startSpecConsole, stopSpecConsole } from "./support/console-server";

/**
 * Saved requests and collections as a team uses them (issue 42), on a console with sign-in in front of an
 * emulator with two workspaces: an admin of the first saves two requests into a collection (names typed key
 * by key), takes step 1's channel into step 2, runs the collection against an installation in each workspace,
 * reorders it with the keyboard, and shares it by link; a teammate opens the link in a browser of their own
 * (read-only) until the link is revoked; the collection goes out as a file and comes back. This spec starts
 * its console from the suite's build (E2E_PORT's), eleven ports on.
 */
const mainPort = Number(process.env.E2E_PORT ?? 3100);
const port = mainPort + 11;
const origin = `http://localhost:${port}`;
const SEED = "collections-e2e";
const USERS = 50;
let server: ChildProcess | undefined;

const [one, two] = [...createEmulator({ seed: SEED, workspaces: 2, users: USERS }).state.workspaces.values()] as [Workspace, Workspace];
const membersOf = (ws: Workspace) => Array.from({ length: 20 }, (_, i) => memberIdAt(ws, i)).filter((id) => canSignIn(ws, id));
const owner = membersOf(one)[0]!;
const teammate = membersOf(one)[1]!;
const installerTwo = membersOf(two)[0]!;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startSpecConsole(
    port,
    { AUTH_MODE: "oidc", ADMIN_USERS: owner, EMULATOR_SEED: SEED, EMULATOR_USERS: String(USERS), EMULATOR_WORKSPACES: "2" },
    "the collections console",
  );
});
test.afterAll(() => stopSpecConsole(server));

async function signedIn(browser: Browser, ws: Workspace, userId: string): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.getByRole("link", { name: /^Sign in with / }).click();
  await expect(page).toHaveURL(/\/emulator\/openid\/connect\/authorize\?/);
  if (!(await page.locator("p.lead").innerText()).startsWith(ws.team.name)) await page.getByRole("link", { name: ws.team.name }).click();
  await page.getByLabel("Sign in as").selectOption(userId);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${origin}/`);
  return page;
}

async function addToWorkspace(page: Page, ws: Workspace, userId: string): Promise<string> {
  await page.getByRole("link", { name: "Add to workspace" }).click();
  await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
  if (!(await page.locator("p.lead").innerText()).startsWith(ws.team.name)) await page.getByRole("link", { name: ws.team.name }).click();
  await page.getByLabel("Installing as").selectOption(userId);
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);
  return new URL(page.url()).searchParams.get("installed")!;
}

/** Types a method's name key by key and leaves the field with Tab, which picks it (its verb and encoding with it). */
async function pickMethod(page: Page, method: string) {
  const field = page.getByRole("combobox", { name: "Method" });
  await field.click();
  await page.keyboard.press("Control+a");
  await field.pressSequentially(method);
  await page.keyboard.press("Tab");
  await expect(field).toHaveValue(method);
}

async function saveAs(page: Page, name: string, newCollection?: string) {
  await page.getByLabel(/^Save .+ as$/).pressSequentially(name);
  if (newCollection) await page.getByLabel("New collection's name").pressSequentially(newCollection);
  await page.getByRole("button", { name: "Save request" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Saved "${name}".` })).toBeVisible();
}

/** The collection's requests: the list's own items (a step's values from earlier steps are a list inside its item). */
const requestsOf = (page: Page) => page.getByRole("list", { name: "Requests of Onboarding" }).locator(":scope > li");

/**
 * Runs the opened collection against an installation (picked by its workspace's id) and answers what went to
 * /api/call for each step and what came back, read off the network as the page sent it.
 */
async function runAgainst(page: Page, teamId: string) {
  const runFor = page.getByLabel("Run against");
  const option = runFor.locator("option", { hasText: `(${teamId})` });
  await runFor.selectOption((await option.getAttribute("value"))!);
  const calls: Array<{ url: URL; body: Record<string, unknown> }> = [];
  const listen = async (response: import("@playwright/test").Response) => {
    if (!new URL(response.url()).pathname.startsWith("/api/call/")) return;
    calls.push({ url: new URL(response.url()), body: (await response.json()) as Record<string, unknown> });
  };
  page.on("response", listen);
  await page.getByRole("button", { name: "Run the collection" }).click();
  await expect(page.getByRole("status").filter({ hasText: /: 2 of 2 answered\.$/ })).toBeVisible();
  await expect.poll(() => calls.length).toBe(2);
  page.off("response", listen);
  const results = page.getByRole("region", { name: "Run results" });
  // The badges: the answers themselves stay folded until opened.
  await expect(results.getByText("ok: true", { exact: true }).filter({ visible: true })).toHaveCount(2);
  return calls;
}

test("a collection saved, bound, run against two workspaces, reordered by keyboard, shared by link with a teammate, exported and imported", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const second = await signedIn(browser, two, installerTwo);
  const installationTwo = await addToWorkspace(second, two, installerTwo);
  const page = await signedIn(browser, one, owner);
  const installationOne = await addToWorkspace(page, one, owner);

  await page.goto(`${origin}/explorer?installation=${encodeURIComponent(installationOne)}`);
  await pickMethod(page, "chat.postMessage");
  await page.getByLabel(/^channel/).fill("general");
  await page.getByLabel(/^text/).pressSequentially("Deploy finished");
  await saveAs(page, "Post a note", "Onboarding");
  await pickMethod(page, "conversations.info");
  // The form keeps what chat.postMessage had: this step's channel comes from step 1's answer instead.
  await page.getByLabel(/^channel/).fill("");
  await page.getByRole("button", { name: "Remove parameter 1" }).click();
  await saveAs(page, "Read the channel");
  await expect(requestsOf(page).filter({ hasText: "Read the channel" })).not.toContainText("channel=general");
  await expect(requestsOf(page)).toHaveCount(2);

  // Step 2's channel is step 1's answer's channel: typed as a person would, in step 2's row.
  const readRow = requestsOf(page).filter({ hasText: "Read the channel" });
  await readRow.getByText("Values from earlier steps (0)").click();
  const bind = readRow.getByRole("form", { name: "Take a value into Read the channel" });
  await bind.getByLabel("Argument").pressSequentially("channel");
  await bind.getByLabel("from step").fill("1");
  await bind.getByLabel("at path").pressSequentially("channel");
  await bind.getByRole("button", { name: "Add value" }).click();
  await expect(readRow.getByRole("list", { name: "Values Read the channel takes from earlier steps" })).toContainText("channel ← step 1's channel");

  // The same collection against each workspace: step 2 sends the channel step 1 answered, there.
  for (const [teamId, installation] of [
    [one.team.id, installationOne],
    [two.team.id, installationTwo],
  ] as const) {
    const [post, info] = await runAgainst(page, teamId);
    expect(post!.url.pathname).toBe("/api/call/chat.postMessage");
    expect(info!.url.pathname).toBe("/api/call/conversations.info");
    for (const call of [post!, info!]) {
      expect(call.url.searchParams.get("installation")).toBe(installation);
      expect(call.url.searchParams.get("savedRequestId")).toMatch(/^req_/);
    }
    const channel = post!.body.channel as string;
    expect(channel).toMatch(/^C/);
    expect(info!.url.searchParams.get("channel")).toBe(channel);
    expect(info!.body).toMatchObject({ ok: true, channel: { id: channel, name: "general" } });
  }

  // What the page looks like with a run's results (step 2's answer opened), at a laptop's width and a phone's,
  // light and dark; axe finds nothing serious in either scheme.
  await page
    .getByRole("region", { name: "Run results" })
    .getByText(/^Answer/)
    .nth(1)
    .click();
  for (const width of [1366, 390]) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      if (width === 1366) expect(await seriousViolations(page), scheme).toEqual([]);
      await page.screenshot({ path: `test-results/explorer-collections-${width}-${scheme}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: "light" });

  // Reordered with the keyboard alone: the focus stays with the moved request.
  await page.getByRole("button", { name: "Move Read the channel up" }).focus();
  await page.keyboard.press("Enter");
  await expect(requestsOf(page).first()).toContainText("Read the channel");
  await expect(page.getByRole("button", { name: "Move Read the channel down" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(requestsOf(page).first()).toContainText("Post a note");

  expect(await seriousViolations(page)).toEqual([]);

  // Shared by link: a teammate signed in in a browser of their own opens it, read-only.
  await page.getByRole("button", { name: "Create a link" }).click();
  const link = await page.getByLabel(/^Share link/).inputValue();
  expect(link).toMatch(new RegExp(`^${origin}/explorer\\?shared=[A-Za-z0-9_-]{32}$`));
  const mate = await signedIn(browser, one, teammate);
  await mate.goto(link);
  await expect(mate.getByRole("heading", { name: /Onboarding/ })).toContainText("(read-only)");
  await expect(requestsOf(mate)).toHaveCount(2);
  await expect(mate.getByRole("button", { name: "Rename Post a note" })).toHaveCount(0);
  await expect(mate.getByRole("button", { name: /^Delete/ })).toHaveCount(0);
  // Opening a request puts it in the teammate's form.
  await requestsOf(mate).filter({ hasText: "Post a note" }).getByRole("button", { name: /^Open/ }).click();
  await expect(mate.getByRole("combobox", { name: "Method" })).toHaveValue("chat.postMessage");

  // Revoked, the link opens nothing.
  await page.getByRole("button", { name: "Revoke the link" }).click();
  await expect(page.getByRole("button", { name: "Create a link" })).toBeVisible();
  await mate.goto(link);
  await expect(mate.getByRole("alert").filter({ hasText: "This link opens no collection" })).toBeVisible();

  // Out as a file and back in: the imported collection exports the same bytes.
  const exported = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const file = await exported;
  expect(file.suggestedFilename()).toBe("onboarding.switchboard.ndjson");
  const text = readFileSync((await file.path())!, "utf8");
  expect(text.split("\n")[0]).toBe('{"collection":"Onboarding","format":"switchboard.collection","version":1}');
  await page.getByLabel("Import a file…").setInputFiles({ name: "onboarding.ndjson", mimeType: "application/x-ndjson", buffer: Buffer.from(text) });
  await expect(page.getByRole("status").filter({ hasText: 'Imported 2 requests into "Onboarding".' })).toBeVisible();
  const again = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  expect(readFileSync((await (await again).path())!, "utf8")).toBe(text);
});
