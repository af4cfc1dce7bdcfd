/**
 * Files, the platform's way since files.upload retired: files.getUploadURLExternal hands out an upload URL
 * and a file id, the app POSTs the bytes there (workspace/file-routes.ts), and files.completeUploadExternal
 * turns the upload into a file, shared into a channel as a message with `files` when a channel is named.
 * Then files.info, files.list and files.delete. State: workspace/files.ts.
 *
 * getUploadURLExternal and completeUploadExternal are not in the OpenAPI reference; their arguments, answers
 * and errors come from the platform's method pages:
 * https://docs.slack.dev/reference/methods/files.getUploadURLExternal and
 * https://docs.slack.dev/reference/methods/files.completeUploadExternal (the workflow:
 * https://docs.slack.dev/messaging/working-with-files#uploading_files).
 */
import { dispatchFileShared } from "../../events/workspace-change-events";
import { WebApiError } from "../../core/errors";
import { parseJsonWithin } from "../../core/json-depth";
import type { Caller, MethodContext, MethodDefinition } from "../../types";
import { resolveChannel } from "../../workspace/channels";
import { fileKind, fileTypeOf, uploadTicket, type StoredFile } from "../../workspace/files";
import { memberIndexOf } from "../../workspace/members";
import { appendMessage, findMessage } from "../../workspace/messages";
import { randomPlatformId } from "../../workspace/views";
import type { Channel, Workspace } from "../../workspace/workspace";
import { touch } from "../../core/change-tracking";

/** alt_txt at most 1000 characters (alt_txt_too_large). */
const MAX_ALT_TXT = 1000;
/** files.list: `count` per page, 100 unless given. */
const DEFAULT_COUNT = 100;
const MAX_COUNT = 1000;
const LIST_TYPES = new Set(["all", "spaces", "snippets", "images", "gdocs", "zips", "pdfs"]);

function invalidArguments(message: string): WebApiError {
  return new WebApiError("invalid_arguments", { response_metadata: { messages: [`[ERROR] ${message}`] } });
}

const callerOf = (ctx: MethodContext): Caller => {
  if (!ctx.caller) throw new WebApiError("not_authed");
  return ctx.caller;
};

/** Who a token acts as: its bot user, or its member. */
function actorOf(caller: Caller): string {
  return caller.token.family === "bot" ? caller.installation.botUserId : (caller.token.userId ?? caller.installation.authedUserId);
}

/** The platform's file object (files.info's reference example gives the fields). */
export function wireFile(ws: Workspace, file: StoredFile, baseUrl: string): Record<string, unknown> {
  const name = encodeURIComponent(file.name);
  const ref = `${ws.team.id}-${file.id}`;
  const shares: Record<string, unknown[]> = {};
  for (const [channelId, tss] of file.shares) {
    const channel = ws.channelsById.get(channelId);
    shares[channelId] = tss.map((ts) => ({
      reply_users: [],
      reply_users_count: 0,
      reply_count: 0,
      ts,
      channel_name: channel?.name ?? "",
      team_id: ws.team.id,
      share_user_id: file.userId,
      source: "UNKNOWN",
    }));
  }
  return {
    id: file.id,
    created: file.created,
    timestamp: file.created,
    name: file.name,
    title: file.title,
    mimetype: file.mimetype,
    filetype: file.filetype,
    pretty_type: file.prettyType,
    user: file.userId,
    user_team: ws.team.id,
    editable: false,
    size: file.bytes.byteLength,
    mode: "hosted",
    is_external: false,
    external_type: "",
    is_public: file.shares.size > 0,
    public_url_shared: false,
    display_as_bot: false,
    username: "",
    ...(file.altTxt !== undefined ? { alt_txt: file.altTxt } : {}),
    url_private: `${baseUrl}/files-pri/${ref}/${name}`,
    url_private_download: `${baseUrl}/files-pri/${ref}/download/${name}`,
    permalink: `https://${ws.team.domain}.slack.com/files/${file.userId}/${file.id}/${name}`,
    permalink_public: `https://slack-files.com/${ref}-${file.secret.slice(0, 10)}`,
    comments_count: 0,
    is_starred: false,
    shares: Object.keys(shares).length > 0 ? { public: shares } : {},
    channels: [...file.shares.keys()],
    groups: [],
    ims: [],
    has_more_shares: false,
    has_rich_preview: false,
    file_access: "visible",
  };
}

/** A file the caller may see: its own, or shared in a channel (every emulated channel is public). */
function visibleFile(ctx: MethodContext, caller: Caller, id: string | undefined): StoredFile {
  const file = id ? ctx.ws.files.files.get(id) : undefined;
  if (!file || (file.userId !== actorOf(caller) && file.shares.size === 0)) throw new WebApiError("file_not_found");
  if (file.deleted) throw new WebApiError("file_deleted");
  return file;
}

