import "server-only";
import { z } from "zod";
import {
  addMember,
  clickElement,
  closeView,
  messageApp,
  openAppHome,
  postAsMember,
  reactAsMember,
  runShortcut,
  runSlashCommand,
  submitView,
  suggestOptions,
} from "@/lib/emulator-admin/workspace";
import type { AdminTarget } from "@/lib/emulator-admin/transport";
import type { MemberActAnswerWire } from "@/lib/emulator-admin/universal/schemas";

/**
 * What a member of the emulated workspace may do from the Workspace page, each act's body as the console
 * reads it (bounded, every id of the platform's shape) and the operation that carries it to the emulator.
 */

const Id = z.string().regex(/^[A-Z][A-Z0-9]{1,31}$/, "an id such as U0123ABCD");
const Ts = z.string().regex(/^\d{1,12}\.\d{1,9}$/, "a message ts such as 1700000000.000100");
const Who = { user: Id.optional(), team_id: Id.optional() };
const Text = z.string().trim().min(1, "say something").max(40_000);
/** A choice: an option's value, a list for multi-selects and checkboxes, a date, a time, a text. */
const Choice = z.union([z.string().max(3000), z.array(z.string().max(3000)).max(100)]);
const Where = { channel: Id.optional(), ts: Ts.optional(), view_id: Id.optional() };

export const ACTS = {
  post: { body: z.strictObject({ ...Who, channel: Id, text: Text, thread_ts: Ts.optional() }), run: postAsMember },
  dm: { body: z.strictObject({ ...Who, app_id: Id, text: Text }), run: messageApp },
  react: { body: z.strictObject({ ...Who, channel: Id, ts: Ts, name: z.string().regex(/^[a-z0-9_+'-]{1,64}$/, "an emoji name") }), run: reactAsMember },
  "open-home": { body: z.strictObject({ ...Who, app_id: Id, tab: z.enum(["home", "messages"]).optional() }), run: openAppHome },
  command: {
    body: z.strictObject({
      ...Who,
      command: z.string().regex(/^\/[\w-]{1,32}$/, "a slash command such as /ticket"),
      text: z.string().max(4000).optional(),
      channel: Id.optional(),
      app_id: Id.optional(),
    }),
    run: runSlashCommand,
  },
  click: {
    body: z.strictObject({ ...Who, ...Where, action_id: z.string().min(1).max(255), block_id: z.string().max(255).optional(), value: Choice.optional() }),
    run: clickElement,
  },
  /** Typing into an external select: the app's options for what was typed (empty: all it offers). */
  suggest: {
    body: z.strictObject({
      ...Who,
      ...Where,
      action_id: z.string().min(1).max(255),
      block_id: z.string().max(255).optional(),
      value: z.string().max(200).optional(),
    }),
    run: suggestOptions,
  },
  shortcut: {
    body: z.strictObject({ ...Who, callback_id: z.string().min(1).max(255), app_id: Id.optional(), channel: Id.optional(), ts: Ts.optional() }),
    run: runShortcut,
  },
  submit: {
    body: z.strictObject({ ...Who, view_id: Id, values: z.record(z.string().max(255), z.record(z.string().max(255), Choice)).optional() }),
    run: submitView,
  },
  /** Back (the view under it shows again) or Close (`clear`: the whole stack), as the modal's controls do. */
  "close-view": { body: z.strictObject({ ...Who, view_id: Id, clear: z.boolean().optional() }), run: closeView },
  /** A new person joins the workspace (the page's "Add a member"): no one acts, so no `user`. */
  "join-team": {
    body: z.strictObject({
      team_id: Id.optional(),
      real_name: z
        .string()
        .trim()
        .min(1, "a name for the new member")
        .max(80, "at most 80 characters")
        // As the timeline keeps names: a NUL, a bidirectional override or a line break would break the avatar and reverse text in every client.
        .regex(/^[^\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]+$/u, "a name without control characters, bidirectional overrides or line breaks"),
      email: z.email("an email address such as ada@example.com").max(254).optional(),
    }),
    run: addMember,
  },
} as const;

export type ActName = keyof typeof ACTS;

/** Runs one act with a body its schema read. */
export function runAct(target: AdminTarget, name: ActName, body: unknown): Promise<MemberActAnswerWire> {
  const { run } = ACTS[name] as { run: (target: AdminTarget, body: never) => Promise<MemberActAnswerWire> };
  return run(target, body as never);
}
