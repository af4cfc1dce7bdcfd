import { createHmac } from "node:crypto";
import { createServer, type AddressInfo } from "node:net";
import { App, directMention, LogLevel } from "@slack/bolt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createKeyRoute } from "@/app/api/api-keys/route";
import { GET as tokenRoute } from "@/app/api/v1/installations/[teamId]/token/route";
import { findInstallation } from "@/lib/installations/repository";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { documentedAuthorize } from "./support/documented-authorize";

/**
 * Issue 36, item 7: an unmodified @slack/bolt app whose `authorize` is docs/token-api.md's, with
 * `app.message(directMention, …)` and Bolt's default ignoreSelf, on `message` events signed by hand with
 * the app's signing secret and posted to the app's HTTP receiver (the emulator sends no message events yet).
 * Before the token API answered the bot's ids, every event failed with slack_bolt_context_missing_property_error.
 */
const SIGNING_SECRET = "a-signing-secret-for-this-test";
let testConsole: TestConsole;
let app: App;
let port: number;
let teamId: string;
let appId: string;
let bot: { userId: string; botId: string };
const heard: string[] = [];
const errors: string[] = [];

/** The route's handler as the backend's fetch reaches it. */
const toConsole: typeof fetch = async (input, init) => {
  const url = new URL(String(input));
  const team = url.pathname.split("/")[4] ?? "";
  return tokenRoute(new Request(url, init), { params: Promise.resolve({ teamId: team }) });
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port: p } = server.address() as AddressInfo;
      server.close(() => resolve(p));
    });
  });
}

let eventCount = 0;
/** A `message` event as the platform delivers it, signed with the app's signing secret (v0 HMAC-SHA256). */
async function deliver(event: Record<string, unknown>): Promise<number> {
  eventCount++;
  const body = JSON.stringify({
    type: "event_callback",
    team_id: teamId,
    api_app_id: appId,
    event_id: `Ev0TEST${eventCount}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: teamId, user_id: bot.userId, is_bot: true, is_enterprise_install: false }],
    event: { type: "message", channel: "C0GENERAL1", channel_type: "channel", ts: `${Date.now() / 1000}`, event_ts: `${Date.now() / 1000}`, ...event },
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac("sha256", SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest("hex")}`;
  const response = await fetch(`http://127.0.0.1:${port}/slack/events`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-slack-request-timestamp": timestamp, "x-slack-signature": signature },
    body,
  });
  await response.text();
  return response.status;
}

beforeAll(async () => {
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "false" });
  const operator = new TestBrowser(testConsole.origin);
  const done = await installIn(operator);
  expect(done.status).toBe(303);
  const installationId = new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!;
  const created = await operator.send(createKeyRoute, "/api/api-keys", { method: "POST", json: { name: "bolt app" } });
  const apiKey = ((await created.json()) as { key: string }).key;
  const installation = (await findInstallation(installationId))!;
  teamId = installation.team.id;
  appId = installation.appId!;
  // Who the bot is, as the platform says: auth.test with its token.
  const identity = (await (
    await fetch(`${testConsole.origin}/emulator/api/auth.test`, { method: "POST", headers: { authorization: `Bearer ${installation.bot!.value}` } })
  ).json()) as { user_id: string; bot_id: string };
  bot = { userId: identity.user_id, botId: identity.bot_id };
  expect(bot.botId).toMatch(/^B/);

  app = new App({
    signingSecret: SIGNING_SECRET,
    authorize: documentedAuthorize({ baseUrl: testConsole.origin, apiKey, fetch: toConsole }),
    clientOptions: { slackApiUrl: `${testConsole.origin}/emulator/api/`, retryConfig: { retries: 0 } },
    logLevel: LogLevel.ERROR,
  });
  app.message(directMention, async ({ message }) => {
    heard.push("text" in message ? (message.text ?? "") : "");
  });
  app.error(async (error) => {
    errors.push(error.code ?? error.message);
  });
  port = await freePort();
  await app.start(port);
});

afterAll(async () => {
  await app?.stop().catch(() => undefined);
  await testConsole?.close();
});

describe("an unmodified Bolt app with directMention and ignoreSelf, authorized by the documented example", () => {
  it("hears a person who mentions the bot first, and nothing else", async () => {
    expect(await deliver({ user: "U0PERSON01", text: `<@${bot.userId}> what's the weather?` })).toBe(200);
    expect(await deliver({ user: "U0PERSON01", text: `good morning <@${bot.userId}>` })).toBe(200);
    expect(await deliver({ user: "U0PERSON01", text: "<@U0SOMEONE1> not for the bot" })).toBe(200);
    await expect.poll(() => heard).toEqual([`<@${bot.userId}> what's the weather?`]);
    expect(errors).toEqual([]);
  });

  it("ignores the bot's own messages (ignoreSelf): by its bot id, and by its bot user", async () => {
    const before = heard.length;
    expect(await deliver({ subtype: "bot_message", bot_id: bot.botId, text: `<@${bot.userId}> talking to myself` })).toBe(200);
    expect(await deliver({ user: bot.userId, text: `<@${bot.userId}> me again` })).toBe(200);
    // A person's mention after them is heard: the two were ignored, not lost in a failure.
    expect(await deliver({ user: "U0PERSON02", text: `<@${bot.userId}> hello` })).toBe(200);
    await expect.poll(() => heard.slice(before)).toEqual([`<@${bot.userId}> hello`]);
    expect(errors).toEqual([]);
  });
});
