/**
 * Issue 39, fidelity defect 7: methods apps call that the emulator lacked, through the official
 * @slack/web-api WebClient over HTTP: usergroups.*, assistant.threads.setStatus/setSuggestedPrompts/setTitle
 * and chat.startStream/appendStream/stopStream, with their refusals (missing_scope, invalid arguments, a
 * disabled user group, a stream that was stopped).
 */
import { LogLevel, WebClient, type WebAPIPlatformError } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import { defaultAppManifests } from "@/lib/emulator/apps/default-apps";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import { install } from "./workspace/support";

const SCOPES = ["usergroups:read", "usergroups:write", "assistant:write", "chat:write", "channels:join", "channels:history", "users:read"];

let server: EmulatorServer;
let bot: WebClient;
let userClient: WebClient;
let limited: WebClient;
let channel: string;
let member: string;
let teamId: string;

const clientFor = (token: string) => new WebClient(token, { slackApiUrl: `${server.url}/api/`, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 } });

async function refusal(call: Promise<unknown>): Promise<Record<string, unknown> & { error: string }> {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as WebAPIPlatformError | undefined;
  expect(error?.code).toBe("slack_webapi_platform_error");
  return error!.data as unknown as Record<string, unknown> & { error: string };
}

beforeAll(async () => {
  // The default apps, allowed the scopes these methods take.
  const apps = defaultAppManifests().map((m) => ({
    ...m,
    oauth_config: {
      ...m.oauth_config,
      scopes: { bot: [...new Set([...(m.oauth_config?.scopes?.bot ?? []), ...SCOPES])], user: ["usergroups:read", "chat:write"] },
    },
  }));
  server = await startEmulatorServer({ port: 0, users: 20, seed: "usergroups-assistant-streams", basePath: "/emulator", apps });
  const ws = server.emulator.state.workspace;
  channel = ws.channels.find((c) => c.isGeneral)!.id;
  teamId = ws.team.id;
  member = memberIdAt(ws, 3);
  const installed = await install(server.emulator, { botScopes: SCOPES, userScopes: ["usergroups:read", "chat:write"] });
  bot = clientFor(installed.botToken);
  userClient = clientFor(installed.userToken!);
  limited = clientFor((await install(server.emulator, { app: "Switchboard Legacy", botScopes: ["chat:write"] })).botToken);
  await bot.conversations.join({ channel });
});

afterAll(async () => {
  await server?.close();
});

