/**
 * Fidelity defects found with other people's clients (issue 30): what a client written against the
 * platform relies on and the emulator answered otherwise. Each is checked the way such a client meets it:
 * cursors sent without percent-encoding, profile fields indexed without a check, a webhook's blocks read
 * back from history, the workspace's domain parsed from auth.test's url.
 */
import { LogLevel, WebClient } from "@slack/web-api";
import { IncomingWebhook } from "@slack/webhook";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmulator, startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import { memberAt } from "@/lib/emulator/workspace/members";
import { appendMessage } from "@/lib/emulator/workspace/messages";
import { BASE, callApi, install, startEmulator, type Json } from "./workspace/support";

const nextCursor = (page: Json) => (page.response_metadata as { next_cursor: string }).next_cursor;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** A GET with the cursor pasted into the query string as is, not percent-encoded, as some clients send it. */
async function getUnencoded(emulator: ReturnType<typeof startEmulator>["emulator"], method: string, query: string, cursor: string, token: string) {
  const url = `${BASE}/api/${method}?${query}${cursor ? `&cursor=${cursor}` : ""}`;
  const response = await emulator.fetch(new Request(url, { headers: { authorization: `Bearer ${token}` } }));
  return (await response.json()) as Json;
}

/** Walks a method with limit=1 (a cursor per item), every cursor sent unencoded; returns the cursors and items. */
async function walkUnencoded(emulator: ReturnType<typeof startEmulator>["emulator"], method: string, query: string, key: string, token: string) {
  const cursors: string[] = [];
  const ids: string[] = [];
  let cursor = "";
  for (let guard = 0; guard < 10_000; guard++) {
    const page = await getUnencoded(emulator, method, query, cursor, token);
    expect(page.ok, `${method} after ${cursors.length} cursors: ${page.error}`).toBe(true);
    ids.push(...(page[key] as Array<{ id?: string; ts?: string }>).map((item) => item.id ?? item.ts ?? ""));
    cursor = nextCursor(page);
    if (!cursor) break;
    cursors.push(cursor);
  }
  return { cursors, ids };
}

describe("cursors are base64 of ASCII text with no + or /, like the platform's", () => {
  it("over thousands of users.list, conversations.list and conversations.history cursors, each sent unencoded in a query", async () => {
    const { emulator, clock } = startEmulator({ users: 2000 });
    const { botToken } = await install(emulator, { botScopes: ["users:read", "channels:read", "channels:join", "channels:history"] });
    const ws = emulator.state.workspace;
    const general = ws.channels.find((c) => c.isGeneral)!;
    expect((await callApi(emulator, "conversations.join", { channel: general.id }, botToken)).ok).toBe(true);
    for (let i = 0; i < 300; i++) appendMessage(ws, general.id, { text: `message ${i}`, via: "admin" }, clock.now());

    const users = await walkUnencoded(emulator, "users.list", "limit=1", "members", botToken);
    const channels = await walkUnencoded(emulator, "conversations.list", "limit=1", "channels", botToken);
    const history = await walkUnencoded(emulator, "conversations.history", `channel=${general.id}&limit=1`, "messages", botToken);

    // Every item once: the walk never stopped on an invalid_cursor, and never skipped or repeated.
    expect(new Set(users.ids).size).toBe(ws.userCount + ws.bots.length);
    expect(users.ids.length).toBe(ws.userCount + ws.bots.length);
    expect(new Set(channels.ids).size).toBe(ws.channels.length);
    expect(history.ids.length).toBe(300);

    const all = [...users.cursors, ...channels.cursors, ...history.cursors];
    expect(all.length).toBeGreaterThan(2300);
    for (const cursor of all) {
      expect(cursor).not.toMatch(/[+/]/);
      expect(cursor).toMatch(/^[A-Za-z0-9]+=$/);
      const text = Buffer.from(cursor, "base64").toString("latin1");
      expect(text).toMatch(PRINTABLE_ASCII);
      expect(Buffer.from(text, "latin1").toString("base64")).toBe(cursor);
    }
    // The readable head is the platform's shape: `user:U…`, `channel:C…`, the next message's ts.
    expect(Buffer.from(users.cursors[0]!, "base64").toString("latin1")).toMatch(/^user:U[0-9A-Z]+:/);
    expect(Buffer.from(channels.cursors[0]!, "base64").toString("latin1")).toMatch(/^channel:C[0-9A-Z]+:/);
    expect(Buffer.from(history.cursors[0]!, "base64").toString("latin1")).toMatch(/^message:\d+\.\d{6}:/);
  }, 60_000);

  it("still answers invalid_cursor for a garbled, an old-style (+ and /) or a stale cursor", async () => {
    const { emulator, clock } = startEmulator();
    const { botToken } = await install(emulator);
    const cursor = nextCursor(await callApi(emulator, "users.list", { limit: 10 }, botToken));
    const middle = Math.floor(cursor.length / 2);
    const garbled = cursor.slice(0, middle) + (cursor[middle] === "A" ? "B" : "A") + cursor.slice(middle + 1);
    // What the emulator used to issue: binary after the payload, so + and / in about one cursor in five.
    const oldStyle = Buffer.concat([
      Buffer.from("user:U01WWACT9\0"),
      Buffer.from([0x69, 0x5f, 0x3e, 0x80, 0xfb, 0xff, 0xfe, 0x3f, 0xbf, 0xef, 0xfc, 0x01, 0x02, 0x03, 0x04, 0x05]),
    ]).toString("base64");
    expect(oldStyle).toMatch(/[+/]/);
    for (const bad of [garbled, oldStyle, oldStyle.replace(/\+/g, " ")]) {
      expect(await callApi(emulator, "users.list", { limit: 10, cursor: bad }, botToken)).toEqual({ ok: false, error: "invalid_cursor" });
    }
    expect((await getUnencoded(emulator, "users.list", "limit=10", cursor, botToken)).ok).toBe(true);
    clock.advance(900_000);
    expect(await getUnencoded(emulator, "users.list", "limit=10", cursor, botToken)).toEqual({ ok: false, error: "invalid_cursor" });
  });
});

