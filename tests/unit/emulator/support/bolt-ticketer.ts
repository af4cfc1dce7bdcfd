/**
 * The Bolt app the interactivity tests run, the same over Socket Mode and over HTTP, written as the Bolt
 * starter templates write theirs: `/ticket` opens a modal (its channel in private_metadata); a title under 5
 * characters is refused under its block (`response_action: errors`); a valid ticket is posted with a
 * "Close" button, which updates the message through `respond()`; its Home has a "New ticket" button that
 * opens the same modal; a global and a message shortcut; and the modal's project picker is an external select
 * whose options the app gives. What it received is kept for the tests to read.
 */
import type { App, types } from "@slack/bolt";
import type { Json } from "./emulator-harness";

export const TICKETER_SCOPES = ["chat:write", "channels:join", "channels:history", "commands"];
export const TICKETER_EVENTS = ["app_home_opened"];

export interface Ticketer {
  commands: Json[];
  submissions: Json[];
  actions: Json[];
  shortcuts: Json[];
  messageShortcuts: Json[];
  suggestions: Json[];
  opened: string[];
  respondErrors: unknown[];
}

/** The manifest's features and interactivity for the app, its URLs at `baseUrl` (Bolt's one endpoint) over HTTP. */
export function ticketerManifest(baseUrl?: string): { features: Json; interactivity: Json } {
  const url = baseUrl ? `${baseUrl}/slack/events` : undefined;
  return {
    features: {
      app_home: { home_tab_enabled: true },
      slash_commands: [{ command: "/ticket", description: "File a ticket", usage_hint: "[title]", should_escape: false, ...(url ? { url } : {}) }],
      shortcuts: [
        { name: "New ticket", type: "global", callback_id: "new_ticket", description: "File a ticket" },
        { name: "Ticket from message", type: "message", callback_id: "ticket_from_message", description: "File this message" },
      ],
    },
    interactivity: { is_enabled: true, ...(url ? { request_url: url, message_menu_options_url: url } : {}) },
  };
}

const PROJECTS = ["billing", "mobile", "platform", "website"];

function ticketModal(channel: string, title = ""): types.ModalView {
  return {
    type: "modal",
    callback_id: "ticket_modal",
    private_metadata: JSON.stringify({ channel }),
    title: { type: "plain_text", text: "New ticket" },
    submit: { type: "plain_text", text: "File" },
    blocks: [
      {
        type: "input",
        block_id: "title_block",
        label: { type: "plain_text", text: "Title" },
        element: { type: "plain_text_input", action_id: "title", ...(title ? { initial_value: title } : {}) },
      },
      {
        type: "input",
        block_id: "project_block",
        optional: true,
        label: { type: "plain_text", text: "Project" },
        element: { type: "external_select", action_id: "project", min_query_length: 0 },
      },
    ],
  };
}

export function fileTickets(bolt: App): Ticketer {
  const got: Ticketer = { commands: [], submissions: [], actions: [], shortcuts: [], messageShortcuts: [], suggestions: [], opened: [], respondErrors: [] };

  bolt.command("/ticket", async ({ ack, command, client }) => {
    await ack();
    got.commands.push(command as unknown as Json);
    const opened = await client.views.open({ trigger_id: command.trigger_id, view: ticketModal(command.channel_id, command.text) });
    got.opened.push(opened.view?.id ?? "");
  });

  bolt.view("ticket_modal", async ({ ack, view, body, client }) => {
    got.submissions.push(body as unknown as Json);
    const title = view.state.values.title_block?.title?.value ?? "";
    if (title.length < 5) {
      await ack({ response_action: "errors", errors: { title_block: "A title has at least 5 characters." } });
      return;
    }
    await ack();
    const { channel } = JSON.parse(view.private_metadata) as { channel: string };
    const project = view.state.values.project_block?.project?.selected_option?.value ?? "none";
    await client.conversations.join({ channel });
    await client.chat.postMessage({
      channel,
      text: `Ticket: ${title}`,
      blocks: [
        { type: "section", block_id: "ticket", text: { type: "mrkdwn", text: `*${title}* (${project}) filed by <@${body.user.id}>` } },
        {
          type: "actions",
          block_id: "ticket_actions",
          elements: [{ type: "button", action_id: "close_ticket", value: title, text: { type: "plain_text", text: "Close" } }],
        },
      ],
    });
  });

  bolt.action("close_ticket", async ({ ack, body, action, respond }) => {
    await ack();
    got.actions.push(body as unknown as Json);
    try {
      await respond({ replace_original: true, text: `Closed: ${(action as { value?: string }).value} by <@${body.user.id}>` });
    } catch (error) {
      got.respondErrors.push(error);
    }
  });

  bolt.event("app_home_opened", async ({ event, client }) => {
    await client.views.publish({
      user_id: event.user,
      view: {
        type: "home",
        blocks: [
          {
            type: "actions",
            block_id: "home_actions",
            elements: [{ type: "button", action_id: "home_new_ticket", text: { type: "plain_text", text: "New ticket" } }],
          },
        ],
      },
    });
  });

  bolt.action("home_new_ticket", async ({ ack, body, client }) => {
    await ack();
    got.actions.push(body as unknown as Json);
    const opened = await client.views.open({ trigger_id: (body as unknown as { trigger_id: string }).trigger_id, view: ticketModal("") });
    got.opened.push(opened.view?.id ?? "");
  });

  bolt.shortcut("new_ticket", async ({ ack, shortcut }) => {
    await ack();
    got.shortcuts.push(shortcut as unknown as Json);
  });

  bolt.shortcut("ticket_from_message", async ({ ack, shortcut }) => {
    await ack();
    got.messageShortcuts.push(shortcut as unknown as Json);
  });

  bolt.options("project", async ({ ack, options }) => {
    got.suggestions.push(options as unknown as Json);
    const typed = options.value.toLowerCase();
    await ack({ options: PROJECTS.filter((p) => p.startsWith(typed)).map((p) => ({ text: { type: "plain_text", text: p }, value: p })) });
  });

  return got;
}