describe("usergroups.*", () => {
  it("creates, updates, fills, lists, disables and enables a user group as the platform answers them", async () => {
    const created = await bot.usergroups.create({
      name: "Marketing",
      handle: "marketing-team",
      description: "The team",
      channels: channel,
      include_count: true,
    });
    const group = created.usergroup!;
    expect(group).toMatchObject({
      id: expect.stringMatching(/^S0[A-Z0-9]+$/),
      team_id: teamId,
      name: "Marketing",
      handle: "marketing-team",
      description: "The team",
      date_delete: 0,
      user_count: 0,
    });
    expect(group.prefs).toEqual({ channels: [channel], groups: [] });

    const renamed = await bot.usergroups.update({ usergroup: group.id!, name: "Marketing Team" });
    expect(renamed.usergroup).toMatchObject({ id: group.id, name: "Marketing Team", handle: "marketing-team" });

    const filled = await bot.usergroups.users.update({ usergroup: group.id!, users: `${member},${member}`, include_count: true });
    expect(filled.usergroup).toMatchObject({ users: [member], user_count: 1 });
    expect((await bot.usergroups.users.list({ usergroup: group.id! })).users).toEqual([member]);

    // A user token with usergroups:read reads them too; include_users adds the members.
    const listed = await userClient.usergroups.list({ include_users: true });
    expect(listed.usergroups!.find((g) => g.id === group.id)).toMatchObject({ name: "Marketing Team", users: [member] });

    const disabled = await bot.usergroups.disable({ usergroup: group.id! });
    expect(disabled.usergroup!.date_delete).toBeGreaterThan(0);
    expect((await bot.usergroups.list()).usergroups!.map((g) => g.id)).not.toContain(group.id);
    expect((await bot.usergroups.list({ include_disabled: true })).usergroups!.map((g) => g.id)).toContain(group.id);
    expect((await bot.usergroups.enable({ usergroup: group.id! })).usergroup!.date_delete).toBe(0);
  });

  it("refuses a disabled group's users unless include_disabled, a second disable, taken names, unknown ids and members", async () => {
    const group = (await bot.usergroups.create({ name: "Ops" })).usergroup!;
    expect(group.handle).toBe("ops");
    await bot.usergroups.users.update({ usergroup: group.id!, users: member });
    await bot.usergroups.disable({ usergroup: group.id! });
    expect((await refusal(bot.usergroups.users.list({ usergroup: group.id! }))).error).toBe("no_such_subteam");
    expect((await bot.usergroups.users.list({ usergroup: group.id!, include_disabled: true })).users).toEqual([member]);
    expect((await refusal(bot.usergroups.disable({ usergroup: group.id! }))).error).toBe("already_disabled");
    await bot.usergroups.enable({ usergroup: group.id! });
    expect((await refusal(bot.usergroups.enable({ usergroup: group.id! }))).error).toBe("already_enabled");

    expect((await refusal(bot.usergroups.create({ name: "ops" }))).error).toBe("name_already_exists");
    expect((await refusal(bot.usergroups.create({ name: "Other", handle: "ops" }))).error).toBe("handle_already_exists");
    expect((await refusal(bot.usergroups.update({ usergroup: "S0NOPE" }))).error).toBe("no_such_subteam");
    expect((await refusal(bot.usergroups.users.update({ usergroup: group.id!, users: "U0NOBODY" }))).error).toBe("invalid_users");
    expect((await refusal(bot.usergroups.users.update({ usergroup: group.id!, users: "" }))).error).toBe("no_users_provided");
    const noName = await refusal(bot.apiCall("usergroups.create", {}));
    expect(noName).toMatchObject({ error: "invalid_arguments", response_metadata: { messages: ["[ERROR] missing required field: name"] } });
    // Nothing refused changed the group.
    expect((await bot.usergroups.users.list({ usergroup: group.id! })).users).toEqual([member]);
  });

  it("answers missing_scope with needed and provided to a token without usergroups scopes", async () => {
    expect(await refusal(limited.usergroups.list())).toMatchObject({ error: "missing_scope", needed: "usergroups:read", provided: "chat:write" });
    expect(await refusal(limited.usergroups.create({ name: "Nope" }))).toMatchObject({ error: "missing_scope", needed: "usergroups:write" });
  });
});

describe("assistant.threads.*", () => {
  it("sets a thread's status (and clears it), its title and its suggested prompts", async () => {
    const thread = (await bot.chat.postMessage({ channel, text: "help me" })).ts!;
    const key = `${channel}:${thread}`;
    const threads = server.emulator.state.workspace.assistantThreads;
    expect(
      (await bot.assistant.threads.setStatus({ channel_id: channel, thread_ts: thread, status: "is thinking...", loading_messages: ["Reading", "Writing"] }))
        .ok,
    ).toBe(true);
    expect(threads.get(key)).toMatchObject({ status: "is thinking...", loadingMessages: ["Reading", "Writing"] });
    await bot.assistant.threads.setStatus({ channel_id: channel, thread_ts: thread, status: "" });
    expect(threads.get(key)).toMatchObject({ status: "", loadingMessages: [] });
    await bot.assistant.threads.setTitle({ channel_id: channel, thread_ts: thread, title: "Help" });
    const prompts = [{ title: "Summarize", message: "Summarize the channel" }];
    await bot.assistant.threads.setSuggestedPrompts({ channel_id: channel, thread_ts: thread, prompts, title: "Try" });
    expect(threads.get(key)).toMatchObject({ title: "Help", prompts, promptsTitle: "Try" });
  });

  it("refuses too many prompts, an unknown thread or channel, a user token and a bot without assistant:write", async () => {
    const thread = (await bot.chat.postMessage({ channel, text: "again" })).ts!;
    const five = Array.from({ length: 5 }, (_, i) => ({ title: `T${i}`, message: `M${i}` }));
    expect(await refusal(bot.assistant.threads.setSuggestedPrompts({ channel_id: channel, thread_ts: thread, prompts: five }))).toMatchObject({
      error: "invalid_arguments",
      response_metadata: { messages: ["[ERROR] no more than 4 items allowed [json-pointer:/prompts]"] },
    });
    expect((await refusal(bot.assistant.threads.setTitle({ channel_id: channel, thread_ts: "1.000001", title: "x" }))).error).toBe("thread_not_found");
    expect((await refusal(bot.assistant.threads.setTitle({ channel_id: "C0NOPE", thread_ts: thread, title: "x" }))).error).toBe("channel_not_found");
    expect((await refusal(userClient.assistant.threads.setTitle({ channel_id: channel, thread_ts: thread, title: "x" }))).error).toBe("not_allowed_token_type");
    expect(await refusal(limited.assistant.threads.setStatus({ channel_id: channel, thread_ts: thread, status: "x" }))).toMatchObject({
      error: "missing_scope",
      needed: "assistant:write",
    });
  });
});

