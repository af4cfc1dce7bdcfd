import { App, LogLevel } from "@slack/bolt";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { fileTickets, TICKETER_EVENTS, TICKETER_SCOPES, ticketerManifest } from "../unit/emulator/support/bolt-ticketer";
import { seriousViolations } from "./support/axe";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The Workspace page, clicked through as a person would, against an unmodified @slack/bolt app connected to
 * the console's embedded emulator over Socket Mode: `/ticket` typed key by key (the command offered with its
 * usage hint), the modal submitted with a title too short (the app's error under the field), fixed and
 * filed, the app's message with its button, the button clicked and the message updated; and two members in
 * two browser contexts seeing each other's posts live.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads any field and asserts it

const REDIRECT = "http://localhost:3000/oauth/callback";

async function createTicketer(request: APIRequestContext, baseURL: string): Promise<{ bolt: App; appId: string }> {
  await postEmulatorAdmin(request, "reset", {});
  const { features, interactivity } = ticketerManifest();
  const manifest = {
    display_information: { name: "Ticketer" },
    features: { bot_user: { display_name: "ticketer" }, ...features },
    oauth_config: { redirect_urls: [REDIRECT], scopes: { bot: TICKETER_SCOPES } },
    settings: { socket_mode_enabled: true, interactivity, event_subscriptions: { bot_events: TICKETER_EVENTS } },
  };
  const created = (await (await postEmulatorAdmin(request, "apps", manifest)).json()) as Json;
  expect(created.ok).toBe(true);
  const app = created.app as Json;
  // A person installs it (Allow on the consent page).
  const authorize = new URL(`${baseURL}/emulator/oauth/v2/authorize`);
  for (const [k, v] of Object.entries({ client_id: app.client_id, scope: TICKETER_SCOPES.join(","), redirect_uri: REDIRECT, state: "s" }))
    authorize.searchParams.set(k, v);
  const allowed = await request.post(authorize.toString(), { form: { decision: "allow" }, maxRedirects: 0 });
  const code = new URL(allowed.headers().location ?? "http://x/").searchParams.get("code") ?? "";
  const access = (await (
    await request.post("/emulator/api/oauth.v2.access", { form: { code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: REDIRECT } })
  ).json()) as Json;
  expect(access.ok).toBe(true);
  const appToken = (await (await postEmulatorAdmin(request, `apps/${app.app_id}/app-tokens`, { name: "e2e" })).json()) as Json;
  expect(appToken.token).toMatch(/^xapp-1-/);
  const bolt = new App({
    token: access.access_token as string,
    appToken: appToken.token as string,
    socketMode: true,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: `${baseURL}/emulator/api/` },
  });
  fileTickets(bolt);
  await bolt.start();
  return { bolt, appId: app.app_id as string };
}

async function openWorkspace(page: Page) {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspace" }).click();
  await expect(page.getByRole("heading", { name: "Workspace", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "#general" })).toBeVisible();
}

test("a member files a ticket with the app's slash command, modal and button, and another member sees it live", async ({ page, browser, request, baseURL }) => {
  const { bolt } = await createTicketer(request, baseURL ?? "");
  try {
    await openWorkspace(page);
    const composer = page.getByRole("combobox", { name: "Message #general" });
    await composer.pressSequentially("/tic");
    const offered = page.getByRole("option", { name: /\/ticket/ });
    await expect(offered).toContainText("[title]");
    await expect(offered).toContainText("File a ticket");
    await composer.pressSequentially("ket");
    await expect(page.getByText("/ticket [title]", { exact: false }).last()).toBeVisible();
    await composer.press("Enter");

    const modal = page.getByRole("dialog", { name: "New ticket" });
    await expect(modal).toBeVisible();
    await modal.getByLabel("Title").pressSequentially("Bug");
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
    // The app's blocks as Block Kit draws them: mrkdwn bold, the mention by the member's name, a real button.
    const me = ((await page.getByRole("combobox", { name: "You are" }).locator("option:checked").textContent()) ?? "").replace(/ \(.*\)$/, "");
    await expect(ticket.locator("strong")).toHaveText("Broken login");
    await expect(ticket).toContainText(`(none) filed by @${me}`);
    await expect(ticket).not.toContainText("<@");

    // Another member, in another browser context, is in #general too and sees what happens there live.
    const other = await browser.newContext();
    const second = await other.newPage();
    await openWorkspace(second);
    const you = second.getByRole("combobox", { name: "You are" });
    const secondId = await you.locator("option").nth(1).getAttribute("value");
    await you.selectOption(secondId ?? "");
    await expect(second.getByRole("listitem").filter({ hasText: "Broken login" }).first()).toBeVisible();

    await ticket.getByRole("button", { name: "Close" }).click();
    await expect(page.getByText(/Closed: Broken login by/)).toBeVisible();
    // The act's note links to the click's record on the events page, which opens at that record.
    const delivery = page.getByRole("link", { name: "See the delivery on the events page" });
    const recordId = decodeURIComponent(new URL((await delivery.getAttribute("href")) ?? "", baseURL).hash.slice(1));
    expect(recordId).not.toBe("");
    const events = await page.context().newPage();
    await events.goto(`/events#${encodeURIComponent(recordId)}`);
    const record = events.locator(`article[id="${recordId}"]`);
    await expect(record).toBeInViewport();
    await expect(record).toContainText("block_actions");
    await events.close();
    await expect(second.getByText(/Closed: Broken login by/)).toBeVisible();

    await second.getByRole("combobox", { name: "Message #general" }).fill("hello from the second member");
    await second.getByRole("combobox", { name: "Message #general" }).press("Enter");
    await expect(page.getByText("hello from the second member")).toBeVisible();
    await page.getByRole("combobox", { name: "Message #general" }).fill("and back from the first");
    await page.getByRole("combobox", { name: "Message #general" }).press("Enter");
    await expect(second.getByText("and back from the first")).toBeVisible();
    await other.close();

    expect(await seriousViolations(page)).toEqual([]);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: test.info().outputPath(`workspace-${scheme}-${width}.png`), fullPage: true });
      }
      expect(await seriousViolations(page)).toEqual([]);
    }
  } finally {
    await bolt.stop();
    await postEmulatorAdmin(request, "reset", {});
  }
});

