import type { App, BlockAction, BlockSuggestion } from "@slack/bolt";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { startSocketModeApp } from "./support/bolt-install";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The Workspace page's selects and busy controls, used as a person uses them, against an unmodified
 * @slack/bolt app over Socket Mode: an external select typed into key by key (the app's `app.options`
 * listener answers each query, and a late answer to an older query does not replace a newer one), a member
 * and a channel picked from the workspace's own lists, each choice asserted where it arrives (in the app's
 * handlers), in a message and in the app's modal (default_to_current_conversation, a multi channels select);
 * a double click on a button and on a modal's Submit that reaches the app once; the composer's Escape. And
 * the explorer's preview, where there is no workspace: its selects say why they cannot list or ask.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads any field and asserts it

const PROJECTS = [
  { value: "platform", text: "Platform team" },
  { value: "plugins", text: "Plugins" },
  { value: "billing", text: "Billing" },
];
const SLOW_QUERY = "pl";

const TRIAGE_BLOCKS = [
  { type: "section", block_id: "intro", text: { type: "mrkdwn", text: "*Triage* the new bug" } },
  {
    type: "actions",
    block_id: "triage",
    elements: [
      { type: "external_select", action_id: "project", placeholder: { type: "plain_text", text: "Project" }, min_query_length: 2 },
      { type: "users_select", action_id: "assignee", placeholder: { type: "plain_text", text: "Assignee" } },
      {
        type: "conversations_select",
        action_id: "where",
        placeholder: { type: "plain_text", text: "Post in" },
        filter: { include: ["public"], exclude_bot_users: true },
      },
      { type: "button", action_id: "approve", text: { type: "plain_text", text: "Approve" }, value: "yes", style: "primary" },
    ],
  },
];

const TRIAGE_MODAL = {
  type: "modal" as const,
  callback_id: "triage_modal",
  title: { type: "plain_text" as const, text: "Triage" },
  submit: { type: "plain_text" as const, text: "File" },
  blocks: [
    {
      type: "input",
      block_id: "owner",
      label: { type: "plain_text", text: "Owner" },
      element: { type: "users_select", action_id: "owner_pick", placeholder: { type: "plain_text", text: "Pick a member" } },
    },
    {
      type: "input",
      block_id: "channel",
      label: { type: "plain_text", text: "Post in" },
      element: { type: "conversations_select", action_id: "channel_pick", default_to_current_conversation: true, filter: { include: ["public"] } },
    },
    {
      type: "input",
      block_id: "watchers",
      optional: true,
      label: { type: "plain_text", text: "Watched channels" },
      element: { type: "multi_channels_select", action_id: "watch_pick" },
    },
  ],
};

interface Received {
  queries: string[];
  picks: Json[];
  approvals: number;
  submissions: Json[];
}

function triageApp(got: Received) {
  return (bolt: App) => {
    bolt.options("project", async ({ options, ack }) => {
      const value = (options as BlockSuggestion).value;
      got.queries.push(value);
      // The first, shorter query is answered late: by then the person typed on and the newer answer is shown.
      if (value === SLOW_QUERY) await new Promise((r) => setTimeout(r, 1500));
      if (value === "zzz") return; // Never answered: the platform gives up after 3 seconds.
      await ack({
        options: PROJECTS.filter((p) => p.value.startsWith(value) || p.text.toLowerCase().startsWith(value)).map((p) => ({
          text: { type: "plain_text", text: p.text },
          value: p.value,
        })),
      });
    });
    for (const id of ["project", "assignee", "where"]) {
      bolt.action(id, async ({ ack, body }) => {
        await ack();
        got.picks.push((body as BlockAction).actions[0] as unknown as Json);
      });
    }
    bolt.command("/triage", async ({ ack, command, client }) => {
      await ack();
      await client.views.open({ trigger_id: command.trigger_id, view: TRIAGE_MODAL });
    });
    bolt.view("triage_modal", async ({ ack, view }) => {
      got.submissions.push(view.state.values as unknown as Json);
      // As slow as the button's handler: a double click on Submit finds it busy.
      await new Promise((r) => setTimeout(r, 600));
      await ack();
    });
    bolt.action("approve", async ({ ack }) => {
      got.approvals += 1;
      // A slow app: the click is in flight long enough for a second click of a double click to find it busy.
      await new Promise((r) => setTimeout(r, 600));
      await ack();
    });
  };
}

