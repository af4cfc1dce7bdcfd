/**
 * Issue 39, fidelity defect 3: Block Kit's structure is checked as the platform checks it, for chat.*,
 * views.* and incoming webhooks, through the official clients over HTTP. A refusal names each problem
 * with its JSON pointer in the platform's shapes (chat.*: invalid_blocks with `errors` and "[ERROR] …"
 * messages; views.*: invalid_arguments with messages; webhooks: 400 and the plain text invalid_blocks), and
 * stores nothing; the blocks real apps send pass untouched.
 */
import { LogLevel, WebClient, type WebAPIPlatformError } from "@slack/web-api";
import { IncomingWebhook } from "@slack/webhook";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import { validateBlocks } from "@/lib/emulator/blocks/validate";
import { BASE, install } from "./workspace/support";

let server: EmulatorServer;
let bot: WebClient;
let webhookUrl: string;
let channel: string;
let member: string;

/** What a real app posts: every block a message shows, with the elements each takes. */
const RICH_MESSAGE = [
  { type: "header", text: { type: "plain_text", text: "Deploy 42", emoji: true } },
  {
    type: "section",
    block_id: "summary",
    text: { type: "mrkdwn", text: "*Build 42* is ready" },
    accessory: { type: "button", text: { type: "plain_text", text: "Open" }, action_id: "open", url: "https://example.com/42" },
  },
  {
    type: "section",
    fields: [
      { type: "mrkdwn", text: "*Env*\nprod" },
      { type: "plain_text", text: "green" },
    ],
  },
  { type: "divider" },
  {
    type: "actions",
    elements: [
      { type: "button", text: { type: "plain_text", text: "Approve" }, style: "primary", value: "yes", action_id: "approve" },
      {
        type: "static_select",
        action_id: "pick",
        placeholder: { type: "plain_text", text: "Pick" },
        options: [{ text: { type: "plain_text", text: "One" }, value: "1" }],
        confirm: {
          title: { type: "plain_text", text: "Sure?" },
          text: { type: "plain_text", text: "Really" },
          confirm: { type: "plain_text", text: "Yes" },
          deny: { type: "plain_text", text: "No" },
        },
      },
      { type: "users_select", action_id: "who", placeholder: { type: "plain_text", text: "Who" } },
      { type: "datepicker", action_id: "when", initial_date: "2026-11-29" },
    ],
  },
  {
    type: "context",
    elements: [
      { type: "mrkdwn", text: "from CI" },
      { type: "image", image_url: "https://example.com/i.png", alt_text: "ci" },
    ],
  },
  { type: "image", image_url: "https://example.com/chart.png", alt_text: "chart", title: { type: "plain_text", text: "Chart" } },
  { type: "rich_text", elements: [{ type: "rich_text_section", elements: [{ type: "text", text: "hello" }] }] },
  { type: "markdown", text: "**bold**" },
];

async function refusal(call: Promise<unknown>): Promise<Record<string, unknown>> {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as WebAPIPlatformError | undefined;
  expect(error?.code).toBe("slack_webapi_platform_error");
  return error!.data as unknown as Record<string, unknown>;
}

beforeAll(async () => {
  server = await startEmulatorServer({ port: 0, users: 20, seed: "block-kit", basePath: "/emulator" });
  const general = server.emulator.state.workspace.channels.find((c) => c.isGeneral)!;
  channel = general.id;
  const installed = await install(server.emulator, {
    botScopes: ["incoming-webhook", "chat:write", "channels:join", "channels:history"],
    webhookChannel: general.id,
  });
  webhookUrl = installed.webhookUrl!.replace(BASE, server.url);
  member = installed.response.authed_user ? (installed.response.authed_user as { id: string }).id : "";
  bot = new WebClient(installed.botToken, { slackApiUrl: `${server.url}/api/`, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 } });
  await bot.conversations.join({ channel });
});

afterAll(async () => {
  await server?.close();
});

const history = async () => (await bot.conversations.history({ channel })).messages ?? [];

