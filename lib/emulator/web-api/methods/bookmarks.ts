/**
 * bookmarks.add, .edit, .remove and .list: links in a channel's header. Not in the reference's OpenAPI; taken
 * from the platform's method pages: https://docs.slack.dev/reference/methods/bookmarks.add,
 * https://docs.slack.dev/reference/methods/bookmarks.edit, https://docs.slack.dev/reference/methods/bookmarks.remove,
 * https://docs.slack.dev/reference/methods/bookmarks.list (bookmarks:write, Tier 2; bookmarks.list bookmarks:read,
 * Tier 3). Only the `link` type is accepted, as the platform documents.
 */
import { randomInt } from "node:crypto";
import { WebApiError } from "../../core/errors";
import type { Bookmark, Caller, MethodContext, MethodDefinition } from "../../types";
import type { Channel } from "../../workspace/workspace";
import { actingUserId } from "./chat";
import { touch } from "../../core/change-tracking";

const ID_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/** An emoji as bookmarks take it: `:name:`. */
const EMOJI = /^:[a-z0-9_+'-]+(::skin-tone-[2-6])?:$/;

function requireBookmarkChannel(ctx: MethodContext): Channel {
  const channel = ctx.params.channel_id ? ctx.ws.channelsById.get(ctx.params.channel_id) : undefined;
  if (!channel) throw new WebApiError("channel_not_found");
  return channel;
}

/** A link must begin with http:// or https:// (invalid_link). */
function checkedLink(raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) throw new WebApiError("invalid_link");
  return raw;
}

function checkedEmoji(raw: string | undefined): string | null {
  if (raw === undefined || raw === "") return null;
  if (!EMOJI.test(raw)) throw new WebApiError("invalid_emoji");
  return raw;
}

/** A bookmark id of the platform's shape (`Bk033XFJ9BTJ`): Bk and ten characters. */
function nextBookmarkId(ctx: MethodContext): string {
  let id: string;
  do {
    id = `Bk${Array.from({ length: 10 }, () => ID_CHARS[randomInt(ID_CHARS.length)]).join("")}`;
  } while (ctx.state.bookmarks.has(id));
  return id;
}

/** The channel's bookmarks in their order (rank, then creation). */
function channelBookmarks(ctx: MethodContext, channel: Channel): Bookmark[] {
  return [...ctx.state.bookmarks.values()]
    .filter((b) => b.teamId === ctx.ws.team.id && b.channel_id === channel.id)
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.date_created - b.date_created));
}

/** Ranks that sort in the order bookmarks were added: "g", "h", … "z", then "zg", "zh", …, as the platform's "g". */
const RANK_LETTERS = "ghijklmnopqrstuvwxy";
function rankAt(index: number): string {
  return "z".repeat(Math.floor(index / RANK_LETTERS.length)) + RANK_LETTERS[index % RANK_LETTERS.length];
}

/** The rank after the channel's last one. */
function nextRank(existing: Bookmark[]): string {
  const last = existing.at(-1)?.rank;
  if (last === undefined) return rankAt(0);
  const zs = last.length - 1;
  return rankAt(zs * RANK_LETTERS.length + RANK_LETTERS.indexOf(last.at(-1) ?? "g") + 1);
}

function wireBookmark(bookmark: Bookmark): Omit<Bookmark, "teamId"> {
  const { teamId: _teamId, ...wire } = bookmark;
  return wire;
}

function requireBookmark(ctx: MethodContext, channel: Channel): Bookmark {
  const bookmark = ctx.state.bookmarks.get(ctx.params.bookmark_id ?? "");
  if (!bookmark || bookmark.teamId !== ctx.ws.team.id || bookmark.channel_id !== channel.id) throw new WebApiError("not_found");
  return bookmark;
}

export const bookmarksMethods: MethodDefinition[] = [
  {
    name: "bookmarks.add",
    tier: 2,
    auth: "token",
    json: true,
    scopes: { bot: ["bookmarks:write"], user: ["bookmarks:write"] },
    handler(ctx) {
      const caller = ctx.caller as Caller;
      const channel = requireBookmarkChannel(ctx);
      const { title, type, link } = ctx.params;
      if (!title || !type) throw new WebApiError("invalid_arguments");
      if (type !== "link") throw new WebApiError("invalid_bookmark_type");
      const checked = checkedLink(link ?? "");
      const emoji = checkedEmoji(ctx.params.emoji);
      const existing = channelBookmarks(ctx, channel);
      const bookmark: Bookmark = {
        id: nextBookmarkId(ctx),
        teamId: ctx.ws.team.id,
        channel_id: channel.id,
        title,
        link: checked,
        emoji,
        icon_url: null,
        type: "link",
        entity_id: null,
        date_created: Math.floor(ctx.clock.now() / 1000),
        date_updated: 0,
        rank: nextRank(existing),
        last_updated_by_user_id: actingUserId(caller),
        last_updated_by_team_id: ctx.ws.team.id,
        shortcut_id: null,
        app_id: caller.token.family === "bot" ? caller.app.id : null,
      };
      ctx.state.bookmarks.set(bookmark.id, bookmark);
      return { bookmark: wireBookmark(bookmark) };
    },
  },
  {
    name: "bookmarks.edit",
    tier: 2,
    auth: "token",
    json: true,
    scopes: { bot: ["bookmarks:write"], user: ["bookmarks:write"] },
    handler(ctx) {
      const channel = requireBookmarkChannel(ctx);
      const bookmark = requireBookmark(ctx, channel);
      const { title, link, emoji } = ctx.params;
      const checkedLinkValue = link !== undefined && link !== "" ? checkedLink(link) : undefined;
      const checkedEmojiValue = emoji !== undefined ? checkedEmoji(emoji) : undefined;
      if (title !== undefined && title !== "") bookmark.title = title;
      if (checkedLinkValue !== undefined) bookmark.link = checkedLinkValue;
      if (checkedEmojiValue !== undefined) bookmark.emoji = checkedEmojiValue;
      bookmark.date_updated = Math.floor(ctx.clock.now() / 1000);
      bookmark.last_updated_by_user_id = actingUserId(ctx.caller as Caller);
      touch(bookmark);
      return { bookmark: wireBookmark(bookmark) };
    },
  },
  {
    name: "bookmarks.remove",
    tier: 2,
    auth: "token",
    json: true,
    scopes: { bot: ["bookmarks:write"], user: ["bookmarks:write"] },
    handler(ctx) {
      const channel = requireBookmarkChannel(ctx);
      const bookmark = requireBookmark(ctx, channel);
      ctx.state.bookmarks.delete(bookmark.id);
      return {};
    },
  },
  {
    name: "bookmarks.list",
    tier: 3,
    auth: "token",
    json: true,
    scopes: { bot: ["bookmarks:read"], user: ["bookmarks:read"] },
    handler(ctx) {
      const channel = requireBookmarkChannel(ctx);
      return { bookmarks: channelBookmarks(ctx, channel).map(wireBookmark) };
    },
  },
];