const MANIFEST = {
  display_information: { name: "Triage" },
  features: {
    bot_user: { display_name: "triage" },
    slash_commands: [{ command: "/triage", description: "Triage a bug", usage_hint: "[title]", should_escape: false }],
  },
  oauth_config: { scopes: { bot: ["chat:write", "chat:write.public", "channels:read", "commands"] } },
  settings: { socket_mode_enabled: true, interactivity: { is_enabled: true } },
};

async function openWorkspace(page: Page) {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspace" }).click();
  await expect(page.getByRole("heading", { name: "#general" })).toBeVisible();
}

test("a member types into the app's external select, picks a member and a channel, and a double click reaches the app once", async ({
  page,
  request,
  baseURL,
}) => {
  const got: Received = { queries: [], picks: [], approvals: 0, submissions: [] };
  const { bolt } = await startSocketModeApp(request, baseURL ?? "", MANIFEST, triageApp(got));
  try {
    const channels = await bolt.client.conversations.list({ types: "public_channel" });
    const general = channels.channels?.find((c) => c.name === "general");
    expect(general?.id).toBeTruthy();
    await bolt.client.chat.postMessage({ channel: general!.id!, text: "Triage the new bug", blocks: TRIAGE_BLOCKS });

    await openWorkspace(page);
    const message = page.getByRole("listitem").filter({ hasText: "Triage the new bug" });
    await expect(message).toBeVisible();

    // The external select: nothing is asked below min_query_length; then the app answers as the person types.
    const project = message.getByRole("combobox", { name: "Project" });
    await project.click();
    await expect(page.getByText("Type at least 2 characters to see the app's options.")).toBeVisible();
    await project.pressSequentially("p");
    await expect(page.getByText("Type at least 2 characters to see the app's options.")).toBeVisible();
    await project.pressSequentially("l");
    await expect.poll(() => got.queries).toEqual([SLOW_QUERY]);
    await expect(page.getByText("Loading the app's options…")).toBeVisible();
    await project.pressSequentially("a");
    const options = page.getByRole("listbox", { name: "Project" }).getByRole("option");
    await expect(options).toHaveText(["Platform team"]);
    // The answer to "pl" (Platform team and Plugins) arrives late, and does not replace the answer to "pla".
    await expect.poll(() => got.queries).toEqual([SLOW_QUERY, "pla"]);
    await page.waitForTimeout(1800);
    await expect(options).toHaveText(["Platform team"]);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, "external-open", project);
    await options.first().click();
    await expect(project).toHaveValue("Platform team");
    await expect.poll(() => got.picks.length).toBe(1);
    expect(got.picks[0]).toMatchObject({
      type: "external_select",
      action_id: "project",
      block_id: "triage",
      selected_option: { value: "platform", text: { type: "plain_text", text: "Platform team" } },
    });

    // A member of the workspace, found by typing part of their name.
    const you = page.getByRole("combobox", { name: "You are" });
    const other = (await you.locator("option").nth(1).textContent()) ?? "";
    const [, otherName, otherId] = /^(.*) \((U\w+)\)$/.exec(other) ?? [];
    expect(otherId).toBeTruthy();
    const assignee = message.getByRole("combobox", { name: "Assignee" });
    await assignee.click();
    await assignee.pressSequentially(otherName!.slice(0, 3));
    const people = page.getByRole("listbox", { name: "Assignee" }).getByRole("option");
    await expect(people.filter({ hasText: otherName! })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, "users-open", assignee);
    await people.filter({ hasText: otherName! }).first().click();
    await expect(assignee).toHaveValue(otherName!);
    await expect.poll(() => got.picks.length).toBe(2);
    expect(got.picks[1]).toMatchObject({ type: "users_select", action_id: "assignee", selected_user: otherId });

    // A conversation, from the member's public channels only (the filter), picked by keyboard.
    const where = message.getByRole("combobox", { name: "Post in" });
    await where.click();
    await where.pressSequentially("gen");
    await expect(page.getByRole("listbox", { name: "Post in" }).getByRole("option")).toHaveText(["#general"]);
    await where.press("Enter");
    await expect(where).toHaveValue("#general");
    await expect.poll(() => got.picks.length).toBe(3);
    expect(got.picks[2]).toMatchObject({ type: "conversations_select", action_id: "where", selected_conversation: general!.id });

    // A double click is one act: the button is busy while the app takes its time, and the app counts one.
    const approve = message.getByRole("button", { name: "Approve" });
    await approve.dblclick();
    await expect(approve).toHaveAttribute("aria-busy", "true");
    await expect(approve).not.toHaveAttribute("aria-busy", "true");
    await page.waitForTimeout(1000);
    expect(got.approvals).toBe(1);

    // An app that does not answer in 3 seconds: the select says so.
    await project.click();
    await project.pressSequentially("zzz");
    await expect(page.getByRole("alert").filter({ hasText: "did not answer within 3 seconds" })).toBeVisible({ timeout: 10_000 });
    await project.press("Escape");
    await expect(project).toHaveValue("Platform team");
    // Opened again, it starts over: the last query's failure is not shown for the next.
    await project.click();
    await expect(page.getByText("Type at least 2 characters to see the app's options.")).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: "did not answer" })).toHaveCount(0);
    await project.press("Escape");

    // The composer: Escape closes the slash command menu and keeps what was typed.
    const composer = page.getByRole("combobox", { name: "Message #general" });
    await composer.pressSequentially("/tri");
    await expect(page.getByRole("listbox", { name: "Slash commands" })).toBeVisible();
    await composer.press("Escape");
    await expect(page.getByRole("listbox", { name: "Slash commands" })).toBeHidden();
    await expect(composer).toHaveValue("/tri");

    // The app's modal: a member, the conversation the member is in (default_to_current_conversation), channels.
    await composer.pressSequentially("age");
    await composer.press("Enter");
    const modal = page.getByRole("dialog", { name: "Triage" });
    await expect(modal).toBeVisible();
    await expect(modal.getByRole("combobox", { name: "Post in" })).toHaveValue("#general");
    const owner = modal.getByRole("combobox", { name: "Owner" });
    await owner.click();
    await owner.pressSequentially(otherName!.slice(0, 4));
    await modal.getByRole("option", { name: otherName! }).first().click();
    const watched = modal.getByRole("combobox", { name: "Watched channels" });
    await watched.click();
    await watched.pressSequentially("rand");
    await watched.press("Enter");
    await watched.pressSequentially("engin");
    await expect(modal.getByRole("option", { name: "#engineering" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, "modal-multi-open", watched);
    await watched.press("Enter");
    await expect(modal.getByRole("list", { name: "Chosen" }).getByRole("listitem")).toHaveText(["#random×", "#engineering×"]);
    const random = channels.channels?.find((c) => c.name === "random")?.id;
    const engineering = channels.channels?.find((c) => c.name === "engineering")?.id;

    // Submit double-clicked: the app gets one view_submission, with each select's value in the platform's shape.
    await modal.getByRole("button", { name: "File" }).dblclick();
    await expect(modal).toBeHidden();
    await page.waitForTimeout(1000);
    expect(got.submissions).toHaveLength(1);
    expect(got.submissions[0]).toEqual({
      owner: { owner_pick: { type: "users_select", selected_user: otherId } },
      channel: { channel_pick: { type: "conversations_select", selected_conversation: general!.id } },
      watchers: { watch_pick: { type: "multi_channels_select", selected_channels: [random, engineering] } },
    });
  } finally {
    await bolt.stop();
    await postEmulatorAdmin(request, "reset", {});
  }
});

