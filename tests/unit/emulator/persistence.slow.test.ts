/**
 * The emulator's state in a data directory (lib/emulator/persist): what a broad run of the Web API wrote is
 * all there after a restart on the same directory, and the directory is handled as a database's would be (a
 * torn last line, a damaged journal, a second process, a reset).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { settleEventDeliveries, type AppManifest, type DeliverEvent } from "@/lib/emulator";
import { defaultAppManifests } from "@/lib/emulator/apps/default-apps";
import { readSavedState } from "@/lib/emulator/persist/journal";
import { createHarness, ORIGIN, REDIRECT_URI, type Harness, type Json } from "./support/emulator-harness";
import { answeringChallenges } from "./support/request-url";

const EVENTS_URL = `${ORIGIN}/api/events`;
const EXTRA = [
  "channels:history",
  "channels:join",
  "channels:manage",
  "channels:read",
  "groups:write",
  "im:write",
  "chat:write",
  "users:read",
  "reactions:read",
  "reactions:write",
  "pins:read",
  "pins:write",
  "bookmarks:read",
  "bookmarks:write",
  "files:read",
  "files:write",
  "app_mentions:read",
  "incoming-webhook",
  "usergroups:read",
  "usergroups:write",
  "assistant:write",
];
/** What a member's user token may hold of them. */
const USER_SCOPES = [
  "channels:history",
  "chat:write",
  "users:read",
  "reactions:read",
  "reactions:write",
  "pins:write",
  "bookmarks:read",
  "bookmarks:write",
  "files:write",
];

function manifests(): AppManifest[] {
  return defaultAppManifests({ eventsRequestUrl: EVENTS_URL }).map((m) => ({
    ...m,
    oauth_config: { ...m.oauth_config, scopes: { bot: [...new Set([...(m.oauth_config?.scopes?.bot ?? []), ...EXTRA])], user: USER_SCOPES } },
  }));
}

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "emulator-persist-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const delivered: string[] = [];
const deliverEvent: DeliverEvent = answeringChallenges(async (url) => {
  delivered.push(url);
  return new Response("", { status: 200 });
});

function open(dir: string, warnings: string[] = []): Harness {
  return createHarness({ apps: manifests(), dataDir: dir, workspaces: 2, eventsRequestUrl: EVENTS_URL, deliverEvent, warn: (m) => warnings.push(m) });
}

async function ok(h: Harness, method: string, params: Record<string, string>, token: string): Promise<Json> {
  const { body } = await h.call(method, params, { token });
  expect(body, `${method} ${JSON.stringify(body)}`).toMatchObject({ ok: true });
  return body;
}

/**
 * After every request (and the event deliveries it started), what the journal holds is the live state: a
 * change nobody reported fails at the request that made it, even when a later one rewrites the same record.
 */
function checkEveryRequest(h: Harness, dir: string): void {
  const fetch = h.emulator.fetch.bind(h.emulator);
  h.emulator.fetch = async (request) => {
    const response = await fetch(request);
    const { state } = h.emulator;
    await settleEventDeliveries(state);
    await Promise.all([...state.apps.values()].map((app) => app.requestUrlVerification?.done));
    await new Promise((resolve) => setImmediate(resolve));
    // The transient fields are not saved (persist/state-shape.ts).
    const { workspace: _workspace, rateWindows: _rateWindows, faults: _faults, rateLimitsEnabled: _r, nonMarketplaceLimits: _n, ...live } = state;
    expect(plain(readSavedState(dir, () => undefined)?.state), `the journal after ${request.method} ${new URL(request.url).pathname}`).toEqual(plain(live));
    return response;
  };
}

