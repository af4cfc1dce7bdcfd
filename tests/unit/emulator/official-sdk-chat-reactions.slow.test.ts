/**
 * The official @slack/web-api WebClient, unmodified, against the emulator over HTTP for chat.postEphemeral,
 * chat.getPermalink, scheduled messages, the 40,000-character truncation warning, reactions, pins and
 * bookmarks: the shapes, warnings and platform errors it reads.
 */
import { LogLevel, WebClient, type WebAPIPlatformError } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock, startEmulatorServer, type EmulatorServer, type FakeClock } from "@/lib/emulator";
import { defaultAppManifests } from "@/lib/emulator/apps/default-apps";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { Json } from "./support/emulator-harness";

const REDIRECT_URI = "http://localhost:3000/oauth/callback";
const EXTRA = ["reactions:read", "reactions:write", "pins:read", "pins:write", "bookmarks:read", "bookmarks:write"];
const BOT_SCOPES = ["channels:history", "channels:join", "channels:read", "chat:write", "users:read", ...EXTRA];

let server: EmulatorServer;
let clock: FakeClock;
let client: WebClient;
let channel: string;

async function install(): Promise<string> {
  const apps = (await (await fetch(`${server.url}/admin/apps`)).json()) as { apps: Json[] };
  const app = apps.apps.find((a) => a.name === "Switchboard Rotation")!;
  const url = new URL(`${server.url}/oauth/v2/authorize`);
  url.search = new URLSearchParams({ client_id: app.client_id, scope: BOT_SCOPES.join(","), redirect_uri: REDIRECT_URI, state: "sdk" }).toString();
  const page = await fetch(url);
  const action = /<form[^>]*action="([^"]+)"/.exec(await page.text())?.[1]?.replace(/&amp;/g, "&");
  if (!action) throw new Error("the consent page has no form");
  const decided = await fetch(action, { method: "POST", body: new URLSearchParams({ decision: "allow" }), redirect: "manual" });
  const code = new URL(decided.headers.get("location") ?? "").searchParams.get("code") ?? "";
  const grant = await client.oauth.v2.access({ client_id: app.client_id, client_secret: app.client_secret, code });
  return grant.access_token as string;
}

beforeAll(async () => {
  clock = createFakeClock(Date.UTC(2026, 0, 1, 9, 0, 0));
  const apps = defaultAppManifests().map((m) => ({
    ...m,
    oauth_config: { ...m.oauth_config, scopes: { bot: [...(m.oauth_config?.scopes?.bot ?? []), ...EXTRA], user: m.oauth_config?.scopes?.user ?? [] } },
  }));
  server = await startEmulatorServer({ port: 0, users: 30, seed: "official-sdk-chat", clock, apps });
  client = new WebClient(undefined, { slackApiUrl: `http://127.0.0.1:${server.port}/api/`, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 } });
  const token = await install();
  client = new WebClient(token, { slackApiUrl: `http://127.0.0.1:${server.port}/api/`, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 } });
  channel = server.emulator.state.workspace.channels.find((c) => c.name === "random")!.id;
  await client.conversations.join({ channel });
});

afterAll(async () => {
  await server?.close();
});

async function platformError(call: Promise<unknown>): Promise<string> {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as WebAPIPlatformError | undefined;
  expect(error?.code).toBe("slack_webapi_platform_error");
  return error!.data.error;
}

