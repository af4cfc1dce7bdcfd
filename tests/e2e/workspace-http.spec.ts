import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import { App, LogLevel } from "@slack/bolt";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { defaultAppCredentials } from "@/lib/emulator";
import { adminCall, appManifest, createSocketModeApp, type InstalledApp } from "../unit/emulator/support/socket-mode-app";
import { seriousViolations } from "./support/axe";
import { startSpecConsole, stopSpecConsole } from "./support/console-server";
import { freePort, startStandaloneEmulator, type StandaloneEmulator } from "./support/hosted";
import { triage, triageManifest, TRIAGE_EVENTS, TRIAGE_SCOPES, type Triage } from "./support/triage-app";

/**
 * The Workspace page over HTTP: a standalone emulator (`npm run emulator`), a console of its own pointed at it
 * with PLATFORM_BASE_URL, and an unmodified @slack/bolt app on Bolt's HTTP receiver on a loopback port, its
 * request URLs set in its manifest as a developer sets them. A person clicks through part 3 on the page:
 * `/triage` typed key by key, the modal's pushed view and its Back control (what was typed kept), a title
 * refused under its field then fixed, the app's message with a button and a static select, each answered by
 * the app replacing the message; the ✕ closing a whole stack; a new member added and seen live in another
 * browser, the app told (team_join). Then what fails says why: the app stopped (dispatch_failed), and an app
 * that refuses the emulator's signature (HTTP 401), each note linking to the delivery on the events page.
 */

const SEED = "workspace-http-e2e";
const ADMIN_TOKEN = randomBytes(32).toString("base64url");
const consoleApp = defaultAppCredentials(SEED, "rotation");

let emulator: StandaloneEmulator;
let server: ChildProcess | undefined;
let origin = "";
let installed: InstalledApp;
let boltPort = 0;
let bolt: App | undefined;
let got: Triage;

test.describe.configure({ mode: "serial" });

/** The app on Bolt's HTTP receiver at its port, with `signingSecret` (the app's own unless a test says otherwise). */
async function startBolt(signingSecret: string): Promise<App> {
  const app = new App({ token: installed.botToken, signingSecret, clientOptions: { slackApiUrl: `${emulator.url}/api/` }, logLevel: LogLevel.ERROR });
  got = triage(app);
  await app.start(boltPort);
  return app;
}

async function openWorkspace(page: Page) {
  await page.goto(`${origin}/`);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspace" }).click();
  await expect(page.getByRole("heading", { name: "Workspace", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "#general" })).toBeVisible();
}

/** Screenshots at 1366 and 390 px, light and dark, and axe clean in each scheme. */
async function lookAt(page: Page, name: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: test.info().outputPath(`${name}-${scheme}-${width}.png`) });
    }
    expect(await seriousViolations(page)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** Types `/triage <text>` into #general key by key and sends it. */
async function runTriage(page: Page, text: string) {
  const composer = page.getByRole("combobox", { name: "Message #general" });
  await composer.pressSequentially(`/triage ${text}`);
  await composer.press("Enter");
}

/** The emulator's interaction records of `type` (view_submission, view_closed…), for counting what the app was sent. */
async function interactionsOf(type: string): Promise<number> {
  const { interactions } = (await adminCall(emulator, "interactions")) as { interactions: Array<{ type: string }> };
  return interactions.filter((i) => i.type === type).length;
}

/** The modals the emulator holds for the member the page acts as. */
async function heldModals(page: Page): Promise<unknown[]> {
  const user = await page.getByRole("combobox", { name: "You are" }).inputValue();
  return ((await adminCall(emulator, `views?user=${user}`)) as { modals: unknown[] }).modals;
}

/** Follows the act note's link to the events page and answers the record it opens at. */
async function followDelivery(page: Page, browser: Browser) {
  const link = page.getByRole("link", { name: "See the delivery on the events page" });
  const href = (await link.getAttribute("href")) ?? "";
  const id = decodeURIComponent(new URL(href, origin).hash.slice(1));
  expect(id).not.toBe("");
  const context = await browser.newContext();
  const events = await context.newPage();
  await events.goto(`${origin}${href}`);
  const record = events.locator(`article[id="${id}"]`);
  await expect(record).toBeInViewport();
  return { record, close: () => context.close() };
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const consolePort = await freePort();
  origin = `http://localhost:${consolePort}`;
  emulator = await startStandaloneEmulator({ port: await freePort(), seed: SEED, adminToken: ADMIN_TOKEN, consoleOrigins: [origin] });
  server = await startSpecConsole(
    consolePort,
    {
      PLATFORM_BASE_URL: emulator.url,
      CLIENT_ID: consoleApp.clientId,
      CLIENT_SECRET: consoleApp.clientSecret,
      SIGNING_SECRET: consoleApp.signingSecret,
      EMULATOR_ADMIN_TOKEN: ADMIN_TOKEN,
    },
    "the console over the standalone emulator",
  );
  // The app as a developer makes it: created from its manifest, installed (Allow), then its server started and
  // its request URLs set, so that the platform's url_verification finds it answering.
  const app = { name: "Triage", socketMode: false, botEvents: TRIAGE_EVENTS, botScopes: TRIAGE_SCOPES };
  installed = await createSocketModeApp(emulator, app);
  boltPort = await freePort();
  bolt = await startBolt(installed.signingSecret);
  const boltUrl = `http://127.0.0.1:${boltPort}`;
  const updated = await adminCall(emulator, "apps", {
    app_id: installed.appId,
    manifest: appManifest({ ...app, ...triageManifest(boltUrl), requestUrl: `${boltUrl}/slack/events` }),
  });
  expect(updated.ok, JSON.stringify(updated)).toBe(true);
  // The platform checks the request URL (url_verification) once it is set: Bolt answers the challenge.
  await expect
    .poll(async () => ((await adminCall(emulator, "apps")).apps as Array<Record<string, any>>).find((a) => a.app_id === installed.appId)?.event_subscriptions) // eslint-disable-line @typescript-eslint/no-explicit-any -- the admin answer as JSON
    .toMatchObject({ request_url_verification: { state: "verified" } });
});