/** The fields the OpenAPI's objs_user_profile requires (docs/reference/slack_web_openapi_v2.json). */
const REQUIRED_PROFILE_FIELDS = [
  "real_name",
  "display_name",
  "avatar_hash",
  "real_name_normalized",
  "display_name_normalized",
  "title",
  "phone",
  "skype",
  "status_text",
  "status_emoji",
  "fields",
];

describe("profiles carry every field the platform's required profile fields name", () => {
  let server: EmulatorServer;
  let client: WebClient;
  let botToken: string;

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0, users: 1500, seed: "profiles", basePath: "/emulator" });
    client = new WebClient(undefined, { slackApiUrl: `${server.url}/api/`, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 } });
    const installed = await install(server.emulator);
    botToken = installed.botToken;
  });

  afterAll(async () => {
    await server?.close();
  });

  it("users.list (through the official client): display_name, status and the rest on every member, bots included", async () => {
    const members: Array<Record<string, unknown>> = [];
    for await (const page of client.paginate("users.list", { token: botToken, limit: 200 })) {
      members.push(...((page as { members?: Array<Record<string, unknown>> }).members ?? []));
    }
    expect(members.length).toBe(1501);
    let named = 0;
    let nonAscii = 0;
    let withStatus = 0;
    for (const member of members) {
      const profile = member.profile as Record<string, unknown>;
      for (const field of REQUIRED_PROFILE_FIELDS) expect(profile, `${member.id} ${field}`).toHaveProperty(field);
      for (const field of REQUIRED_PROFILE_FIELDS.filter((f) => f !== "fields")) expect(typeof profile[field], `${member.id} ${field}`).toBe("string");
      const displayName = profile.display_name as string;
      const normalized = profile.display_name_normalized as string;
      expect(normalized === "").toBe(displayName === "");
      expect(normalized).toBe(
        displayName
          .normalize("NFD")
          .replace(/[\u0300-\u036f]/g, "")
          .replace(/ø/g, "o")
          .replace(/Ø/g, "O"),
      );
      // A status is text and emoji together, or neither.
      expect(profile.status_text === "").toBe(profile.status_emoji === "");
      if (profile.status_emoji !== "") expect(profile.status_emoji).toMatch(/^:[a-z0-9_+-]+:$/);
      if (displayName !== "") named++;
      if (/[^\x00-\x7f]/.test(displayName)) nonAscii++;
      if (profile.status_text !== "") withStatus++;
    }
    // Some have set a display name (some with non-ASCII letters), some have not; some have a status.
    expect(named).toBeGreaterThan(300);
    expect(named).toBeLessThan(1400);
    expect(nonAscii).toBeGreaterThan(0);
    expect(withStatus).toBeGreaterThan(100);
    expect(withStatus).toBeLessThan(1000);
  });

  it("users.info answers the same profile, and the same seed gives the same names and statuses", async () => {
    const ws = server.emulator.state.workspace;
    const id = memberAt(ws, 42, "").id as string;
    const info = await client.users.info({ token: botToken, user: id });
    const profile = info.user!.profile as unknown as Record<string, unknown>;
    const listed = memberAt(ws, 42, server.url).profile as Record<string, unknown>;
    for (const field of ["display_name", "display_name_normalized", "status_text", "status_emoji", "title", "phone", "skype"]) {
      expect(profile[field], field).toBe(listed[field]);
    }
    const again = createEmulator({ seed: "profiles", users: 1500 });
    for (const index of [0, 7, 42, 999]) {
      expect(memberAt(again.state.workspace, index, "").profile).toEqual(memberAt(ws, index, "").profile);
    }
  });
});