/** Screenshots with the open list in view, at 1366 and 390 px, light and dark; axe on each scheme. */
async function shoot(page: Page, name: string, field: Locator) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await field.scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath(`workspace-selects-${name}-${scheme}-${width}.png`), fullPage: true });
    }
    expect(await seriousViolations(page)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1366, height: 900 });
}

test("in the explorer's preview, with no workspace, the selects say why they cannot ask the app or list members", async ({ page, request }) => {
  await postEmulatorAdmin(request, "reset", {});
  await page.goto("/oauth/install");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/emulator") && !url.pathname.startsWith("/oauth"));
  await page.goto("/explorer?method=chat.postMessage&as=bot&verb=POST-json");
  await page.getByLabel(/^blocks/).fill(JSON.stringify(TRIAGE_BLOCKS));
  const preview = page.locator("section").filter({ has: page.getByRole("heading", { name: "Preview", exact: true }) });
  const project = preview.getByRole("combobox", { name: "Project" });
  await project.click();
  await expect(preview.getByText(/This preview cannot ask the app for options/)).toBeVisible();
  await project.pressSequentially("pla");
  await expect(preview.getByText(/This preview cannot ask the app for options/)).toBeVisible();
  await preview.getByRole("combobox", { name: "Assignee" }).click();
  await expect(preview.getByText(/This preview has no workspace to list from/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