describe("@slack/web-api against chat.postEphemeral, chat.getPermalink and scheduled messages", () => {
  it("posts an ephemeral message and reads a permalink", async () => {
    const user = memberIdAt(server.emulator.state.workspace, 0);
    const ephemeral = await client.chat.postEphemeral({ channel, user, text: "psst" });
    expect(ephemeral.ok).toBe(true);
    expect(ephemeral.message_ts).toMatch(/^\d+\.\d{6}$/);
    const posted = await client.chat.postMessage({ channel, text: "link me" });
    const link = await client.chat.getPermalink({ channel, message_ts: posted.ts as string });
    expect(link.permalink).toBe(
      `https://${server.emulator.state.workspace.team.domain}.slack.com/archives/${channel}/p${(posted.ts as string).replace(".", "")}`,
    );
    const outsider = memberIdAt(server.emulator.state.workspace, 29);
    expect(await platformError(client.chat.postEphemeral({ channel, user: outsider, text: "psst" }))).toBe("user_not_in_channel");
  });

  it("reads the message_truncated warning of a text past 40,000 characters", async () => {
    const result = await client.chat.postMessage({ channel, text: "z".repeat(40_100) });
    expect(result.ok).toBe(true);
    expect(result.response_metadata?.warnings).toEqual(["message_truncated"]);
    expect(result.message?.text).toHaveLength(40_000);
  });

  it("schedules, lists and sees the message posted once the clock passes post_at", async () => {
    const postAt = Math.floor(clock.now() / 1000) + 120;
    const scheduled = await client.chat.scheduleMessage({ channel, text: "on time", post_at: postAt });
    expect(scheduled).toMatchObject({ ok: true, channel, post_at: postAt });
    const listed = await client.chat.scheduledMessages.list({ channel });
    expect(listed.scheduled_messages?.map((m) => m.id)).toEqual([scheduled.scheduled_message_id]);
    clock.advance(121_000);
    const history = await client.conversations.history({ channel, limit: 1 });
    expect(history.messages?.[0]?.text).toBe("on time");
    expect(await platformError(client.chat.deleteScheduledMessage({ channel, scheduled_message_id: scheduled.scheduled_message_id as string }))).toBe(
      "invalid_scheduled_message_id",
    );
    expect(await platformError(client.chat.scheduleMessage({ channel, text: "too late", post_at: postAt }))).toBe("time_in_past");
  });
});

describe("@slack/web-api against reactions, pins and bookmarks", () => {
  it("reacts, pins and bookmarks, and reads each back", async () => {
    const ts = (await client.chat.postMessage({ channel, text: "popular" })).ts as string;
    await client.reactions.add({ channel, timestamp: ts, name: "rocket" });
    const got = await client.reactions.get({ channel, timestamp: ts });
    expect(got.message?.reactions).toEqual([{ name: "rocket", users: [expect.stringMatching(/^U/)], count: 1 }]);
    expect(await platformError(client.reactions.add({ channel, timestamp: ts, name: "rocket" }))).toBe("already_reacted");
    await client.reactions.remove({ channel, timestamp: ts, name: "rocket" });
    expect(await platformError(client.reactions.remove({ channel, timestamp: ts, name: "rocket" }))).toBe("no_reaction");

    await client.pins.add({ channel, timestamp: ts });
    const pins = await client.pins.list({ channel });
    // The client types items for files only; a pinned message arrives as the platform sends it, under `message`.
    expect((pins.items as Json[] | undefined)?.map((item) => item.message?.ts)).toEqual([ts]);
    expect(await platformError(client.pins.add({ channel, timestamp: ts }))).toBe("already_pinned");

    const added = await client.bookmarks.add({ channel_id: channel, title: "Docs", type: "link", link: "https://example.com/docs" });
    const bookmarks = await client.bookmarks.list({ channel_id: channel });
    expect(bookmarks.bookmarks?.map((b) => b.id)).toEqual([added.bookmark?.id]);
    await client.bookmarks.edit({ channel_id: channel, bookmark_id: added.bookmark!.id!, title: "Docs v2" });
    expect((await client.bookmarks.list({ channel_id: channel })).bookmarks?.[0]?.title).toBe("Docs v2");
    await client.bookmarks.remove({ channel_id: channel, bookmark_id: added.bookmark!.id! });
    expect((await client.bookmarks.list({ channel_id: channel })).bookmarks).toEqual([]);
  });
});