test.afterAll(async () => {
  await bolt?.stop().catch(() => undefined);
  stopSpecConsole(server);
  emulator?.stop();
});

test("a member files a ticket over HTTP by clicking: slash command, a pushed view and Back, errors, a button and a static select", async ({ page }) => {
  await openWorkspace(page);
  const composer = page.getByRole("combobox", { name: "Message #general" });
  await composer.pressSequentially("/tri");
  const offered = page.getByRole("option", { name: /\/triage/ });
  await expect(offered).toContainText("[title]");
  await expect(offered).toContainText("File a ticket");
  await composer.pressSequentially("age");
  await composer.press("Enter");

  const modal = page.getByRole("dialog", { name: "New ticket" });
  await expect(modal).toBeVisible();
  await expect(modal.getByRole("button", { name: "Back" })).toHaveCount(0);
  await modal.getByLabel("Title").pressSequentially("Bug");

  // The app pushes a second view: the platform's Back control shows, and Back brings the first one back as it was.
  await modal.getByRole("button", { name: "Add details" }).click();
  const details = page.getByRole("dialog", { name: "Details" });
  await expect(details).toBeVisible();
  await expect(details.getByRole("button", { name: "Back" })).toBeVisible();
  await details.getByLabel("Steps to reproduce").pressSequentially("Open the login page");
  await lookAt(page, "workspace-http-modal-back");
  await details.getByRole("button", { name: "Back" }).click();
  await expect(modal).toBeVisible();
  await expect(modal.getByLabel("Title")).toHaveValue("Bug");
  // The pushed view asked to be told: view_closed, not cleared (only that view went).
  await expect.poll(() => got.closed).toEqual([{ callbackId: "details_modal", isCleared: false }]);

  await modal.getByRole("button", { name: "File" }).click();
  await expect(modal.getByRole("alert")).toHaveText("A title has at least 5 characters.");
  await expect(modal.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
  await modal.getByLabel("Title").fill("Broken login");
  await modal.getByRole("button", { name: "File" }).click();
  await expect(modal).toBeHidden();

  const ticket = page
    .getByRole("listitem")
    .filter({ hasText: "Broken login" })
    .filter({ has: page.getByRole("button", { name: "Close" }) });
  await expect(ticket).toBeVisible();
  await expect(ticket.locator("strong")).toHaveText("Broken login");
  await ticket.getByRole("button", { name: "Close" }).click();
  const closed = page.getByRole("listitem").filter({ hasText: /Closed: Broken login by/ });
  await expect(closed).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "over HTTP" })).toBeVisible();

  // The static select in the updated message: the app gets the option and replaces the message again.
  await closed.getByLabel("Priority").selectOption({ label: "HIGH" });
  await expect(page.getByRole("listitem").filter({ hasText: "Closed: Broken login · priority HIGH" })).toBeVisible();
  expect(got.priorities).toEqual(["high"]);

  // The ✕ of a pushed view closes the whole stack: view_closed with is_cleared.
  await runTriage(page, "Another");
  await expect(modal).toBeVisible();
  await modal.getByRole("button", { name: "Add details" }).click();
  await expect(details).toBeVisible();
  await details.getByRole("button", { name: "Close", exact: true }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect.poll(() => got.closed.at(-1)).toEqual({ callbackId: "details_modal", isCleared: true });
});

