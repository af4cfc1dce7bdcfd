import { resolvePage } from "../pagination";
import type { MethodDefinition } from "../types";
import { memberAt, memberCount, memberIdAt, memberIndexOf } from "../workspace";

/**
 * Without a limit the platform "attempts to deliver the entire result set"; the emulator delivers as
 * much of it as one page may hold, so large workspaces still paginate.
 */
export const USERS_LIST_DEFAULT_LIMIT = 1000;

/** Separates users.list's short-page pattern from conversations.list's. */
const USERS_STREAM = 101;

export const usersMethods: MethodDefinition[] = [
  {
    name: "users.list",
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
