import { z } from "zod";

/**
 * The answers of the emulator's admin surface ({base}/admin, lib/emulator/admin), as the console reads
 * them: each operation of the client (lib/emulator-admin/client.ts) parses its answer with one of these,
 * so a field the console relies on that is missing or of another type is said as such
 * (emulator_answer_malformed) instead of being read as undefined. Only the fields the console uses are
 * named; the rest of an answer is dropped. Browser-safe (no server-only import): the pages import the
 * types of the answers the console's routes pass on.
 */

/**
 * Any answer's outcome: `ok`, and on a refusal the emulator's code and its detail (for invalid_arguments).
 * Read leniently: a field of another type counts as absent, and the answer as refused.
 */
export const AdminOutcomeWire = z.object({
  ok: z.boolean().catch(false),
  error: z.string().optional().catch(undefined),
  detail: z.string().optional().catch(undefined),
});

/** One reason a manifest is refused: the `errors` item of invalid_manifest (POST /admin/apps). */
const ManifestProblemWire = z.object({ message: z.string(), pointer: z.string() });

export const ManifestRefusalWire = z.object({ errors: z.array(ManifestProblemWire).default([]) });

/** An app's url_verification of its event request URL; null when it has no request URL. */
export const RequestUrlVerificationWire = z
  .object({
    url: z.string(),
    state: z.enum(["pending", "verified", "failed"]),
    at: z.string(),
    duration_ms: z.number().nullable(),
    status: z.number().nullable(),
    failure: z.string().nullable(),
  })
  .nullable();
export type RequestUrlVerificationWire = z.infer<typeof RequestUrlVerificationWire>;

/** POST /admin/apps/{app_id}/verify */
export const VerifyAnswerWire = z.object({ request_url_verification: RequestUrlVerificationWire });

/** Why and since when the emulator stopped sending an app its events (its deliveries mostly failed); null when it sends them. */
export const EventsDisabledWire = z.object({ at: z.string(), reason: z.string(), attempted: z.number(), delivered: z.number() }).nullable();
export type EventsDisabledWire = z.infer<typeof EventsDisabledWire>;

/** POST /admin/apps/{app_id}/events/enable */
export const EventsEnableAnswerWire = z.object({ app_id: z.string(), was_disabled: z.boolean() });

/** One app of GET /admin/apps, credentials in clear (the console masks them before they leave lib/app-config). */
export const AdminAppWire = z.object({
  app_id: z.string(),
  name: z.string(),
  client_id: z.string(),
  client_secret: z.string(),
  signing_secret: z.string(),
  token_rotation_enabled: z.boolean(),
  event_subscriptions: z.object({ request_url_verification: RequestUrlVerificationWire, disabled: EventsDisabledWire }).partial().optional(),
  manifest: z.record(z.string(), z.unknown()),
});
export type AdminAppWire = z.infer<typeof AdminAppWire>;

export const AppsAnswerWire = z.object({ apps: z.array(AdminAppWire) });

const AdminMessageWire = z.object({
  ts: z.string(),
  text: z.string(),
  /** How it arrived: chat.postMessage, incoming-webhook, admin. */
  via: z.string(),
  user: z.string().optional(),
  username: z.string().optional(),
  bot_id: z.string().optional(),
});

/** GET /admin/state, as much of it as the console reads (every token and webhook URL in it is masked). */
export const AdminStateWire = z.object({
  /** The workspace whose channels `channels` lists: the first, or the one asked for with ?team_id=. */
  team: z.object({ id: z.string() }),
  /** How far its clock was moved ahead (POST /admin/clock), in seconds. */
  clock_offset_s: z.number(),
  installations: z.array(
    z.object({
      id: z.string(),
      app_id: z.string(),
      team_id: z.string(),
      incoming_webhook: z.object({ hook_id: z.string(), channel_id: z.string(), channel: z.string() }).nullable(),
    }),
  ),
  tokens: z.array(
    z.object({
      kind: z.string(),
      masked: z.string(),
      state: z.string(),
      rotating: z.boolean(),
      installation_id: z.string(),
      issued_at: z.string().nullable(),
      exchanged_for: z.string().optional(),
    }),
  ),
  /** That workspace's channels that have messages, each with its messages, oldest first. */
  channels: z.array(z.object({ id: z.string(), name: z.string(), messages: z.array(AdminMessageWire) })),
});
export type AdminStateWire = z.infer<typeof AdminStateWire>;