test("Escape on a pushed view goes back one view, keeping what was typed under it, then closes the root: the app hears each, the page and the emulator agree", async ({
  page,
}) => {
  await openWorkspace(page);
  const before = got.closed.length;
  await runTriage(page, "Escape");
  const modal = page.getByRole("dialog", { name: "New ticket" });
  await expect(modal).toBeVisible();
  await modal.getByLabel("Title").fill("");
  await modal.getByLabel("Title").pressSequentially("Kept under");
  await modal.getByRole("button", { name: "Add details" }).click();
  const details = page.getByRole("dialog", { name: "Details" });
  await expect(details).toBeVisible();
  await details.getByLabel("Steps to reproduce").pressSequentially("Typed on top");

  await page.keyboard.press("Escape");
  await expect(modal).toBeVisible();
  // The view hidden under the pushed one kept what the member typed in it.
  await expect(modal.getByLabel("Title")).toHaveValue("Kept under");
  await expect(modal.getByRole("button", { name: "Back" })).toHaveCount(0);
  await expect.poll(() => got.closed.slice(before)).toEqual([{ callbackId: "details_modal", isCleared: false }]);

  // A second Escape with no click between: Chromium would close the dialog itself, without a close-view; the page goes to the app.
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect.poll(() => heldModals(page)).toEqual([]);
  await page.reload();
  await expect(page.getByRole("heading", { name: "#general" })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // Two Escapes at once on a pushed view: whatever the page shows is what the emulator holds.
  await runTriage(page, "Twice");
  await expect(modal).toBeVisible();
  await modal.getByRole("button", { name: "Add details" }).click();
  await expect(details).toBeVisible();
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await expect.poll(async () => (await heldModals(page)).length).toBeLessThan(2);
  const held = (await heldModals(page)).length;
  await expect(page.getByRole("dialog")).toHaveCount(held);
  await page.reload();
  await expect(page.getByRole("heading", { name: "#general" })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(held);
  if (held) await page.keyboard.press("Escape");
  await expect.poll(() => heldModals(page)).toEqual([]);
});

test("a double click on Submit sends one view_submission, and on Back one close", async ({ page }) => {
  await openWorkspace(page);
  await runTriage(page, "Double");
  const modal = page.getByRole("dialog", { name: "New ticket" });
  await expect(modal).toBeVisible();
  await modal.getByRole("button", { name: "Add details" }).click();
  const details = page.getByRole("dialog", { name: "Details" });
  await expect(details).toBeVisible();
  const closes = await interactionsOf("view_closed");
  await details.getByRole("button", { name: "Back" }).dblclick();
  await expect(modal).toBeVisible();
  await expect.poll(() => interactionsOf("view_closed")).toBe(closes + 1);
  await expect(page.getByRole("status").filter({ hasText: "view_not_found" })).toHaveCount(0);

  await modal.getByLabel("Title").fill("Double clicked");
  const submissions = await interactionsOf("view_submission");
  await modal.getByRole("button", { name: "File" }).dblclick();
  await expect(modal).toBeHidden();
  await expect(page.getByRole("listitem").filter({ hasText: "Double clicked" }).first()).toBeVisible();
  // Long enough for a second submission to have been recorded.
  await page.waitForTimeout(1000);
  expect(await interactionsOf("view_submission")).toBe(submissions + 1);
  await expect(page.getByRole("status").filter({ hasText: "view_not_found" })).toHaveCount(0);
});

test("Add a member makes a new person of the workspace: offered to act as, seen live by another member, and sent to the app", async ({ page, browser }) => {
  await openWorkspace(page);
  const other = await browser.newContext();
  const second = await other.newPage();
  await openWorkspace(second);

  await page.getByRole("button", { name: "Add a member" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a member" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Name").pressSequentially("Ada Lovelace");
  await lookAt(page, "workspace-http-add-member");
  await dialog.getByRole("button", { name: "Add to the workspace" }).click();
  await expect(dialog).toBeHidden();

  const you = page.getByRole("combobox", { name: "You are" });
  await expect(you.locator("option", { hasText: "Ada Lovelace" })).toHaveCount(1);
  await expect(page.getByRole("list", { name: "People" }).getByRole("button", { name: "Ada Lovelace" })).toBeVisible();
  // Another member's page learns of it without a reload.
  await expect(second.getByRole("list", { name: "People" }).getByRole("button", { name: "Ada Lovelace" })).toBeVisible();
  await expect(second.getByRole("combobox", { name: "You are" }).locator("option", { hasText: "Ada Lovelace" })).toHaveCount(1);
  await expect.poll(() => got.joined.map((j) => j.realName)).toEqual(["Ada Lovelace"]);

  // The new member is someone to be: they post in #general, where they are, and the other page sees it.
  await page.getByRole("list", { name: "People" }).getByRole("button", { name: "Ada Lovelace" }).click();
  await expect(you.locator("option:checked")).toHaveText(/^Ada Lovelace/);
  const composer = page.getByRole("combobox", { name: "Message #general" });
  await composer.fill("hello, I am new here");
  await composer.press("Enter");
  await expect(second.getByText("hello, I am new here")).toBeVisible();

  // Picked from the People list and writing at once: the post is the person picked, never the previous one.
  const people = page.getByRole("list", { name: "People" }).getByRole("button");
  const next = people.filter({ hasNotText: "Ada Lovelace" }).first();
  const nextName = ((await next.textContent()) ?? "").trim();
  await next.click();
  await composer.fill("who am I now");
  await composer.press("Enter");
  const posted = second.getByRole("listitem").filter({ hasText: "who am I now" });
  await expect(posted).toBeVisible();
  await expect(posted).toContainText(nextName);
  await expect(posted).not.toContainText("Ada Lovelace");
  await other.close();
});

test("what fails says why on the page: an app that stopped, and one that refuses the signature, each linked to its delivery", async ({ page, browser }) => {
  await openWorkspace(page);
  await bolt?.stop();
  bolt = undefined;
  await runTriage(page, "Nobody home");
  const stopped = page.getByRole("status").filter({ hasText: "/triage" });
  await expect(stopped).toContainText("dispatch_failed: the app did not answer");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  let delivery = await followDelivery(page, browser);
  await expect(delivery.record).toContainText("slash_commands");
  await expect(delivery.record).toContainText("dispatch_failed");
  await delivery.close();

  // Back up with a signing secret that is not the app's: it refuses every request the emulator signs.
  bolt = await startBolt(randomBytes(16).toString("hex"));
  await page.getByRole("combobox", { name: "Message #general" }).fill("");
  await runTriage(page, "Wrong secret");
  await expect(page.getByRole("status").filter({ hasText: "/triage" })).toContainText("HTTP 401");
  await expect(page.getByRole("status").filter({ hasText: "/triage" })).toContainText("refused the request's signature");
  delivery = await followDelivery(page, browser);
  await expect(delivery.record).toContainText("the app refused the signature (HTTP 401)");
  await delivery.close();
});

test("an app that is up but never answers: dispatch_failed after 3 seconds, linked to its delivery", async ({ page, browser }) => {
  // A server that takes the request and holds it, never acking, as a stuck app does.
  const held: ServerResponse[] = [];
  const holder = createServer((_request, response) => void held.push(response));
  const holdPort = await freePort();
  await new Promise<void>((resolve) => holder.listen(holdPort, "127.0.0.1", resolve));
  const holdUrl = `http://127.0.0.1:${holdPort}`;
  const boltUrl = `http://127.0.0.1:${boltPort}`;
  const app = { name: "Triage", socketMode: false, botEvents: TRIAGE_EVENTS, botScopes: TRIAGE_SCOPES };
  const manifest = (commandsAt: string) =>
    adminCall(emulator, "apps", {
      app_id: installed.appId,
      manifest: appManifest({ ...app, ...triageManifest(commandsAt), requestUrl: `${boltUrl}/slack/events` }),
    });
  expect((await manifest(holdUrl)).ok).toBe(true);
  try {
    await openWorkspace(page);
    await runTriage(page, "Stuck");
    const note = page.getByRole("status").filter({ hasText: "/triage" });
    await expect(note).toContainText("dispatch_failed: the app did not answer within 3 seconds.");
    expect(held.length).toBe(1);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    const delivery = await followDelivery(page, browser);
    await expect(delivery.record).toContainText("slash_commands");
    await expect(delivery.record).toContainText("no answer in 3 s");
    await delivery.close();
  } finally {
    for (const response of held) response.destroy();
    holder.close();
    await manifest(boltUrl);
  }
});