describe("chat.* check blocks as the platform does", () => {
  it("refuses an unknown block type with invalid_blocks, the problem and its pointer, and posts nothing", async () => {
    const before = (await history()).length;
    const data = await refusal(bot.chat.postMessage({ channel, text: "x", blocks: [{ type: "bogus" } as never] }));
    expect(data.error).toBe("invalid_blocks");
    expect(data.errors).toEqual(["unsupported type: bogus [json-pointer:/blocks/0/type]"]);
    expect((data.response_metadata as { messages: string[] }).messages).toEqual(["[ERROR] unsupported type: bogus [json-pointer:/blocks/0/type]"]);
    expect((await history()).length).toBe(before);
  });

  it("names a block that is no object, a missing field, a section text past 3000 characters and a section with neither text nor fields", async () => {
    const data = await refusal(
      bot.chat.postMessage({
        channel,
        text: "x",
        blocks: ["a string", { type: "header" }, { type: "section", text: { type: "mrkdwn", text: "y".repeat(3001) } }, { type: "section" }] as never,
      }),
    );
    expect(data.errors).toEqual([
      "must provide an object [json-pointer:/blocks/0]",
      "missing required field: text [json-pointer:/blocks/1]",
      "failed to match all allowed schemas [json-pointer:/blocks/2/text]",
      "must be less than 3001 characters [json-pointer:/blocks/2/text/text]",
      "must define either `text` or `fields` [json-pointer:/blocks/3/type]",
    ]);
  });

  it("takes at most 50 blocks in a message, and block_ids and an actions block's action_ids once each", async () => {
    const many = Array.from({ length: 51 }, () => ({ type: "divider" }));
    expect((await refusal(bot.chat.postMessage({ channel, text: "x", blocks: many }))).errors).toEqual([
      "no more than 50 items allowed [json-pointer:/blocks]",
    ]);
    const twice = [
      { type: "divider", block_id: "same" },
      {
        type: "actions",
        block_id: "same",
        elements: [
          { type: "button", text: { type: "plain_text", text: "A" }, action_id: "go" },
          { type: "button", text: { type: "plain_text", text: "B" }, action_id: "go" },
        ],
      },
    ];
    expect((await refusal(bot.chat.postMessage({ channel, text: "x", blocks: twice }))).errors).toEqual([
      "duplicate action_id: go [json-pointer:/blocks/1/elements/1/action_id]",
      "duplicate block_id: same [json-pointer:/blocks/1/block_id]",
    ]);
  });

  it("checks an element against the place that takes it, and chat.update and chat.postEphemeral check too", async () => {
    const inputInActions = [{ type: "actions", elements: [{ type: "plain_text_input", action_id: "typed" }] }];
    expect((await refusal(bot.chat.postMessage({ channel, text: "x", blocks: inputInActions }))).errors).toEqual([
      "unsupported type: plain_text_input [json-pointer:/blocks/0/elements/0/type]",
    ]);
    const posted = await bot.chat.postMessage({ channel, text: "fine" });
    expect((await refusal(bot.chat.update({ channel, ts: posted.ts!, text: "x", blocks: [{ type: "bogus" } as never] }))).error).toBe("invalid_blocks");
    expect((await history()).find((m) => m.ts === posted.ts)?.blocks).toBeUndefined();
    const ephemeral = bot.chat.postEphemeral({
      channel,
      user: member || "U0",
      text: "x",
      blocks: [{ type: "header", text: { type: "mrkdwn", text: "no" } }] as never,
    });
    expect((await refusal(ephemeral)).errors).toEqual(['must be "plain_text" [json-pointer:/blocks/0/text/type]']);
  });

  it("posts a message using every kind of block untouched", async () => {
    const posted = await bot.chat.postMessage({ channel, text: "Deploy 42", blocks: RICH_MESSAGE });
    expect(posted.ok).toBe(true);
    expect((await history()).find((m) => m.ts === posted.ts)?.blocks).toEqual(RICH_MESSAGE);
  });
});

describe("views.* check a view's blocks", () => {
  it("answers invalid_arguments with every problem as an [ERROR] message pointing into /view/blocks", async () => {
    const view = {
      type: "home" as const,
      blocks: [{ type: "bogus" }, { type: "section", text: { type: "mrkdwn", text: "" } }, { type: "file", external_id: "x", source: "remote" }],
    };
    const data = await refusal(bot.views.publish({ user_id: member, view: view as never }));
    expect(data.error).toBe("invalid_arguments");
    expect((data.response_metadata as { messages: string[] }).messages).toEqual([
      "[ERROR] unsupported type: bogus [json-pointer:/view/blocks/0/type]",
      "[ERROR] failed to match all allowed schemas [json-pointer:/view/blocks/1/text]",
      "[ERROR] must be more than 0 characters [json-pointer:/view/blocks/1/text/text]",
      "[ERROR] unsupported type: file [json-pointer:/view/blocks/2/type]",
    ]);
    expect(server.emulator.state.workspace.views.views.size).toBe(0);
    const published = await bot.views.publish({ user_id: member, view: { type: "home", blocks: RICH_MESSAGE.filter((b) => b.type !== "markdown") as never } });
    expect(published.ok).toBe(true);
  });
});

describe("incoming webhooks answer 400 invalid_blocks", () => {
  it("as plain text, posting nothing; valid blocks post", async () => {
    const before = (await history()).length;
    const response = await fetch(webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "x", blocks: [{ type: "bogus" }] }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("invalid_blocks");
    expect((await history()).length).toBe(before);
    expect((await new IncomingWebhook(webhookUrl).send({ text: "ok", blocks: RICH_MESSAGE })).text).toBe("ok");
  });
});

describe("validateBlocks per surface", () => {
  it("takes 100 blocks and a file_input in a modal, refuses a file block or markdown outside messages", () => {
    const input = { type: "input", label: { type: "plain_text", text: "Upload" }, element: { type: "file_input", action_id: "f" } };
    expect(validateBlocks([input], { surface: "modal" })).toEqual([]);
    expect(validateBlocks([input], { surface: "message" })).toEqual(["unsupported type: file_input [json-pointer:/blocks/0/element/type]"]);
    expect(
      validateBlocks(
        Array.from({ length: 100 }, () => ({ type: "divider" })),
        { surface: "home" },
      ),
    ).toEqual([]);
    expect(validateBlocks([{ type: "markdown", text: "x" }], { surface: "home", pointer: "/view/blocks" })).toEqual([
      "unsupported type: markdown [json-pointer:/view/blocks/0/type]",
    ]);
  });
});