/** The value with the journal's own containers as plain ones, so that the saved state and the live one compare by content. */
function plain(value: unknown): unknown {
  if (value instanceof Map) return { map: Object.fromEntries([...value].map(([k, v]) => [String(k), plain(v)])) };
  if (value instanceof Set) return { set: [...value].map(plain) };
  if (value instanceof Uint8Array) return { bytes: Buffer.from(value).toString("base64") };
  if (value instanceof Promise) return "promise";
  if (Array.isArray(value)) return Array.from(value, plain);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/** Installs, calls every kind of Web API write, moves the clock: what a day's use of the emulator leaves. */
async function workload(h: Harness) {
  const { rotation, legacy } = await h.apps();
  const ws = h.emulator.state.workspace;
  const random = ws.channels.find((c) => c.name === "random")!.id;
  const general = ws.channels.find((c) => c.isGeneral)!.id;

  // Installs through OAuth (a webhook on #random), a second app, a refresh, an exchange, a revoke.
  const grant = await h.install(rotation, { scope: EXTRA, userScope: USER_SCOPES, channelId: random });
  const refreshed = await h.refresh(rotation, grant.refresh_token);
  expect(refreshed.ok).toBe(true);
  const bot = refreshed.access_token as string;
  const user = grant.authed_user.access_token as string;
  const legacyGrant = await h.install(legacy, { scope: ["chat:write", "users:read"], userScope: ["users:read"] });
  // The app's settings changed (rotation turned on), then its long-lived token exchanged.
  const manifest = ((await h.admin("apps")).body.apps as Json[]).find((a) => a.app_id === legacy.app_id)!.manifest as Json;
  expect(
    (await h.admin("apps", { app_id: legacy.app_id, manifest: { ...manifest, settings: { ...manifest.settings, token_rotation_enabled: true } } })).status,
  ).toBe(200);
  const exchanged = (await h.call("oauth.v2.exchange", { client_id: legacy.client_id, client_secret: legacy.client_secret, token: legacyGrant.access_token }))
    .body;
  expect(exchanged.ok).toBe(true);
  await ok(h, "auth.revoke", {}, legacyGrant.authed_user.access_token);

  // Messages, a thread, an edit, a deletion, reactions, a pin, a bookmark.
  await ok(h, "conversations.join", { channel: random }, bot);
  const first = (await ok(h, "chat.postMessage", { channel: random, text: "first" }, bot)).ts as string;
  await ok(h, "chat.postMessage", { channel: random, text: "a reply", thread_ts: first }, bot);
  const second = (
    await ok(
      h,
      "chat.postMessage",
      { channel: random, text: "second", blocks: JSON.stringify([{ type: "section", text: { type: "mrkdwn", text: "*b*" } }]) },
      bot,
    )
  ).ts as string;
  const gone = (await ok(h, "chat.postMessage", { channel: random, text: "to delete" }, bot)).ts as string;
  await ok(h, "chat.update", { channel: random, ts: second, text: "second, edited" }, bot);
  await ok(h, "chat.delete", { channel: random, ts: gone }, bot);
  await ok(h, "reactions.add", { channel: random, timestamp: first, name: "tada" }, bot);
  await ok(h, "reactions.add", { channel: random, timestamp: first, name: "tada" }, user);
  await ok(h, "reactions.add", { channel: random, timestamp: second, name: "eyes" }, bot);
  await ok(h, "reactions.remove", { channel: random, timestamp: second, name: "eyes" }, bot);
  await ok(h, "pins.add", { channel: random, timestamp: first }, bot);
  const bookmark = (await ok(h, "bookmarks.add", { channel_id: random, title: "Runbook", type: "link", link: "http://example.com/r" }, user)).bookmark as Json;
  await ok(h, "bookmarks.edit", { channel_id: random, bookmark_id: bookmark.id, title: "Runbook v2" }, user);
  const other = (await ok(h, "bookmarks.add", { channel_id: random, title: "Other", type: "link", link: "http://example.com/o" }, user)).bookmark as Json;
  await ok(h, "bookmarks.remove", { channel_id: random, bookmark_id: other.id }, user);

  // User groups: made, renamed, given members, disabled and enabled again; one left disabled.
  const group = (await ok(h, "usergroups.create", { name: "On call", handle: "oncall" }, bot)).usergroup as Json;
  await ok(h, "usergroups.update", { usergroup: group.id, name: "On call, renamed", description: "pager" }, bot);
  await ok(h, "usergroups.users.update", { usergroup: group.id, users: grant.authed_user.id }, bot);
  await ok(h, "usergroups.disable", { usergroup: group.id }, bot);
  await ok(h, "usergroups.enable", { usergroup: group.id }, bot);
  const dropped = (await ok(h, "usergroups.create", { name: "Dropped" }, bot)).usergroup as Json;
  await ok(h, "usergroups.disable", { usergroup: dropped.id }, bot);

  // An assistant thread's status, title and prompts; a streamed reply, stopped, and one still streaming.
  await ok(h, "assistant.threads.setStatus", { channel_id: random, thread_ts: first, status: "is thinking..." }, bot);
  await ok(h, "assistant.threads.setTitle", { channel_id: random, thread_ts: first, title: "Kept" }, bot);
  await ok(h, "assistant.threads.setSuggestedPrompts", { channel_id: random, thread_ts: first, prompts: JSON.stringify([{ title: "A", message: "a" }]) }, bot);
  const recipient = { recipient_team_id: ws.team.id, recipient_user_id: grant.authed_user.id };
  const streamed = (await ok(h, "chat.startStream", { channel: random, thread_ts: first, markdown_text: "Hello", ...recipient }, bot)).ts as string;
  await ok(h, "chat.appendStream", { channel: random, ts: streamed, markdown_text: ", world" }, bot);
  await ok(h, "chat.stopStream", { channel: random, ts: streamed, markdown_text: "." }, bot);
  await ok(h, "chat.startStream", { channel: random, thread_ts: first, markdown_text: "Still going", ...recipient }, bot);

  // Conversations: a new one, its topic, purpose, name, members, archive and back; an im.
  const created = (await ok(h, "conversations.create", { name: "persisted" }, bot)).channel as Json;
  await ok(h, "conversations.setTopic", { channel: created.id, topic: "kept" }, bot);
  await ok(h, "conversations.setPurpose", { channel: created.id, purpose: "across restarts" }, bot);
  await ok(h, "conversations.rename", { channel: created.id, name: "persisted-2" }, bot);
  const members = (await ok(h, "users.list", { limit: "5" }, bot)).members as Json[];
  await ok(h, "conversations.invite", { channel: created.id, users: `${members[1]!.id},${members[2]!.id}` }, bot);
  await ok(h, "conversations.kick", { channel: created.id, user: members[2]!.id }, bot);
  await ok(h, "conversations.kick", { channel: general, user: members[3]!.id }, user).catch(() => undefined);
  await ok(h, "conversations.archive", { channel: created.id }, bot);
  await ok(h, "conversations.unarchive", { channel: created.id }, bot);
  await ok(h, "conversations.open", { users: members[1]!.id }, bot);

  // Scheduled messages: one posted once the clock passes it, one deleted, one still queued.
  const nowS = Math.floor(h.emulator.clock.now() / 1000);
  await ok(h, "chat.scheduleMessage", { channel: random, text: "soon", post_at: String(nowS + 60) }, bot);
  const cancelled = (await ok(h, "chat.scheduleMessage", { channel: random, text: "never", post_at: String(nowS + 600) }, bot)).scheduled_message_id as string;
  await ok(h, "chat.deleteScheduledMessage", { channel: random, scheduled_message_id: cancelled }, bot);
  await ok(h, "chat.scheduleMessage", { channel: random, text: "tomorrow", post_at: String(nowS + 86_400 * 2) }, bot);

  // Files v2: a URL, the bytes, the share.
  const bytes = new TextEncoder().encode("kept,across\nrestarts,1\n");
  const url = await ok(h, "files.getUploadURLExternal", { filename: "kept.csv", length: String(bytes.byteLength) }, bot);
  expect((await h.emulator.fetch(new Request(url.upload_url as string, { method: "POST", body: bytes }))).status).toBe(200);
  await ok(
    h,
    "files.completeUploadExternal",
    { files: JSON.stringify([{ id: url.file_id, title: "Kept" }]), channel_id: random, initial_comment: "the file" },
    bot,
  );
  const pending = await ok(h, "files.getUploadURLExternal", { filename: "half.txt", length: "4" }, bot);
  expect(pending.file_id).toBeTruthy();

  // Views: a modal, one pushed on it, an update, an App Home.
  const trigger = (await h.admin("triggers", { app_id: rotation.app_id })).body.trigger_id as string;
  const modal = (title: string) =>
    JSON.stringify({ type: "modal", title: { type: "plain_text", text: title }, blocks: [{ type: "section", text: { type: "mrkdwn", text: title } }] });
  const opened = (await ok(h, "views.open", { trigger_id: trigger, view: modal("First") }, bot)).view as Json;
  const pushTrigger = (await h.admin("triggers", { app_id: rotation.app_id, view_id: opened.id })).body.trigger_id as string;
  await ok(h, "views.push", { trigger_id: pushTrigger, view: modal("Second") }, bot);
  await ok(h, "views.update", { view_id: opened.id, view: modal("First, updated") }, bot);
  await ok(h, "views.publish", { user_id: grant.authed_user.id, view: JSON.stringify({ type: "home", blocks: [] }) }, bot);

  // An incoming webhook post, a mention delivered as an event, a channel archived by the admin surface.
  expect(
    (
      await h.emulator.fetch(
        new Request(grant.incoming_webhook.url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"text":"hook"}' }),
      )
    ).status,
  ).toBe(200);
  expect((await h.admin("mention", { app_id: rotation.app_id, text: "are you there?" })).status).toBe(200);
  await settleEventDeliveries(h.emulator.state);
  const archived = ws.channels.find((c) => !c.isGeneral && !c.isArchived && c.id !== random && c.id !== created.id)!;
  expect((await h.admin("channels", { id: archived.id, archived: true })).status).toBe(200);

  // App configuration tokens, rotated once; an app made and edited through the manifest API.
  const config = (await h.admin("config-tokens", {})).body as Json;
  const rotated = (await h.call("tooling.tokens.rotate", { refresh_token: config.refresh_token })).body;
  expect(rotated.ok).toBe(true);
  const made = (
    await h.call(
      "apps.manifest.create",
      {
        manifest: JSON.stringify({
          display_information: { name: "Made Later" },
          oauth_config: { redirect_urls: [REDIRECT_URI], scopes: { bot: ["chat:write"] } },
        }),
      },
      { token: rotated.token },
    )
  ).body;
  expect(made.ok).toBe(true);

  // "Sign in with": a code, exchanged for a token.
  const authorize = new URL(`${h.base}/openid/connect/authorize`);
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: rotation.client_id,
    scope: "openid profile email",
    redirect_uri: REDIRECT_URI,
    state: "s",
    nonce: "n",
  }))
    authorize.searchParams.set(k, v);
  const signIn = await h.emulator.fetch(
    new Request(authorize, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ decision: "allow", user_id: members[1]!.id }),
    }),
  );
  const code = new URL(signIn.headers.get("location") ?? "").searchParams.get("code") as string;
  const signedIn = (
    await h.call("openid.connect.token", {
      client_id: rotation.client_id,
      client_secret: rotation.client_secret,
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
    })
  ).body;
  expect(signedIn.ok).toBe(true);

  // App-level tokens (Socket Mode): one kept, one revoked.
  const appToken = (await h.admin(`apps/${rotation.app_id}/app-tokens`, { name: "socket" })).body.token as string;
  expect(appToken).toMatch(/^xapp-1-/);
  expect((await h.admin(`apps/${rotation.app_id}/app-tokens`, { name: "old" })).status).toBe(200);
  expect((await h.admin(`apps/${rotation.app_id}/app-tokens/revoke`, { name: "old" })).status).toBe(200);

  // An install into the second workspace, the clock moved 2 hours (the first scheduled message posts), a page with a cursor.
  const second_ws = [...h.emulator.state.workspaces.values()][1]!;
  const url2 = new URL(h.authorizeUrl(rotation, { scope: ["chat:write", "users:read"], userScope: [] }));
  url2.searchParams.set("team", second_ws.team.id);
  const consent2 = await h.decide(url2.toString(), "allow");
  const code2 = new URL(consent2.headers.get("location") ?? "").searchParams.get("code") as string;
  expect((await h.call("oauth.v2.access", { code: code2, client_id: rotation.client_id, client_secret: rotation.client_secret })).body.ok).toBe(true);
  expect((await h.admin("clock", { advance_s: 7200 })).status).toBe(200);
  await ok(h, "conversations.history", { channel: random }, bot);
  const page = await ok(h, "users.list", { limit: "7" }, bot);
  return {
    bot,
    user,
    signInToken: signedIn.access_token as string,
    configToken: rotated.token as string,
    appToken,
    cursor: page.response_metadata.next_cursor as string,
    secondPage: (await ok(h, "users.list", { limit: "7", cursor: page.response_metadata.next_cursor }, bot)).members,
  };
}

