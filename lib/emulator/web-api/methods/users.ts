import { resolvePage } from "../../pagination/pagination";
import { WebApiError } from "../../core/errors";
import type { MethodDefinition } from "../../types";
import { memberAt, memberCount, memberIdAt, memberIndexOf } from "../../workspace/members";
import { callerUserId } from "../../workspace/membership";
import type { Workspace } from "../../workspace/workspace";
import { userConversationsMethod } from "./conversations";

/**
 * Member positions by email, per workspace, built on the first lookup: members are generated on demand,
 * so finding one by email otherwise means generating them all again each time. Bots have no email.
 */
const emailIndexes = new WeakMap<Workspace, Map<string, number>>();
function indexOfEmail(ws: Workspace, baseUrl: string, email: string): number {
  let index = emailIndexes.get(ws);
  if (!index) {
    index = new Map();
    for (let i = 0; i < ws.userCount; i++) {
      const address = (memberAt(ws, i, baseUrl).profile as { email?: string }).email;
      if (address) index.set(address.toLowerCase(), i);
    }
    emailIndexes.set(ws, index);
  }
  const wanted = email.trim().toLowerCase();
  // People who joined later are few, and not in the index built once.
  return index.get(wanted) ?? ws.joined?.find((person) => person.email?.toLowerCase() === wanted)?.index ?? -1;
}

/**
 * Without a limit the platform "attempts to deliver the entire result set"; the emulator delivers as
 * much of it as one page may hold, so large workspaces still paginate.
 */
export const USERS_LIST_DEFAULT_LIMIT = 1000;

/** Separates users.list's short-page pattern from conversations.list's. */
const USERS_STREAM = 101;

export const usersMethods: MethodDefinition[] = [
  {
    name: "users.info",
    tier: 4,
    auth: "token",
    scopes: { bot: ["users:read"], user: ["users:read"] },
    handler({ params, ws, baseUrl }) {
      const index = params.user ? memberIndexOf(ws, params.user) : -1;
      if (index < 0) throw new WebApiError("user_not_found");
      const user = memberAt(ws, index, baseUrl);
      if (params.include_locale === "true" || params.include_locale === "1") user.locale = "en-US";
      return { user };
    },
  },
  {
    name: "users.lookupByEmail",
    tier: 3,
    auth: "token",
    scopes: { bot: ["users:read.email"], user: ["users:read.email"] },
    handler({ params, ws, baseUrl }) {
      const index = params.email ? indexOfEmail(ws, baseUrl, params.email) : -1;
      if (index < 0) throw new WebApiError("users_not_found");
      return { user: memberAt(ws, index, baseUrl) };
    },
  },
  {
    name: "users.profile.get",
    tier: 4,
    auth: "token",
    scopes: { bot: ["users.profile:read"], user: ["users.profile:read"] },
    handler({ params, ws, baseUrl, caller }) {
      // Without `user`, the profile of whom the token acts for (a bot token's: its bot user).
      const userId = params.user || (caller ? callerUserId(caller) : "");
      const index = memberIndexOf(ws, userId);
      if (index < 0) throw new WebApiError("user_not_found");
      // The same profile object users.info answers.
      return { profile: memberAt(ws, index, baseUrl).profile };
    },
  },
  userConversationsMethod,
  {
    name: "users.list",
    pages: "members",
    tier: 2,
    auth: "token",
    scopes: { bot: ["users:read"], user: ["users:read"] },
    handler({ params, ws, clock, options, baseUrl }) {
      const nowMs = clock.now();
      const page = resolvePage({
        ws,
        scope: { method: "users.list", kind: "user" },
        stream: USERS_STREAM,
        total: memberCount(ws),
        params,
        defaultLimit: USERS_LIST_DEFAULT_LIMIT,
        idAt: (index) => memberIdAt(ws, index),
        indexOf: (id) => memberIndexOf(ws, id),
        nowMs,
        cursorTtlSeconds: options.cursorTtlSeconds,
      });
      const withLocale = params.include_locale === "true" || params.include_locale === "1";
      const members: Record<string, unknown>[] = [];
      for (let i = page.start; i < page.end; i++) {
        const member = memberAt(ws, i, baseUrl);
        if (withLocale) member.locale = "en-US";
        members.push(member);
      }
      return {
        members,
        cache_ts: Math.floor(nowMs / 1000),
        response_metadata: { next_cursor: page.nextCursor },
      };
    },
  },
];
