/**
 * Files v2: files.getUploadURLExternal, the upload URL, files.completeUploadExternal, files.info,
 * files.list, files.delete, and files.upload retired. The official client's uploadV2 drives the whole
 * sequence over HTTP, unmodified; the rest goes through the in-process harness.
 */
import { LogLevel, WebClient, type WebAPIPlatformError } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import { createHarness, REDIRECT_URI, type AdminApp, type Harness, type Json } from "./support/emulator-harness";

const FILES_APP = {
  display_information: { name: "Files Test App" },
  features: { bot_user: { display_name: "files-bot" } },
  oauth_config: {
    redirect_urls: [REDIRECT_URI],
    scopes: { bot: ["channels:join", "channels:history", "chat:write", "files:read", "files:write"], user: ["files:read", "files:write"] },
  },
  settings: { token_rotation_enabled: false },
};

interface Setup {
  h: Harness;
  app: AdminApp;
  token: string;
  userToken: string;
  channel: string;
}

async function setUp(): Promise<Setup> {
  const h = createHarness();
  const app = (await h.admin("apps", FILES_APP)).body.app as AdminApp;
  const grant = await h.install(app, { scope: FILES_APP.oauth_config.scopes.bot, userScope: FILES_APP.oauth_config.scopes.user });
  const channel = h.emulator.state.workspace.channels.find((c) => c.name === "random")!.id;
  expect((await h.call("conversations.join", { channel }, { token: grant.access_token })).body.ok).toBe(true);
  return { h, app, token: grant.access_token, userToken: grant.authed_user.access_token, channel };
}

/** getUploadURLExternal, then the bytes to the upload URL: the file id and the upload's answer. */
async function upload(s: Setup, filename: string, content: string, token = s.token): Promise<{ fileId: string; uploaded: Response }> {
  const bytes = new TextEncoder().encode(content);
  const { body } = await s.h.call("files.getUploadURLExternal", { filename, length: String(bytes.byteLength) }, { token });
  expect(body.ok).toBe(true);
  const uploaded = await s.h.emulator.fetch(new Request(body.upload_url, { method: "POST", body: bytes }));
  return { fileId: body.file_id, uploaded };
}

async function complete(s: Setup, files: Json[], params: Record<string, string> = {}, token = s.token): Promise<Json> {
  return (await s.h.call("files.completeUploadExternal", { files: JSON.stringify(files), ...params }, { token })).body;
}

describe("files.getUploadURLExternal and the upload URL", () => {
  it("hands out an upload URL under the emulator's base URL and a file id; the URL takes the bytes and answers OK - <length>", async () => {
    const s = await setUp();
    const { body } = await s.h.call("files.getUploadURLExternal", { filename: "notes.txt", length: "5" }, { token: s.token });
    expect(body).toMatchObject({ ok: true, file_id: expect.stringMatching(/^F0[0-9A-Z]{9}$/) });
    expect(body.upload_url).toMatch(new RegExp(`^${s.h.base}/upload/v1/[A-Za-z0-9_-]+$`));
    const uploaded = await s.h.emulator.fetch(new Request(body.upload_url, { method: "POST", body: "hello" }));
    expect(uploaded.status).toBe(200);
    expect(await uploaded.text()).toBe("OK - 5");
  });

  it("takes a multipart file part as the platform's upload URL does", async () => {
    const s = await setUp();
    const { body } = await s.h.call("files.getUploadURLExternal", { filename: "a.csv", length: "7" }, { token: s.token });
    const form = new FormData();
    form.append("filename", new Blob(["a,b\n1,2"]), "a.csv");
    const uploaded = await s.h.emulator.fetch(new Request(body.upload_url, { method: "POST", body: form }));
    expect(await uploaded.text()).toBe("OK - 7");
    const done = await complete(s, [{ id: body.file_id }]);
    expect(done.files[0]).toMatchObject({ name: "a.csv", title: "a.csv", mimetype: "text/csv", filetype: "csv", size: 7 });
  });

  it("refuses more bytes than declared (413), an unknown upload URL (404) and a GET", async () => {
    const s = await setUp();
    const { body } = await s.h.call("files.getUploadURLExternal", { filename: "small.txt", length: "3" }, { token: s.token });
    const tooMany = await s.h.emulator.fetch(new Request(body.upload_url, { method: "POST", body: "four" }));
    expect(tooMany.status).toBe(413);
    expect((await s.h.emulator.fetch(new Request(`${s.h.base}/upload/v1/nope`, { method: "POST", body: "x" }))).status).toBe(404);
    expect((await s.h.emulator.fetch(new Request(body.upload_url))).status).toBe(405);
  });

  it("answers the platform's errors: no filename, length 0, a file past the body cap, alt_txt too long, no files:write", async () => {
    const s = await setUp();
    const call = async (params: Record<string, string>, token = s.token) => (await s.h.call("files.getUploadURLExternal", params, { token })).body;
    expect((await call({ length: "4" })).error).toBe("invalid_arguments");
    expect((await call({ filename: "x.txt", length: "0" })).error).toBe("missing_argument");
    expect((await call({ filename: "x.txt" })).error).toBe("missing_argument");
    expect((await call({ filename: "x.txt", length: String(2 * 1024 * 1024) })).error).toBe("file_upload_size_restricted");
    expect((await call({ filename: "x.png", length: "4", alt_txt: "a".repeat(1001) })).error).toBe("alt_txt_too_large");
    const { rotation } = await s.h.apps();
    const plain = await s.h.install(rotation, { scope: ["chat:write"], userScope: [] });
    expect(await call({ filename: "x.txt", length: "4" }, plain.access_token)).toMatchObject({ error: "missing_scope", needed: "files:write" });
  });
});