describe("the emulator's state in a data directory", () => {
  it("comes back whole after a restart: every collection deep-equal, tokens alive, a cursor from before still pages, the clock where it was", async () => {
    const dir = dataDir();
    const first = open(dir);
    checkEveryRequest(first, dir);
    const kept = await workload(first);
    const offset = first.emulator.clock.offsetMs();
    await first.emulator.close();

    const second = open(dir);
    expect(second.emulator.state).toEqual(first.emulator.state);
    expect(second.emulator.state.instanceId).toBe(first.emulator.state.instanceId);
    expect(second.emulator.clock.offsetMs()).toBe(offset);
    expect(offset).toBe(7_200_000);
    expect(await second.authTest(kept.bot)).toMatchObject({ ok: true });
    expect(await second.authTest(kept.user)).toMatchObject({ ok: true });
    expect((await second.call("openid.connect.userInfo", {}, { token: kept.signInToken })).body.ok).toBe(true);
    expect((await second.call("apps.manifest.export", { app_id: (await second.apps()).rotation.app_id }, { token: kept.configToken })).body.ok).toBe(true);
    expect((await second.call("apps.connections.open", {}, { token: kept.appToken })).body).toMatchObject({
      ok: true,
      url: expect.stringContaining("/link/?ticket="),
    });
    expect([...second.emulator.state.appTokens.values()].map((t) => [t.name, t.revokedAt === undefined])).toEqual([
      ["socket", true],
      ["old", false],
    ]);
    const again = await second.call("users.list", { limit: "7", cursor: kept.cursor }, { token: kept.bot });
    expect(again.body.members).toEqual(kept.secondPage);
    await second.emulator.close();
  });

  it("keeps what is written after a restart too, and the restart after that", async () => {
    const dir = dataDir();
    const first = open(dir);
    const { rotation } = await first.apps();
    const grant = await first.install(rotation, { scope: ["chat:write", "channels:join"], userScope: [] });
    await first.emulator.close();
    const second = open(dir);
    const channel = second.emulator.state.workspace.channels.find((c) => c.name === "random")!.id;
    await ok(second, "conversations.join", { channel }, grant.access_token);
    await ok(second, "chat.postMessage", { channel, text: "after the restart" }, grant.access_token);
    await second.emulator.close();
    const third = open(dir);
    expect(third.emulator.state).toEqual(second.emulator.state);
    expect(third.emulator.state.workspace.messages.get(channel)?.at(-1)?.text).toBe("after the restart");
    await third.emulator.close();
  });

  it("forgets a deleted channel's messages, also when a channel made after it takes the same id", async () => {
    const dir = dataDir();
    const first = open(dir);
    checkEveryRequest(first, dir);
    const { rotation } = await first.apps();
    const grant = await first.install(rotation, { scope: ["chat:write", "channels:join", "channels:manage"], userScope: [] });
    const bot = grant.access_token as string;
    const made = (await ok(first, "conversations.create", { name: "short-lived" }, bot)).channel as Json;
    await ok(first, "chat.postMessage", { channel: made.id as string, text: "the deleted channel's message" }, bot);
    expect((await first.admin("channels", { id: made.id, deleted: true })).status).toBe(200);
    const next = (await ok(first, "conversations.create", { name: "made-after" }, bot)).channel as Json;
    await ok(first, "chat.postMessage", { channel: next.id as string, text: "the new channel's message" }, bot);
    const live = first.emulator.state.workspace.messages.get(next.id as string)?.map((m) => m.text);
    await first.emulator.close();

    const second = open(dir);
    expect(second.emulator.state).toEqual(first.emulator.state);
    expect(second.emulator.state.workspace.messages.get(next.id as string)?.map((m) => m.text)).toEqual(live);
    const texts = [...second.emulator.state.workspace.messages.values()].flat().map((m) => m.text);
    expect(texts).not.toContain("the deleted channel's message");
    await second.emulator.close();
  });

  it("drops a torn last line (the process died while writing it) with a warning, and starts", async () => {
    const dir = dataDir();
    const first = open(dir);
    const { rotation } = await first.apps();
    const grant = await first.install(rotation, { scope: ["chat:write"], userScope: [] });
    await first.emulator.close();
    appendFileSync(path.join(dir, "journal.jsonl"), '{"p":["state","tokens"],"k":"xoxb-torn","v":{"val');
    const warnings: string[] = [];
    const second = open(dir, warnings);
    expect(warnings).toEqual([expect.stringMatching(/journal\.jsonl ends with a torn line/)]);
    expect(await second.authTest(grant.access_token)).toMatchObject({ ok: true });
    await second.emulator.close();
  });

  it("refuses to start on a damaged journal, naming the file and the line", async () => {
    const dir = dataDir();
    const first = open(dir);
    await first.emulator.close();
    const file = path.join(dir, "journal.jsonl");
    const lines = readFileSync(file, "utf8").split("\n");
    lines.splice(2, 0, "not json at all");
    writeFileSync(file, lines.join("\n"));
    expect(() => open(dir)).toThrow(`The emulator's journal ${file} is damaged at line 3 (not JSON)`);
    // The refusal gives the directory back: once the journal is moved aside, the emulator starts afresh.
    rmSync(file);
    const fresh = open(dir);
    expect(fresh.emulator.state.instanceId).not.toBe("");
    await fresh.emulator.close();
  });

  it("is refused to a second emulator while another has it, and taken over from a process that died", async () => {
    const dir = dataDir();
    const first = open(dir);
    expect(() => open(dir)).toThrow(`The emulator's data directory ${dir} is in use by process ${process.pid}`);
    await first.emulator.close();

    const child = spawn(process.execPath, ["-e", ""]);
    const pid = child.pid as number;
    await new Promise((resolve) => child.once("exit", resolve));
    writeFileSync(path.join(dir, "emulator.lock"), String(pid));
    const taken = open(dir);
    expect(readFileSync(path.join(dir, "emulator.lock"), "utf8")).toBe(String(process.pid));
    await taken.emulator.close();
    expect(existsSync(path.join(dir, "emulator.lock"))).toBe(false);
  });

  it("empties what it saved on POST /admin/reset, with a new instance id", async () => {
    const dir = dataDir();
    const first = open(dir);
    const { rotation } = await first.apps();
    const grant = await first.install(rotation, { scope: ["chat:write"], userScope: [] });
    const before = first.emulator.state.instanceId;
    expect((await first.admin("reset", {})).status).toBe(200);
    const after = first.emulator.state.instanceId;
    expect(after).not.toBe(before);
    await first.emulator.close();
    const second = open(dir);
    expect(second.emulator.state.instanceId).toBe(after);
    expect(second.emulator.state.installations.size).toBe(0);
    expect(await second.authTest(grant.access_token)).toMatchObject({ ok: false, error: "invalid_auth" });
    await second.emulator.close();
  });
});