/** One Web API method as the emulator describes itself (GET /admin/methods), passed on to the explorer as it came. */
export const EmulatorMethodWire = z.object({
  name: z.string(),
  tier: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal("special")]),
  auth: z.enum(["token", "client", "config", "none"]),
  scopes: z.object({ bot: z.array(z.string()).nullable(), user: z.array(z.string()).nullable() }),
  paginated: z.boolean(),
  pages: z.string().optional(),
  json: z.boolean(),
});
export type EmulatorMethodWire = z.infer<typeof EmulatorMethodWire>;

export const MethodsAnswerWire = z.object({ methods: z.array(EmulatorMethodWire) });

/** POST /admin/mention: the message posted, and the event ids of the app_mention deliveries it started. */
export const MentionAnswerWire = z.object({
  channel: z.string(),
  ts: z.string(),
  text: z.string(),
  event_ids: z.array(z.string()),
});
/** POST /api/emulator/mention's answer: the emulator's, as it came. */
export type MentionResult = z.infer<typeof MentionAnswerWire>;

/** POST /admin/clock: the emulator's time after the move (epoch ms). */
export const ClockAnswerWire = z.object({ now_ms: z.number() });

/** POST /admin/config-tokens: an app configuration token pair, shown this once. */
export const ConfigTokensAnswerWire = z.object({
  token: z.string(),
  refresh_token: z.string(),
  team_id: z.string(),
  user_id: z.string(),
  iat: z.number(),
  exp: z.number(),
});
export type ConfigTokensAnswerWire = z.infer<typeof ConfigTokensAnswerWire>;