describe("chat.startStream, appendStream, stopStream", () => {
  const recipient = () => ({ recipient_team_id: teamId, recipient_user_id: member });

  it("streams a reply into a thread: started, appended, stopped with blocks, and read back whole", async () => {
    const thread = (await bot.chat.postMessage({ channel, text: "question" })).ts!;
    const started = await bot.chat.startStream({ channel, thread_ts: thread, markdown_text: "The answer", ...recipient() });
    expect(started).toMatchObject({ ok: true, channel });
    const ts = started.ts!;
    await bot.chat.appendStream({ channel, ts, markdown_text: " is" });
    await bot.chat.appendStream({ channel, ts, chunks: [{ type: "markdown_text", text: " 42" }] as never });
    const blocks = [{ type: "context", elements: [{ type: "mrkdwn", text: "generated" }] }];
    const stopped = await bot.chat.stopStream({ channel, ts, markdown_text: ".", blocks });
    expect(stopped.message).toMatchObject({ ts, text: "The answer is 42.", thread_ts: thread, blocks });
    const replies = await bot.conversations.replies({ channel, ts: thread });
    expect(replies.messages!.find((m) => m.ts === ts)).toMatchObject({ text: "The answer is 42.", bot_id: expect.any(String) });
  });

  it("refuses a stopped stream, a message that is no stream, another app's stream, and missing or bad arguments", async () => {
    const thread = (await bot.chat.postMessage({ channel, text: "another" })).ts!;
    const ts = (await bot.chat.startStream({ channel, thread_ts: thread, ...recipient() })).ts!;
    expect((await refusal(bot.chat.appendStream({ channel, ts } as never))).error).toBe("no_text");
    expect((await refusal(bot.chat.appendStream({ channel, ts, chunks: [{ type: "bogus" }] as never }))).error).toBe("invalid_chunks");
    expect((await refusal(bot.chat.appendStream({ channel, ts, markdown_text: "x".repeat(12_001) }))).error).toBe("msg_too_long");
    expect((await refusal(bot.chat.stopStream({ channel, ts, blocks: [{ type: "bogus" } as never] }))).error).toBe("invalid_blocks");
    expect((await refusal(userClient.chat.appendStream({ channel, ts, markdown_text: "mine?" }))).error).toBe("cant_update_message");
    await bot.chat.stopStream({ channel, ts });
    expect((await refusal(bot.chat.appendStream({ channel, ts, markdown_text: "late" }))).error).toBe("message_not_in_streaming_state");
    expect((await refusal(bot.chat.stopStream({ channel, ts }))).error).toBe("message_not_in_streaming_state");
    expect((await refusal(bot.chat.appendStream({ channel, ts: thread, markdown_text: "x" }))).error).toBe("message_not_in_streaming_state");
    expect((await refusal(bot.chat.appendStream({ channel, ts: "1.000001", markdown_text: "x" }))).error).toBe("message_not_found");

    expect((await refusal(bot.chat.startStream({ channel, thread_ts: thread, recipient_team_id: teamId } as never))).error).toBe("missing_recipient_user_id");
    expect((await refusal(bot.chat.startStream({ channel, thread_ts: thread, recipient_user_id: member } as never))).error).toBe("missing_recipient_team_id");
    expect((await refusal(bot.chat.startStream({ channel, thread_ts: "1.000001", ...recipient() }))).error).toBe("thread_not_found");
    expect(await refusal(bot.chat.startStream({ channel } as never))).toMatchObject({
      error: "invalid_arguments",
      response_metadata: { messages: ["[ERROR] missing required field: thread_ts"] },
    });
    expect((await refusal(limited.chat.startStream({ channel, thread_ts: thread, ...recipient() }))).error).toBe("not_in_channel");
    // The stopped stream kept what it had: nothing refused was added.
    const replies = await bot.conversations.replies({ channel, ts: thread });
    expect(replies.messages!.find((m) => m.ts === ts)?.text).toBe("");
  });
});
