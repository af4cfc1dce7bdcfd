/** The bot scopes of the app the conversations tests install: enough to manage, read and post in conversations. */
export const CONVERSATIONS_BOT_SCOPES = [
  "channels:read",
  "channels:join",
  "channels:history",
  // What lists private channels, ims and mpims (conversations.list refuses those types without them).
  "groups:read",
  "im:read",
  "mpim:read",
  "groups:write",
  "im:write",
  "mpim:write",
  "chat:write",
  "users:read",
  "users.profile:read",
  "team:read",
];