describe("files.completeUploadExternal", () => {
  it("shares the files into the channel as one message with files and the initial comment, which history and files.info read back", async () => {
    const s = await setUp();
    const a = await upload(s, "report.txt", "all good");
    const b = await upload(s, "chart.png", "PNG-ish");
    const done = await complete(s, [{ id: a.fileId, title: "The report" }, { id: b.fileId }], { channel_id: s.channel, initial_comment: "Here you go" });
    expect(done.ok).toBe(true);
    expect(done.files.map((f: Json) => [f.id, f.title])).toEqual([
      [a.fileId, "The report"],
      [b.fileId, "chart.png"],
    ]);

    const history = (await s.h.call("conversations.history", { channel: s.channel }, { token: s.token })).body;
    const message = history.messages[0];
    expect(message).toMatchObject({ text: "Here you go", upload: true, bot_id: expect.any(String) });
    expect(message.files.map((f: Json) => f.id)).toEqual([a.fileId, b.fileId]);

    const info = (await s.h.call("files.info", { file: a.fileId }, { token: s.token })).body;
    expect(info).toMatchObject({
      ok: true,
      file: { id: a.fileId, name: "report.txt", title: "The report", mimetype: "text/plain", size: 8, channels: [s.channel], is_public: true, mode: "hosted" },
      comments: [],
      response_metadata: { next_cursor: "" },
    });
    expect(info.file.shares.public[s.channel][0]).toMatchObject({ ts: message.ts, channel_name: "random" });
    expect(info.file.permalink).toMatch(/^https:\/\/emulated-[0-9a-f]+\.slack\.com\/files\//);
    expect((await s.h.call("files.info", { file: b.fileId }, { token: s.token })).body.file).toMatchObject({ mimetype: "image/png", filetype: "png" });
  });

  it("replies in a thread with thread_ts", async () => {
    const s = await setUp();
    const parent = (await s.h.call("chat.postMessage", { channel: s.channel, text: "parent" }, { token: s.token })).body;
    const { fileId } = await upload(s, "reply.txt", "in thread");
    expect((await complete(s, [{ id: fileId }], { channel_id: s.channel, thread_ts: parent.ts })).ok).toBe(true);
    const replies = (await s.h.call("conversations.history", { channel: s.channel }, { token: s.token })).body.messages as Json[];
    const root = replies.find((m) => m.ts === parent.ts)!;
    expect(root.reply_count).toBe(1);
  });

  it("keeps a file private to its uploader when no channel is named", async () => {
    const s = await setUp();
    const { fileId } = await upload(s, "private.txt", "secret");
    expect((await complete(s, [{ id: fileId }])).files[0]).toMatchObject({ channels: [], is_public: false });
    expect((await s.h.call("files.info", { file: fileId }, { token: s.token })).body.ok).toBe(true);
    expect((await s.h.call("files.info", { file: fileId }, { token: s.userToken })).body.error).toBe("file_not_found");
  });

  it("answers file_not_found for an unknown file, one whose bytes never arrived, or one already completed; invalid_channel, not_in_channel", async () => {
    const s = await setUp();
    expect((await complete(s, [{ id: "F0NOTAFILE" }])).error).toBe("file_not_found");
    const pending = (await s.h.call("files.getUploadURLExternal", { filename: "never.txt", length: "3" }, { token: s.token })).body;
    expect((await complete(s, [{ id: pending.file_id }])).error).toBe("file_not_found");
    const { fileId } = await upload(s, "once.txt", "once");
    expect((await complete(s, [{ id: fileId }], { channel_id: "C0NOPE" })).error).toBe("invalid_channel");
    const elsewhere = s.h.emulator.state.workspace.channels.find((c) => c.name === "engineering")!.id;
    expect((await complete(s, [{ id: fileId }], { channel_id: elsewhere })).error).toBe("not_in_channel");
    expect((await complete(s, [{ id: fileId }])).ok).toBe(true);
    expect((await complete(s, [{ id: fileId }])).error).toBe("file_not_found");
    expect((await s.h.call("files.completeUploadExternal", {}, { token: s.token })).body.error).toBe("invalid_arguments");
    // Another actor cannot complete someone else's upload.
    const theirs = await upload(s, "theirs.txt", "bot's");
    expect((await complete(s, [{ id: theirs.fileId }], {}, s.userToken)).error).toBe("file_not_found");
  });
});

describe("files.list", () => {
  it("lists visible files newest first, filtered by channel, user and type, paged by count and page", async () => {
    const s = await setUp();
    const ids: string[] = [];
    for (const name of ["one.txt", "two.png", "three.txt"]) {
      const { fileId } = await upload(s, name, name);
      await complete(s, [{ id: fileId }], { channel_id: s.channel });
      ids.push(fileId);
    }
    const mine = await upload(s, "mine.pdf", "pdf", s.userToken);
    await complete(s, [{ id: mine.fileId }], {}, s.userToken);

    const list = async (params: Record<string, string>, token = s.token) => (await s.h.call("files.list", params, { token })).body;
    const all = await list({});
    expect(all.files.map((f: Json) => f.id)).toEqual([...ids].reverse());
    expect(all.paging).toEqual({ count: 100, total: 3, page: 1, pages: 1 });

    const page2 = await list({ count: "2", page: "2" });
    expect(page2.files.map((f: Json) => f.id)).toEqual([ids[0]]);
    expect(page2.paging).toEqual({ count: 2, total: 3, page: 2, pages: 2 });

    expect((await list({ types: "images" })).files.map((f: Json) => f.name)).toEqual(["two.png"]);
    expect((await list({ types: "snippets,images" })).files).toHaveLength(3);
    expect((await list({ channel: "C0NOPE" })).files).toEqual([]);
    expect((await list({ channel: s.channel })).files).toHaveLength(3);

    // The member sees their private file and the shared ones.
    const theirs = await list({}, s.userToken);
    expect(theirs.files.map((f: Json) => f.name)).toEqual(["mine.pdf", "three.txt", "two.png", "one.txt"]);
    expect((await list({ user: theirs.files[0].user, types: "pdfs" }, s.userToken)).files.map((f: Json) => f.name)).toEqual(["mine.pdf"]);
  });

  it("answers user_not_found and unknown_type", async () => {
    const s = await setUp();
    expect((await s.h.call("files.list", { user: "U0NOBODY1" }, { token: s.token })).body.error).toBe("user_not_found");
    expect((await s.h.call("files.list", { types: "movies" }, { token: s.token })).body.error).toBe("unknown_type");
  });
});

describe("files.delete", () => {
  it("deletes the caller's own file: files.info then answers file_deleted and the message keeps a tombstone", async () => {
    const s = await setUp();
    const { fileId } = await upload(s, "gone.txt", "bye");
    await complete(s, [{ id: fileId }], { channel_id: s.channel, initial_comment: "soon gone" });

    expect((await s.h.call("files.delete", { file: fileId }, { token: s.userToken })).body.error).toBe("cant_delete_file");
    expect((await s.h.call("files.delete", { file: fileId }, { token: s.token })).body).toEqual({ ok: true });
    expect((await s.h.call("files.info", { file: fileId }, { token: s.token })).body.error).toBe("file_deleted");
    expect((await s.h.call("files.delete", { file: fileId }, { token: s.token })).body.error).toBe("file_deleted");
    expect((await s.h.call("files.delete", { file: "F0NOTAFILE" }, { token: s.token })).body.error).toBe("file_not_found");
    expect((await s.h.call("files.list", {}, { token: s.token })).body.files).toEqual([]);
    const message = (await s.h.call("conversations.history", { channel: s.channel }, { token: s.token })).body.messages[0];
    expect(message.files).toEqual([{ id: fileId, mode: "tombstone" }]);
  });
});

describe("url_private", () => {
  it("serves the file's bytes to a token of the workspace, and nothing without one", async () => {
    const s = await setUp();
    const { fileId } = await upload(s, "data.json", '{"a":1}');
    const file = (await complete(s, [{ id: fileId }])).files[0];
    const download = await s.h.emulator.fetch(new Request(file.url_private_download, { headers: { authorization: `Bearer ${s.token}` } }));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/json");
    expect(await download.text()).toBe('{"a":1}');
    expect((await s.h.emulator.fetch(new Request(file.url_private))).status).toBe(401);
  });
});

describe("the official client over HTTP", () => {
  let server: EmulatorServer;
  let bot: WebClient;
  let channel: string;
  let user: string;
  let appId: string;

  async function admin(path: string, body: unknown): Promise<Json> {
    const response = await fetch(`${server.url}/admin/${path}`, {
      method: "POST",
      headers: { origin: new URL(server.url).origin, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Json;
  }

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0, users: 50, seed: "files-sdk" });
    const app = (await admin("apps", FILES_APP)).app as Json;
    appId = app.app_id;
    const authorize = new URL(`${server.url}/oauth/v2/authorize`);
    authorize.search = new URLSearchParams({
      client_id: app.client_id,
      scope: FILES_APP.oauth_config.scopes.bot.join(","),
      user_scope: "",
      redirect_uri: REDIRECT_URI,
    }).toString();
    const decided = await fetch(authorize, { method: "POST", body: new URLSearchParams({ decision: "allow" }), redirect: "manual" });
    const code = new URL(decided.headers.get("location") ?? "").searchParams.get("code") ?? "";
    const client = new WebClient(undefined, { slackApiUrl: `${server.url}/api/`, logLevel: LogLevel.ERROR });
    const grant = await client.oauth.v2.access({ client_id: app.client_id, client_secret: app.client_secret, code, redirect_uri: REDIRECT_URI });
    bot = new WebClient(grant.access_token, { slackApiUrl: `${server.url}/api/`, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 } });
    channel = server.emulator.state.workspace.channels.find((c) => c.name === "random")!.id;
    user = grant.authed_user!.id!;
    await bot.conversations.join({ channel });
  });

  afterAll(async () => {
    await server.close();
  });

  it("uploads with files.uploadV2, unmodified: getUploadURLExternal, the upload URL, completeUploadExternal", async () => {
    const result = (await bot.filesUploadV2({
      channel_id: channel,
      content: "hello from uploadV2",
      filename: "hello.txt",
      title: "Hello",
      initial_comment: "A file for you",
    })) as Json;
    expect(result.ok).toBe(true);
    const file = result.files[0].files[0] as Json;
    expect(file).toMatchObject({ name: "hello.txt", title: "Hello", size: 19, channels: [channel] });

    const buffer = await bot.filesUploadV2({ channel_id: channel, file: Buffer.from([1, 2, 3, 4]), filename: "raw.bin" });
    expect(((buffer as Json).files[0].files[0] as Json).size).toBe(4);

    const info = await bot.files.info({ file: file.id });
    expect(info.file).toMatchObject({ id: file.id, title: "Hello" });
    const history = await bot.conversations.history({ channel, limit: 2 });
    expect(history.messages?.[1]).toMatchObject({ text: "A file for you", files: [{ id: file.id }] });
    const listed = await bot.files.list({ channel });
    expect(listed.files?.map((f) => f.name)).toEqual(["raw.bin", "hello.txt"]);
    expect(await bot.files.delete({ file: file.id })).toMatchObject({ ok: true });
  });

  it("gets method_deprecated from files.upload, retired on the platform", async () => {
    const error = (await bot.files.upload({ channels: channel, content: "old way", filename: "old.txt" }).catch((e: unknown) => e)) as WebAPIPlatformError;
    expect(error.data).toMatchObject({ ok: false, error: "method_deprecated" });
  });

  it("opens a modal with a trigger and publishes an App Home", async () => {
    const issued = await admin("triggers", { app_id: appId });
    const opened = await bot.views.open({
      trigger_id: issued.trigger_id,
      view: { type: "modal", title: { type: "plain_text", text: "From the SDK" }, blocks: [{ type: "section", text: { type: "mrkdwn", text: "hi" } }] },
    });
    expect(opened.view).toMatchObject({ type: "modal", title: { text: "From the SDK" }, root_view_id: opened.view?.id });
    const published = await bot.views.publish({ user_id: user, view: { type: "home", blocks: [{ type: "section", text: { type: "mrkdwn", text: "home" } }] } });
    expect(published.view).toMatchObject({ type: "home" });
    const stale = (await bot.views
      .open({ trigger_id: issued.trigger_id, view: { type: "modal", title: { type: "plain_text", text: "again" }, blocks: [] } })
      .catch((e: unknown) => e)) as WebAPIPlatformError;
    expect(stale.data.error).toBe("exchanged_trigger_id");
  });
});
