/**
 * The events the emulator sends, as the dispatchers read them: each subscription's name (what a manifest's
 * `bot_events` / `user_events` lists), the event type it carries, the scopes it needs (one of them, by the bot or
 * by the member's user token), whether it is a conversation's event (only those in it receive it), and what in
 * the emulator makes it. docs/emulator.md's events table is generated from this list (`npm run conformance`),
 * and the dispatchers take their subscription and scopes from it, so the two cannot disagree.
 */
import type { Channel } from "../workspace/workspace";
import type { TargetNeed } from "./targets";

export interface EventKind {
  /** The subscription's name in a manifest. */
  subscription: string;
  /** The event's `type` (and `subtype`, for a message's). */
  type: string;
  /** One of them is needed; none: no scope. In a private channel `privateScopes` instead. */
  scopes: readonly string[];
  privateScopes?: readonly string[];
  /** Only those in the conversation receive it. */
  conversation: boolean;
  /** Who receives it, when not every app of the workspace (or of the conversation) that may. */
  receivers?: string;
  /** As a user event too (`user_events`), for what the installing member may see. */
  userEvent: boolean;
  /** What in the emulator sends it. */
  from: string;
}

const ANY_POST =
  "any post: chat.postMessage with any token, scheduled messages, webhooks, `POST /admin/act/post` and `/admin/act/dm`; a reply carries `thread_ts` and `parent_user_id`, a person's post `client_msg_id`, an app's own `bot_id`";

export const EVENT_CATALOG: readonly EventKind[] = [
  {
    subscription: "app_mention",
    type: "app_mention",
    scopes: ["app_mentions:read"],
    conversation: true,
    userEvent: false,
    from: "a post mentioning the bot user; `POST /admin/mention`",
  },
  {
    subscription: "message.channels",
    type: "message",
    scopes: ["channels:history"],
    conversation: true,
    userEvent: true,
    from: `${ANY_POST} (\`channel_type\` channel)`,
  },
  {
    subscription: "message.groups",
    type: "message",
    scopes: ["groups:history"],
    conversation: true,
    userEvent: true,
    from: "as message.channels, in a private channel (`channel_type` group)",
  },
  {
    subscription: "message.im",
    type: "message",
    scopes: ["im:history"],
    conversation: true,
    userEvent: true,
    from: "as message.channels, in a DM (`channel_type` im)",
  },
  {
    subscription: "message.mpim",
    type: "message",
    scopes: ["mpim:history"],
    conversation: true,
    userEvent: true,
    from: "as message.channels, in a group DM (`channel_type` mpim)",
  },
  {
    subscription: "message.* (message_changed, message_deleted)",
    type: "message",
    scopes: ["channels:history", "groups:history", "im:history", "mpim:history"],
    conversation: true,
    userEvent: true,
    from: "chat.update (`message`, `previous_message`), chat.delete (`deleted_ts`), under the conversation's message.* subscription and scope",
  },
  {
    subscription: "reaction_added",
    type: "reaction_added",
    scopes: ["reactions:read"],
    conversation: true,
    userEvent: true,
    from: "reactions.add, `POST /admin/act/react`",
  },
  {
    subscription: "reaction_removed",
    type: "reaction_removed",
    scopes: ["reactions:read"],
    conversation: true,
    userEvent: true,
    from: "reactions.remove, `POST /admin/act/react` again",
  },
  {
    subscription: "member_joined_channel",
    type: "member_joined_channel",
    scopes: ["channels:read"],
    privateScopes: ["groups:read"],
    conversation: true,
    userEvent: true,
    from: "conversations.join, conversations.invite (with `inviter`)",
  },
  {
    subscription: "member_left_channel",
    type: "member_left_channel",
    scopes: ["channels:read"],
    privateScopes: ["groups:read"],
    conversation: true,
    userEvent: true,
    from: "conversations.leave, conversations.kick",
  },
  {
    subscription: "channel_created",
    type: "channel_created",
    scopes: ["channels:read"],
    conversation: false,
    userEvent: true,
    from: "conversations.create of a public channel",
  },
  {
    subscription: "channel_rename",
    type: "channel_rename",
    scopes: ["channels:read"],
    conversation: false,
    userEvent: true,
    from: "conversations.rename of a public channel",
  },
  {
    subscription: "channel_archive",
    type: "channel_archive",
    scopes: ["channels:read"],
    conversation: false,
    userEvent: true,
    from: "conversations.archive of a public channel, `POST /admin/channels` `{archived: true}`",
  },
  {
    subscription: "channel_unarchive",
    type: "channel_unarchive",
    scopes: ["channels:read"],
    conversation: false,
    userEvent: true,
    from: "conversations.unarchive, `POST /admin/channels` `{archived: false}`",
  },
  {
    subscription: "team_join",
    type: "team_join",
    scopes: ["users:read"],
    conversation: false,
    userEvent: true,
    from: "`POST /admin/act/join-team` (a person joins the workspace)",
  },
  {
    subscription: "user_change",
    type: "user_change",
    scopes: ["users:read"],
    conversation: false,
    userEvent: true,
    from: "`POST /admin/act/profile` (a member changes their profile)",
  },
  {
    subscription: "file_shared",
    type: "file_shared",
    scopes: ["files:read"],
    conversation: true,
    userEvent: true,
    from: "files.completeUploadExternal into a conversation",
  },
  {
    subscription: "app_home_opened",
    type: "app_home_opened",
    scopes: [],
    conversation: false,
    userEvent: false,
    receivers: "the app whose Home was opened",
    from: "`POST /admin/act/open-home` (`tab` home or messages; `view` once published)",
  },
  {
    subscription: "tokens_revoked",
    type: "tokens_revoked",
    scopes: [],
    conversation: false,
    userEvent: false,
    receivers: "the app concerned",
    from: "auth.revoke (one token with rotation; every token without), apps.uninstall: the user ids by kind (`oauth`, `bot`)",
  },
  {
    subscription: "app_uninstalled",
    type: "app_uninstalled",
    scopes: [],
    conversation: false,
    userEvent: false,
    receivers: "the app concerned",
    from: "apps.uninstall, auth.revoke without rotation",
  },
  {
    subscription: "(none: always sent)",
    type: "app_rate_limited",
    scopes: [],
    conversation: false,
    userEvent: false,
    receivers: "the app concerned",
    from: "past 30,000 events from a workspace in an hour, or the app's event subscriptions disabled (no `event_callback` wrapper)",
  },
];

const BY_SUBSCRIPTION = new Map(EVENT_CATALOG.map((kind) => [kind.subscription, kind]));

/** What an event of a subscription needs of a receiver, from the catalog; `channel` for a conversation's event. */
export function needOf(subscription: string, channel?: Channel, isPrivate = false): TargetNeed {
  const kind = BY_SUBSCRIPTION.get(subscription);
  if (!kind) throw new Error(`no such event subscription in the catalog: ${subscription}`);
  const scopes = isPrivate && kind.privateScopes ? kind.privateScopes : kind.scopes;
  return { event: kind.subscription, scopes: [...scopes], userEvent: kind.userEvent, ...(kind.conversation && channel ? { channel } : {}) };
}