/** files: `[{"id":"F…","title":"…"}]` (a JSON string), at least one. */
function readFileList(raw: string | undefined): { id: string; title?: string }[] {
  if (raw === undefined || raw === "") throw invalidArguments("missing required field: files");
  const parsed = parseJsonWithin(raw);
  if (!parsed.ok || !Array.isArray(parsed.value) || parsed.value.length === 0) throw invalidArguments("files must be a non-empty array [json-pointer:/files]");
  return parsed.value.map((entry: unknown, i) => {
    const item = entry as { id?: unknown; title?: unknown } | null;
    if (typeof item !== "object" || item === null || typeof item.id !== "string")
      throw invalidArguments(`missing required field: id [json-pointer:/files/${i}]`);
    return { id: item.id, ...(typeof item.title === "string" && item.title !== "" ? { title: item.title } : {}) };
  });
}

/** The channel a completed upload is shared into: channel_id, or `channels` (one id; the client passes it so). */
function shareChannel(ctx: MethodContext, caller: Caller): Channel | undefined {
  const named = ctx.params.channel_id || ctx.params.channels?.split(",")[0]?.trim();
  if (!named) return undefined;
  const channel = resolveChannel(ctx.ws, named);
  if (!channel) throw new WebApiError("invalid_channel");
  if (channel.isArchived) throw new WebApiError("is_archived");
  if (caller.token.family === "bot" && !caller.installation.joinedChannels.has(channel.id)) throw new WebApiError("not_in_channel");
  return channel;
}

