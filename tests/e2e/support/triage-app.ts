import type { App, types, ViewClosedAction } from "@slack/bolt";

/**
 * An app written as the Bolt starter templates write theirs, for the Workspace page's browser tests over HTTP:
 * `/triage [title]` opens a "New ticket" modal (a title, and a button that pushes a "Details" view asking to be
 * told when it closes); a title under 5 characters is refused under its field; a filed ticket is posted with a
 * Close button and a Priority static select, each answered through `respond()` (the message replaced); a
 * person joining the workspace (team_join) is noted. What it received is kept for the test to read.
 */

export const TRIAGE_SCOPES = ["chat:write", "channels:join", "commands", "users:read"];
export const TRIAGE_EVENTS = ["team_join"];

export interface Triage {
  /** view_closed payloads: `is_cleared` and the view's callback_id. */
  closed: Array<{ callbackId: string; isCleared: boolean }>;
  joined: Array<{ id: string; realName: string }>;
  priorities: string[];
}

/** The manifest's features and interactivity, every URL Bolt's one endpoint at `baseUrl`. */
export function triageManifest(baseUrl: string) {
  const url = `${baseUrl}/slack/events`;
  return {
    features: {
      slash_commands: [{ command: "/triage", description: "File a ticket", usage_hint: "[title]", should_escape: false, url }],
    },
    interactivity: { is_enabled: true, request_url: url },
  };
}

function ticketModal(channel: string, title: string): types.ModalView {
  return {
    type: "modal",
    callback_id: "triage_modal",
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
        type: "actions",
        block_id: "more",
        elements: [{ type: "button", action_id: "add_details", text: { type: "plain_text", text: "Add details" } }],
      },
    ],
  };
}

const detailsView: types.ModalView = {
  type: "modal",
  callback_id: "details_modal",
  notify_on_close: true,
  title: { type: "plain_text", text: "Details" },
  submit: { type: "plain_text", text: "Save" },
  blocks: [
    {
      type: "input",
      block_id: "steps_block",
      optional: true,
      label: { type: "plain_text", text: "Steps to reproduce" },
      element: { type: "plain_text_input", action_id: "steps", multiline: true },
    },
  ],
};

const PRIORITIES = ["low", "high"];

/** The ticket's blocks: what it says, and its Close button and Priority select (while open). */
function ticketBlocks(text: string, title: string, open: boolean): types.KnownBlock[] {
  return [
    { type: "section", block_id: "ticket", text: { type: "mrkdwn", text } },
    {
      type: "actions",
      block_id: "ticket_actions",
      elements: [
        ...(open ? [{ type: "button" as const, action_id: "close_ticket", value: title, text: { type: "plain_text" as const, text: "Close" } }] : []),
        {
          type: "static_select",
          action_id: "priority",
          placeholder: { type: "plain_text", text: "Priority" },
          options: PRIORITIES.map((p) => ({ text: { type: "plain_text" as const, text: p.toUpperCase() }, value: `${p}:${title}` })),
        },
      ],
    },
  ];
}

export function triage(bolt: App): Triage {
  const got: Triage = { closed: [], joined: [], priorities: [] };

  bolt.command("/triage", async ({ ack, command, client }) => {
    await ack();
    await client.views.open({ trigger_id: command.trigger_id, view: ticketModal(command.channel_id, command.text) });
  });

  bolt.action("add_details", async ({ ack, body, client }) => {
    await ack();
    await client.views.push({ trigger_id: (body as unknown as { trigger_id: string }).trigger_id, view: detailsView });
  });

  bolt.view("details_modal", async ({ ack }) => {
    await ack();
  });

  bolt.view({ callback_id: "details_modal", type: "view_closed" }, async ({ ack, body }) => {
    await ack();
    got.closed.push({ callbackId: body.view.callback_id, isCleared: (body as ViewClosedAction).is_cleared });
  });

  bolt.view("triage_modal", async ({ ack, view, body, client }) => {
    const title = view.state.values.title_block?.title?.value ?? "";
    if (title.length < 5) {
      await ack({ response_action: "errors", errors: { title_block: "A title has at least 5 characters." } });
      return;
    }
    await ack();
    const { channel } = JSON.parse(view.private_metadata) as { channel: string };
    await client.conversations.join({ channel });
    await client.chat.postMessage({ channel, text: `Ticket: ${title}`, blocks: ticketBlocks(`*${title}* filed by <@${body.user.id}>`, title, true) });
  });

  bolt.action("close_ticket", async ({ ack, body, action, respond }) => {
    await ack();
    const title = (action as { value?: string }).value ?? "";
    await respond({ replace_original: true, text: `Closed: ${title}`, blocks: ticketBlocks(`Closed: ${title} by <@${body.user.id}>`, title, false) });
  });

  bolt.action("priority", async ({ ack, action, respond }) => {
    await ack();
    const [priority = "", title = ""] = ((action as { selected_option?: { value: string } }).selected_option?.value ?? "").split(":");
    got.priorities.push(priority);
    await respond({
      replace_original: true,
      text: `Closed: ${title}`,
      blocks: ticketBlocks(`Closed: ${title} · priority *${priority.toUpperCase()}*`, title, false),
    });
  });

  bolt.event("team_join", async ({ event }) => {
    const user = event.user as { id: string; real_name?: string };
    got.joined.push({ id: user.id, realName: user.real_name ?? "" });
  });

  return got;
}