describe("npm run emulator -- --data-dir D (scripts/emulator-server.ts)", () => {
  it("keeps its state in D, holds D while it runs, and writes what is pending on SIGTERM", async () => {
    const dir = dataDir();
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/emulator-server.ts", "--port", "0", "--users", "20", "--data-dir", dir], {
      cwd: path.resolve(__dirname, "../../.."),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const banner = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("State:")) resolve(out);
      });
      void exited.then((code) => reject(new Error(`exited with ${code}: ${out}`)));
    });
    expect(banner).toContain(`State:     kept in ${dir}`);
    const base = /listening on (\S+)/.exec(banner)![1]!;

    // Installed over HTTP, as any client of the standalone emulator does.
    const apps = (await (await fetch(`${base}/admin/apps`)).json()) as {
      apps: { client_id: string; client_secret: string; token_rotation_enabled: boolean }[];
    };
    const app = apps.apps.find((a) => a.token_rotation_enabled)!;
    const query = new URLSearchParams({ client_id: app.client_id, scope: "chat:write", redirect_uri: REDIRECT_URI, state: "s" });
    const consent = await fetch(`${base}/oauth/v2/authorize?${query}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "decision=allow",
      redirect: "manual",
    });
    const code = new URL(consent.headers.get("location")!).searchParams.get("code")!;
    const access = (await (
      await fetch(`${base}/api/oauth.v2.access`, {
        method: "POST",
        body: new URLSearchParams({ code, client_id: app.client_id, client_secret: app.client_secret }),
      })
    ).json()) as Json;
    expect(access.ok).toBe(true);

    expect(() => open(dir)).toThrow(`The emulator's data directory ${dir} is in use by process ${child.pid}`);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);

    const after = open(dir);
    expect(await after.authTest(access.access_token)).toMatchObject({ ok: true });
    await after.emulator.close();
  }, 30_000);
});