function optionalNumber(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

function positiveInteger(raw: string | undefined, fallback: number): number {
  const value = Number.parseInt(raw ?? "", 10);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const FILES_WRITE = { bot: ["files:write"], user: ["files:write"] };
const FILES_READ = { bot: ["files:read"], user: ["files:read"] };

export const filesMethods: MethodDefinition[] = [
  {
    name: "files.getUploadURLExternal",
    tier: 4,
    auth: "token",
    scopes: FILES_WRITE,
    handler(ctx) {
      const caller = callerOf(ctx);
      const { filename, length: rawLength } = ctx.params;
      if (!filename) throw invalidArguments("missing required field: filename");
      // "missing_argument: Typically only occurs when the length provided is 0."
      if (rawLength === undefined || rawLength === "" || rawLength === "0") throw new WebApiError("missing_argument");
      const length = Number(rawLength);
      if (!Number.isSafeInteger(length) || length < 0) throw invalidArguments("length must be an integer [json-pointer:/length]");
      // The upload URL reads at most the emulator's Web API body cap: a larger file is one the workspace does not take.
      if (length > ctx.options.maxBodyBytes.webApi) throw new WebApiError("file_upload_size_restricted");
      // The method's argument is alt_txt; the official JavaScript client sends alt_text.
      const altTxt = ctx.params.alt_txt ?? ctx.params.alt_text;
      if (altTxt !== undefined && altTxt.length > MAX_ALT_TXT) throw new WebApiError("alt_txt_too_large");
      const fileId = randomPlatformId("F");
      const ticket = uploadTicket();
      ctx.ws.files.pending.set(fileId, {
        fileId,
        ticket,
        appId: caller.app.id,
        userId: actorOf(caller),
        filename,
        length,
        ...(altTxt ? { altTxt } : {}),
        ...(ctx.params.snippet_type ? { snippetType: ctx.params.snippet_type } : {}),
        createdAt: ctx.clock.now(),
      });
      ctx.ws.files.tickets.set(ticket, fileId);
      return { upload_url: `${ctx.baseUrl}/upload/v1/${ticket}`, file_id: fileId };
    },
  },
  {
    name: "files.completeUploadExternal",
    tier: 4,
    auth: "token",
    json: true,
    scopes: FILES_WRITE,
    handler(ctx) {
      const caller = callerOf(ctx);
      const { ws } = ctx;
      const entries = readFileList(ctx.params.files);
      const channel = shareChannel(ctx, caller);
      const actor = actorOf(caller);
      // Every file must be an upload of this app and this actor whose bytes arrived: else the platform cannot find it.
      const uploads = entries.map((entry) => {
        const pending = ws.files.pending.get(entry.id);
        if (!pending || pending.appId !== caller.app.id || pending.userId !== actor || !pending.bytes) throw new WebApiError("file_not_found");
        return { entry, pending, bytes: pending.bytes };
      });
      const now = ctx.clock.now();
      const files = uploads.map(({ entry, pending, bytes }): StoredFile => {
        ws.files.pending.delete(pending.fileId);
        ws.files.tickets.delete(pending.ticket);
        const file: StoredFile = {
          id: pending.fileId,
          appId: pending.appId,
          userId: pending.userId,
          ...(caller.token.family === "bot" ? { botId: caller.installation.botId } : {}),
          name: pending.filename,
          title: entry.title ?? pending.filename,
          ...fileTypeOf(pending.filename, pending.snippetType),
          ...(pending.altTxt !== undefined ? { altTxt: pending.altTxt } : {}),
          created: Math.floor(now / 1000),
          bytes,
          secret: uploadTicket(),
          shares: new Map(),
          deleted: false,
        };
        ws.files.files.set(file.id, file);
        return file;
      });
      if (channel) shareInChannel(ctx, caller, channel, files);
      return { files: files.map((file) => wireFile(ws, file, ctx.baseUrl)) };
    },
  },
  {
    name: "files.info",
    tier: 4,
    auth: "token",
    scopes: FILES_READ,
    pages: "comments",
    handler(ctx) {
      const file = visibleFile(ctx, callerOf(ctx), ctx.params.file);
      // Files have no comments any more (file comments retired in 2018): one empty page.
      return { file: wireFile(ctx.ws, file, ctx.baseUrl), comments: [], response_metadata: { next_cursor: "" } };
    },
  },
  {
    name: "files.list",
    tier: 3,
    auth: "token",
    scopes: FILES_READ,
    handler(ctx) {
      const caller = callerOf(ctx);
      const { ws, params } = ctx;
      if (params.user && memberIndexOf(ws, params.user) < 0) throw new WebApiError("user_not_found");
      const types = (params.types || "all").split(",").map((t) => t.trim());
      if (types.some((t) => !LIST_TYPES.has(t))) throw new WebApiError("unknown_type");
      const channel = params.channel ? resolveChannel(ws, params.channel) : undefined;
      const from = optionalNumber(params.ts_from);
      const to = optionalNumber(params.ts_to);
      const actor = actorOf(caller);
      const matching = [...ws.files.files.values()]
        .filter((f) => !f.deleted && (f.userId === actor || f.shares.size > 0))
        .filter((f) => !params.user || f.userId === params.user)
        .filter((f) => !params.channel || (channel !== undefined && f.shares.has(channel.id)))
        .filter((f) => (from === undefined || f.created >= from) && (to === undefined || f.created <= to))
        .filter((f) => types.includes("all") || types.includes(fileKind(f)))
        .reverse();
      // Pages by `count` and `page`, as the reference's paging object says.
      const count = Math.min(positiveInteger(params.count, DEFAULT_COUNT), MAX_COUNT);
      const page = positiveInteger(params.page, 1);
      const slice = matching.slice((page - 1) * count, page * count);
      return {
        files: slice.map((f) => wireFile(ws, f, ctx.baseUrl)),
        paging: { count, total: matching.length, page, pages: Math.ceil(matching.length / count) },
      };
    },
  },
  {
    name: "files.delete",
    tier: 3,
    auth: "token",
    json: true,
    scopes: FILES_WRITE,
    handler(ctx) {
      const caller = callerOf(ctx);
      const file = visibleFile(ctx, caller, ctx.params.file);
      if (file.userId !== actorOf(caller)) throw new WebApiError("cant_delete_file");
      file.deleted = true;
      touch(file);
      // The messages that shared it keep a tombstone in its place, as on the platform.
      for (const [channelId, tss] of file.shares) {
        for (const ts of tss) {
          const message = findMessage(ctx.ws, channelId, ts);
          if (!message?.files) continue;
          message.files = message.files.map((f) => ((f as { id?: string }).id === file.id ? { id: file.id, mode: "tombstone" } : f));
          touch(message);
        }
      }
      return {};
    },
  },
  {
    // Retired on November 12, 2025 for every app (https://docs.slack.dev/changelog/2024-04-a-better-way-to-upload-files-is-here-to-stay,
    // https://docs.slack.dev/reference/methods/files.upload): it answers the platform's error for a retired method.
    name: "files.upload",
    tier: 2,
    auth: "token",
    json: true,
    scopes: FILES_WRITE,
    handler() {
      throw new WebApiError("method_deprecated");
    },
  },
];

/** Shares completed files into a channel: one message carrying them, initial_comment its text, in a thread when asked. */
function shareInChannel(ctx: MethodContext, caller: Caller, channel: Channel, files: StoredFile[]): void {
  const { ws, params } = ctx;
  const isBot = caller.token.family === "bot";
  const author = actorOf(caller);
  const parent = params.thread_ts ? findMessage(ws, channel.id, params.thread_ts) : undefined;
  const thread = parent ? (parent.thread_ts ?? parent.ts) : undefined;
  const blocks = params.blocks ? parseJsonWithin(params.blocks) : undefined;
  const message = appendMessage(
    ws,
    channel.id,
    {
      text: params.initial_comment ?? "",
      user: author,
      ...(isBot ? { bot_id: caller.installation.botId, app_id: caller.app.id } : {}),
      ...(blocks?.ok && Array.isArray(blocks.value) && blocks.value.length > 0 ? { blocks: blocks.value } : {}),
      ...(thread ? { thread_ts: thread } : {}),
      upload: true,
      via: "files.completeUploadExternal",
    },
    ctx.clock.now(),
  );
  for (const file of files) {
    file.shares.set(channel.id, [...(file.shares.get(channel.id) ?? []), message.ts]);
    touch(file);
    dispatchFileShared(ctx, ws, channel, { fileId: file.id, user: author });
  }
  message.files = files.map((file) => wireFile(ws, file, ctx.baseUrl));
  touch(message);
  const root = thread ? findMessage(ws, channel.id, thread) : undefined;
  if (root) {
    root.thread_ts = root.ts;
    root.reply_count = (root.reply_count ?? 0) + 1;
    root.reply_users = [...new Set([...(root.reply_users ?? []), author])];
    root.latest_reply = message.ts;
    touch(root);
  }
}
