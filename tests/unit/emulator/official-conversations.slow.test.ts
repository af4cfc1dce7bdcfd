/**
 * An unmodified @slack/web-api WebClient manages conversations against the emulator over HTTP: what one
 * call creates, the next reads, and the platform's errors reach it as WebAPIPlatformError.
 */
import { LogLevel, WebClient, type WebAPIPlatformError } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import { defaultAppManifests } from "@/lib/emulator/apps/default-apps";
import { CONVERSATIONS_BOT_SCOPES } from "./support/conversations-app";

const REDIRECT_URI = "http://localhost:3000/oauth/callback";
const BOT_SCOPES = CONVERSATIONS_BOT_SCOPES;

let server: EmulatorServer;
let bot: WebClient;
let botUserId: string;
let botId: string;

async function install(): Promise<{ token: string }> {
  const app = [...server.emulator.state.apps.values()].find((a) => a.tokenRotationEnabled)!;
  const url = new URL(`${server.url}/oauth/v2/authorize`);
  url.search = new URLSearchParams({ client_id: app.clientId, scope: BOT_SCOPES.join(","), redirect_uri: REDIRECT_URI, state: "sdk" }).toString();
  const page = await fetch(url);
  const action = /<form[^>]*action="([^"]+)"/.exec(await page.text())?.[1]?.replace(/&amp;/g, "&");
  const decided = await fetch(action!, { method: "POST", body: new URLSearchParams({ decision: "allow" }), redirect: "manual" });
  const code = new URL(decided.headers.get("location") ?? "").searchParams.get("code") ?? "";
  const client = new WebClient(undefined, { slackApiUrl: `${server.url}/api/`, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 } });
  const access = await client.oauth.v2.access({ client_id: app.clientId, client_secret: app.clientSecret, code, redirect_uri: REDIRECT_URI });
  botUserId = access.bot_user_id as string;
  return { token: access.access_token as string };
}

async function platformError(call: Promise<unknown>): Promise<string> {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as WebAPIPlatformError | undefined;
  expect(error?.code).toBe("slack_webapi_platform_error");
  return error!.data.error;
}

async function channelNames(params: { exclude_archived?: boolean; types?: string } = {}): Promise<string[]> {
  const names: string[] = [];
  for await (const page of bot.paginate("conversations.list", { limit: 3, ...params })) {
    names.push(...((page as { channels?: Array<{ name?: string; id: string }> }).channels ?? []).map((c) => c.name ?? c.id));
  }
  return names;
}

beforeAll(async () => {
  const apps = defaultAppManifests().map((m) => ({
    ...m,
    oauth_config: { ...m.oauth_config, scopes: { bot: [...new Set([...(m.oauth_config?.scopes?.bot ?? []), ...BOT_SCOPES])], user: ["users:read"] } },
  }));
  // Port 0: a free port, whatever else runs on the machine.
  server = await startEmulatorServer({ port: 0, users: 60, seed: "official-conversations", apps });
  const { token } = await install();
  bot = new WebClient(token, { slackApiUrl: `${server.url}/api/`, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 } });
  botId = (await bot.auth.test()).bot_id as string;
});

afterAll(async () => {
  await server?.close();
});

describe("@slack/web-api WebClient managing conversations", () => {
  it("create → list → rename → archive → list excludes → unarchive", async () => {
    const created = await bot.conversations.create({ name: "sdk-room" });
    const id = created.channel!.id!;
    expect(created.channel).toMatchObject({ name: "sdk-room", is_member: true, is_private: false });
    expect(await channelNames()).toContain("sdk-room");
    expect((await bot.conversations.rename({ channel: id, name: "sdk-hall" })).channel?.name).toBe("sdk-hall");
    expect(await bot.conversations.archive({ channel: id })).toMatchObject({ ok: true });
    expect(await channelNames({ exclude_archived: true })).not.toContain("sdk-hall");
    expect(await platformError(bot.chat.postMessage({ channel: id, text: "x" }))).toBe("is_archived");
    expect(await platformError(bot.conversations.archive({ channel: id }))).toBe("already_archived");
    expect(await bot.conversations.unarchive({ channel: id })).toMatchObject({ ok: true });
    expect(await channelNames({ exclude_archived: true })).toContain("sdk-hall");
    expect(await platformError(bot.conversations.create({ name: "sdk-hall" }))).toBe("name_taken");
    expect(await platformError(bot.conversations.create({ name: "SDK Hall" }))).toBe("invalid_name_specials");
    expect((await bot.conversations.setTopic({ channel: id, topic: "sdk" })).ok).toBe(true);
    expect((await bot.conversations.info({ channel: id })).channel?.topic?.value).toBe("sdk");
  });

  it("open twice → the same im; invite → members; kick → not a member", async () => {
    const people = (await bot.users.list({ limit: 10 })).members!.filter((m) => !m.deleted && !m.is_bot);
    const [a, b] = [people[2]!.id!, people[3]!.id!];
    const first = await bot.conversations.open({ users: a });
    const second = await bot.conversations.open({ users: a });
    expect(second.channel?.id).toBe(first.channel?.id);
    expect(second.already_open).toBe(true);
    expect((await bot.chat.postMessage({ channel: first.channel!.id!, text: "hi" })).ok).toBe(true);

    const { channel } = await bot.conversations.create({ name: "sdk-invites" });
    await bot.conversations.invite({ channel: channel!.id!, users: `${a},${b}` });
    const members: string[] = [];
    for await (const page of bot.paginate("conversations.members", { channel: channel!.id!, limit: 2 }))
      members.push(...((page as { members?: string[] }).members ?? []));
    expect(members).toEqual([a, b, botUserId]);
    await bot.conversations.kick({ channel: channel!.id!, user: a });
    expect((await bot.conversations.members({ channel: channel!.id! })).members).toEqual([b, botUserId]);
    expect(await platformError(bot.conversations.kick({ channel: channel!.id!, user: a }))).toBe("not_in_channel");

    const mine = await bot.users.conversations({ types: "public_channel,im" });
    expect(mine.channels?.map((c) => c.id)).toEqual(expect.arrayContaining([channel!.id, first.channel!.id]));
  });

  it("reads the workspace, its own bot and a person's profile", async () => {
    const team = (await bot.team.info()).team!;
    const ws = server.emulator.state.workspace;
    expect(team).toMatchObject({ id: ws.team.id, name: ws.team.name, domain: ws.team.domain });
    const info = await bot.bots.info({ bot: botId });
    expect(info.bot).toMatchObject({ id: botId, user_id: botUserId, deleted: false });
    const user = (await bot.users.list({ limit: 3 })).members![1]!;
    expect((await bot.users.profile.get({ user: user.id })).profile).toEqual(user.profile);
  });
});