describe("the configuration after a restart", () => {
  it("decides rate limits anew: a switch thrown on the admin surface lasts as long as the process", async () => {
    const dir = dataDir();
    const first = createHarness({ dataDir: dir });
    expect((await first.admin("rate-limits", { enabled: true })).status).toBe(200);
    await first.emulator.close();
    const second = createHarness({ dataDir: dir });
    expect(second.emulator.state.rateLimitsEnabled).toBe(false);
    await second.emulator.close();
    const third = createHarness({ dataDir: dir, rateLimits: true });
    expect(third.emulator.state.rateLimitsEnabled).toBe(true);
    await third.emulator.close();
  });

  it("gives the configured apps the redirect URLs the emulator is configured with now (the console moved to another port)", async () => {
    const dir = dataDir();
    const first = createHarness({ dataDir: dir });
    await first.emulator.close();
    const moved = "http://localhost:3500/oauth/callback";
    const second = createHarness({ dataDir: dir, redirectUrls: [moved] });
    const { rotation } = await second.apps();
    expect(rotation.redirect_urls).toContain(moved);
    const code = await second.authorizeCode(rotation, { redirectUri: moved });
    expect((await second.call("oauth.v2.access", { code, client_id: rotation.client_id, client_secret: rotation.client_secret })).body.ok).toBe(true);
    await second.emulator.close();
  });
});