describe("incoming webhooks keep blocks and attachments, as chat.postMessage does", () => {
  it("an @slack/webhook post's blocks and attachments come back from conversations.history and the admin state", async () => {
    const server = await startEmulatorServer({ port: 0, users: 20, seed: "webhook-blocks", basePath: "/emulator" });
    try {
      const ws = server.emulator.state.workspace;
      const general = ws.channels.find((c) => c.isGeneral)!;
      const installed = await install(server.emulator, { botScopes: ["incoming-webhook", "channels:join", "channels:history"], webhookChannel: general.id });
      const blocks = [
        { type: "section", block_id: "deploy", text: { type: "mrkdwn", text: "*Deployed* build 42 ✅" } },
        { type: "context", elements: [{ type: "plain_text", text: "from CI" }] },
      ];
      const attachments = [{ color: "#36a64f", fallback: "Build 42", fields: [{ title: "Status", value: "green", short: true }] }];
      const hook = new IncomingWebhook(installed.webhookUrl!.replace(BASE, server.url));
      expect((await hook.send({ text: "Deployed build 42", blocks, attachments })).text).toBe("ok");
      // Blocks alone are content enough (no text).
      expect((await hook.send({ blocks: [blocks[0]!] })).text).toBe("ok");

      const client = new WebClient(installed.botToken, { slackApiUrl: `${server.url}/api/`, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 } });
      await client.conversations.join({ channel: general.id });
      const history = await client.conversations.history({ channel: general.id });
      const [blocksOnly, full] = history.messages as Array<Record<string, unknown>>;
      expect(full).toMatchObject({ type: "message", subtype: "bot_message", text: "Deployed build 42", blocks, attachments });
      expect(blocksOnly).toMatchObject({ text: "", blocks: [blocks[0]] });
      expect(blocksOnly).not.toHaveProperty("attachments");

      const state = (await (await fetch(`${server.url}/admin/state`)).json()) as { channels: Array<{ id: string; messages: Array<Record<string, unknown>> }> };
      const stored = state.channels.find((c) => c.id === general.id)!.messages;
      expect(stored[0]).toMatchObject({ via: "incoming-webhook", blocks, attachments });
    } finally {
      await server.close();
    }
  });

  it("refuses more than 100 attachments (too_many_attachments) and more than 50 blocks (invalid_blocks), storing nothing", async () => {
    const { emulator } = startEmulator();
    const { webhookUrl } = await install(emulator, { botScopes: ["incoming-webhook"] });
    const post = async (payload: unknown) => {
      const response = await emulator.fetch(
        new Request(webhookUrl!, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) }),
      );
      return { status: response.status, body: await response.text() };
    };
    const many = (n: number, item: unknown) => Array.from({ length: n }, () => item);
    expect(await post({ text: "t", attachments: many(101, { text: "a" }) })).toEqual({ status: 400, body: "too_many_attachments" });
    expect(await post({ text: "t", blocks: many(51, { type: "divider" }) })).toEqual({ status: 400, body: "invalid_blocks" });
    expect(emulator.state.workspace.messages.size).toBe(0);
    expect(await post({ text: "t", attachments: many(100, { text: "a" }), blocks: many(50, { type: "divider" }) })).toEqual({ status: 200, body: "ok" });
  });
});

describe("auth.test's url is the workspace's, https://<domain>.slack.com/", () => {
  it("through the official client, for bot and user tokens, in every workspace, with the domain the workspace has", async () => {
    const server = await startEmulatorServer({ port: 0, users: 20, seed: "auth-url", workspaces: 2, basePath: "/emulator" });
    try {
      const { botToken, userToken } = await install(server.emulator, { userScopes: ["users:read"] });
      const client = new WebClient(undefined, { slackApiUrl: `${server.url}/api/`, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 } });
      const domain = server.emulator.state.workspace.team.domain;
      expect(domain).toMatch(/^[a-z0-9-]+$/);
      for (const token of [botToken, userToken!]) {
        const answer = await client.auth.test({ token });
        expect(answer.url).toBe(`https://${domain}.slack.com/`);
        // What apps do with it: the workspace's domain is the URL's first label.
        expect(new URL(answer.url!).hostname.split(".")[0]).toBe(domain);
      }
      const domains = [...server.emulator.state.workspaces.values()].map((ws) => ws.team.domain);
      expect(new Set(domains).size).toBe(2);
    } finally {
      await server.close();
    }
  });
});
