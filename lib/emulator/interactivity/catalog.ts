/**
 * Every interaction the emulator sends, as docs/emulator.md's table lists them (scripts/emulator-conformance.ts
 * writes it from this list; tests/unit/emulator/interaction-table.test.ts fails when they drift): its payload
 * type, the Socket Mode envelope it travels in, where it goes over HTTP, the admin route a member acts through,
 * and what of the app's immediate answer the emulator honours.
 */
export interface InteractionType {
  type: string;
  envelope: "slash_commands" | "interactive";
  http: string;
  route: string;
  answer: string;
}

export const INTERACTION_TYPES: readonly InteractionType[] = [
  {
    type: "slash_commands",
    envelope: "slash_commands",
    http: "the command's `url`, form fields",
    route: "POST /admin/act/command",
    answer: "`text`/`blocks`/`attachments`, `response_type` (ephemeral, in_channel); a plain text answer",
  },
  {
    type: "block_actions",
    envelope: "interactive",
    http: "Interactivity Request URL, `payload`",
    route: "POST /admin/act/click",
    answer: "none (ack)",
  },
  {
    type: "block_suggestion",
    envelope: "interactive",
    http: "Options Load URL, `payload`",
    route: "POST /admin/act/suggest",
    answer: "`options` or `option_groups`",
  },
  {
    type: "shortcut",
    envelope: "interactive",
    http: "Interactivity Request URL, `payload`",
    route: "POST /admin/act/shortcut",
    answer: "none (ack)",
  },
  {
    type: "message_action",
    envelope: "interactive",
    http: "Interactivity Request URL, `payload`",
    route: "POST /admin/act/shortcut (with `channel`, `ts`)",
    answer: "none (ack)",
  },
  {
    type: "view_submission",
    envelope: "interactive",
    http: "Interactivity Request URL, `payload`",
    route: "POST /admin/act/submit",
    answer: "`response_action`: `errors`, `update`, `push`, `clear`; none closes the view",
  },
  {
    type: "view_closed",
    envelope: "interactive",
    http: "Interactivity Request URL, `payload`",
    route: "POST /admin/act/close-view",
    answer: "none (ack); sent only when the view has `notify_on_close`",
  },
];