/** One app-level token of GET /admin/apps/{app_id}/app-tokens, masked (`xapp-1-…abcd`). */
const AppLevelTokenWire = z.object({
  name: z.string(),
  scopes: z.array(z.string()),
  masked: z.string(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type AppLevelTokenWire = z.infer<typeof AppLevelTokenWire>;

/** GET /admin/apps/{app_id}/app-tokens, and POST …/app-tokens/revoke: the app's tokens, masked. */
export const AppTokensAnswerWire = z.object({ tokens: z.array(AppLevelTokenWire) });

/** POST /admin/apps/{app_id}/app-tokens: the new token, in clear this once. */
export const NewAppTokenAnswerWire = z.object({ name: z.string(), scopes: z.array(z.string()), token: z.string() });
export type NewAppTokenAnswerWire = z.infer<typeof NewAppTokenAnswerWire>;

/** POST /admin/apps/{app_id}/socket-mode: the switch as it now is, and how many connections were told link_disabled. */
export const SocketModeAnswerWire = z.object({ socket_mode_enabled: z.boolean(), connections_disabled: z.number() });

/** One open Socket Mode connection of GET /admin/apps/{app_id}/connections. */
const SocketConnectionWire = z.object({
  id: z.string(),
  opened_at: z.string(),
  disconnect_sent: z.boolean(),
  envelopes_sent: z.number(),
  awaiting_ack: z.number(),
});
export type SocketConnectionWire = z.infer<typeof SocketConnectionWire>;

/** GET /admin/apps/{app_id}/connections */
export const ConnectionsAnswerWire = z.object({ socket_mode_enabled: z.boolean(), connections: z.array(SocketConnectionWire) });

/** POST /admin/apps/{app_id}/connections/disconnect: how many connections were sent `disconnect`. */
export const DisconnectAnswerWire = z.object({ reason: z.string(), connections: z.number() });

/** One attempt of an event delivery in GET /admin/records. */
const RecordAttemptWire = z.object({
  retry_num: z.number(),
  at: z.string(),
  duration_ms: z.number(),
  status: z.number().nullable(),
  failure: z.string().nullable(),
  envelope_id: z.string().optional(),
  connection_id: z.string().nullable().optional(),
});

/** An event delivery of GET /admin/records: the event (no verification token), where it went, each attempt. */
const EventRecordWire = z.object({
  kind: z.literal("event"),
  id: z.string(),
  event_type: z.string(),
  app_id: z.string(),
  channel: z.string(),
  via: z.enum(["http", "socket"]),
  state: z.enum(["pending", "delivered", "failed"]),
  not_sent: z.string().nullable(),
  attempts: z.array(RecordAttemptWire),
  event: z.unknown(),
});

/** An interaction of GET /admin/records: its payload (response_url cut short), the app's answer and the outcome. */
const InteractionRecordWire = z.object({
  kind: z.literal("interaction"),
  id: z.string(),
  type: z.string(),
  app_id: z.string(),
  user: z.string().nullable(),
  channel: z.string().nullable(),
  via: z.enum(["http", "socket"]),
  at: z.string().nullable(),
  duration_ms: z.number().nullable(),
  status: z.number().nullable(),
  outcome: z.string().nullable(),
  answer: z.unknown(),
  result: z.unknown(),
  payload: z.record(z.string(), z.unknown()),
});

/** GET /admin/records: a workspace's event deliveries and interactions, newest first. */
export const RecordsAnswerWire = z.object({ records: z.array(z.discriminatedUnion("kind", [EventRecordWire, InteractionRecordWire])) });
export type EmulatorRecordWire = z.infer<typeof RecordsAnswerWire>["records"][number];

/*
 * The Workspace page (GET {base}/admin/workspace/*, /admin/views, /admin/act/*): what a member sees and what
 * their acts gave. Messages and views are read loosely: their blocks go to the page's renderer as they are.
 */

const WorkspaceConversationWire = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(["public", "private", "im", "mpim"]),
  is_member: z.boolean(),
  is_archived: z.boolean(),
  with: z.array(z.string()).optional(),
});
export type WorkspaceConversationWire = z.infer<typeof WorkspaceConversationWire>;

const WorkspaceAppWire = z.object({
  app_id: z.string(),
  name: z.string(),
  bot_user_id: z.string(),
  commands: z.array(z.object({ command: z.string(), description: z.string(), usage_hint: z.string() })),
  shortcuts: z.array(z.object({ name: z.string(), type: z.enum(["global", "message"]), callback_id: z.string(), description: z.string() })),
});
export type WorkspaceAppWire = z.infer<typeof WorkspaceAppWire>;

/** GET /admin/workspace/member */
export const WorkspaceMemberWire = z.object({
  team: z.object({ id: z.string(), name: z.string() }),
  user: z.string(),
  people: z.array(z.object({ id: z.string(), name: z.string() })),
  member_count: z.number(),
  apps: z.array(WorkspaceAppWire),
  conversations: z.array(WorkspaceConversationWire),
});
export type WorkspaceMemberWire = z.infer<typeof WorkspaceMemberWire>;

/** GET /admin/workspace/people: people whose name or id matches, and where a further search goes on. */
export const WorkspacePeopleWire = z.object({
  people: z.array(z.object({ id: z.string(), name: z.string() })),
  next: z.number().int().nullable(),
});
export type WorkspacePeopleWire = z.infer<typeof WorkspacePeopleWire>;

export const WorkspaceMessageWire = z.looseObject({
  ts: z.string(),
  text: z.string().default(""),
  user: z.string().optional(),
  bot_id: z.string().optional(),
  app_id: z.string().optional(),
  subtype: z.string().optional(),
  thread_ts: z.string().optional(),
  reply_count: z.number().optional(),
  reactions: z.array(z.object({ name: z.string(), users: z.array(z.string()), count: z.number() })).optional(),
  blocks: z.array(z.unknown()).optional(),
  edited: z.unknown().optional(),
});
export type WorkspaceMessageWire = z.infer<typeof WorkspaceMessageWire>;

/** GET /admin/workspace/history */
export const WorkspaceHistoryWire = z.object({
  channel: WorkspaceConversationWire,
  messages: z.array(WorkspaceMessageWire),
  ephemerals: z.array(WorkspaceMessageWire),
  names: z.record(z.string(), z.string()),
  /** Older messages remain: read them with next_cursor (conversations.history's cursor). */
  has_more: z.boolean().default(false),
  response_metadata: z.object({ next_cursor: z.string() }).default({ next_cursor: "" }),
});
export type WorkspaceHistoryWire = z.infer<typeof WorkspaceHistoryWire>;

const MemberViewWire = z.looseObject({
  id: z.string(),
  app_id: z.string(),
  type: z.enum(["modal", "home"]),
  blocks: z.array(z.unknown()).default([]),
  title: z.unknown().optional(),
  submit: z.unknown().optional(),
  close: z.unknown().optional(),
  errors: z.record(z.string(), z.string()).nullable().default(null),
});
export type MemberViewWire = z.infer<typeof MemberViewWire>;

/** GET /admin/views */
export const MemberViewsWire = z.object({ user: z.string(), modals: z.array(MemberViewWire), homes: z.array(MemberViewWire) });
export type MemberViewsWire = z.infer<typeof MemberViewsWire>;

/**
 * What a member's act gave (POST /admin/act/*): for an interaction, its record (outcome, timing, what the
 * emulator made of the answer); for a post, the message and the event ids it started. The payload sent and
 * the response_url are left out: a response_url posts for 30 minutes, and the browser never holds one.
 */
export const MemberActAnswerWire = z.object({
  interaction_id: z.string().optional(),
  type: z.string().optional(),
  via: z.string().optional(),
  at: z.string().nullable().optional(),
  duration_ms: z.number().nullable().optional(),
  status: z.number().nullable().optional(),
  outcome: z.string().nullable().optional(),
  result: z.record(z.string(), z.unknown()).nullable().optional(),
  channel: z.string().nullable().optional(),
  ts: z.string().optional(),
  event_ids: z.array(z.string()).optional(),
  options: z.array(z.unknown()).optional(),
});
export type MemberActAnswerWire = z.infer<typeof MemberActAnswerWire>;

/** What POST /admin/act/join-team gave: the new member's record (users.info's) and the team_join it sent. */
export const JoinTeamAnswerWire = MemberActAnswerWire.extend({
  user: z.looseObject({ id: z.string(), name: z.string(), real_name: z.string().optional() }),
});
export type JoinTeamAnswerWire = z.infer<typeof JoinTeamAnswerWire>;

/** An option of an external select as the app answered it (block_suggestion): a text and a value. */
const SuggestedOption = z.looseObject({ text: z.looseObject({ type: z.string(), text: z.string() }), value: z.string() });

/**
 * What POST /admin/act/suggest gave: the interaction's record, its `result` the options the app answered
 * (`options`, or `option_groups` each with a label), to offer under the select. No result when the app did
 * not answer or answered something else (the outcome says which).
 */
export const SuggestAnswerWire = MemberActAnswerWire.extend({
  result: z
    .union([
      z.looseObject({ options: z.array(SuggestedOption).max(100) }),
      z.looseObject({
        option_groups: z.array(z.looseObject({ label: z.looseObject({ text: z.string() }), options: z.array(SuggestedOption).max(100) })).max(100),
      }),
    ])
    .nullable()
    .optional(),
});
export type SuggestAnswerWire = z.infer<typeof SuggestAnswerWire>;