test("a modal's static select and date picker reach the app as the platform's state.values", async ({ page, request, baseURL }) => {
  const { bolt } = await createTicketer(request, baseURL ?? "");
  // The ticketer only acknowledges its global shortcut; this listener (Bolt runs every matching one) opens a triage modal.
  const submitted: Json[] = [];
  bolt.shortcut("new_ticket", async ({ shortcut, client }) => {
    await client.views.open({
      trigger_id: shortcut.trigger_id,
      view: {
        type: "modal",
        callback_id: "triage",
        title: { type: "plain_text", text: "Triage" },
        submit: { type: "plain_text", text: "Save" },
        blocks: [
          {
            type: "input",
            block_id: "priority_block",
            label: { type: "plain_text", text: "Priority" },
            element: {
              type: "static_select",
              action_id: "priority",
              options: ["low", "high"].map((p) => ({ text: { type: "plain_text", text: p.toUpperCase() }, value: p })),
            },
          },
          { type: "input", block_id: "due_block", label: { type: "plain_text", text: "Due" }, element: { type: "datepicker", action_id: "due" } },
        ],
      },
    });
  });
  bolt.view("triage", async ({ ack, view }) => {
    submitted.push(view.state.values);
    await ack();
  });
  try {
    await openWorkspace(page);
    await page.getByText("Shortcuts", { exact: true }).click();
    await page.getByRole("button", { name: /New ticket/ }).click();
    await expect(page.getByRole("button", { name: /New ticket/ })).toBeHidden();
    const modal = page.getByRole("dialog", { name: "Triage" });
    await expect(modal).toBeVisible();
    await modal.getByLabel("Priority").selectOption({ label: "HIGH" });
    await modal.getByLabel("Due").fill("2026-12-24");
    expect(await seriousViolations(page)).toEqual([]);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: test.info().outputPath(`workspace-modal-${scheme}-${width}.png`) });
      }
    }
    await modal.getByRole("button", { name: "Save" }).click();
    await expect(modal).toBeHidden();
    expect(submitted).toHaveLength(1);
    expect(submitted[0]?.priority_block?.priority?.selected_option?.value).toBe("high");
    expect(submitted[0]?.due_block?.due?.selected_date).toBe("2026-12-24");
  } finally {
    await bolt.stop();
    await postEmulatorAdmin(request, "reset", {});
  }
});

test("an unknown slash command is refused in the composer and nothing is sent", async ({ page, request, baseURL }) => {
  const { bolt } = await createTicketer(request, baseURL ?? "");
  try {
    await openWorkspace(page);
    const composer = page.getByRole("combobox", { name: "Message #general" });
    await composer.pressSequentially("/nope now");
    await composer.press("Enter");
    await expect(page.getByRole("alert").filter({ hasText: "/nope is not a valid command" })).toBeVisible();
    await expect(composer).toHaveValue("/nope now");
  } finally {
    await bolt.stop();
    await postEmulatorAdmin(request, "reset", {});
  }
});
