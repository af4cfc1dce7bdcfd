import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { METHOD_CATALOG } from "@/lib/explorer/catalog/methods.generated";
import { CollectionFileError, fromNdjson, toNdjson } from "@/lib/collections/universal/ndjson";
import { fromPostman, looksLikePostman } from "@/lib/collections/universal/postman";
import type { RequestFields } from "@/lib/collections/universal/model";

const known = new Set(METHOD_CATALOG.map((m) => m.name));
const isKnown = (method: string) => known.has(method);
/** Token-shaped strings made at run time: nothing secret-looking is committed. */
const token = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;

const requests: RequestFields[] = [
  {
    name: "Post a note",
    method: "chat.postMessage",
    httpMethod: "POST",
    encoding: "json",
    tokenKind: "bot",
    args: [
      { key: "text", value: "Deploy finished" },
      { key: "channel", value: "general" },
    ],
    bindings: [],
  },
  {
    name: "Read it back",
    method: "conversations.info",
    httpMethod: "GET",
    encoding: "form",
    tokenKind: "bot",
    args: [],
    bindings: [{ param: "channel", step: 1, path: "channel" }],
  },
];

describe("the console's collection file (NDJSON)", () => {
  it("writes a header line then one request a line, every object's keys sorted, and no id or time", () => {
    const text = toNdjson("Onboarding", requests);
    const lines = text.split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe("");
    expect(lines[0]).toBe('{"collection":"Onboarding","format":"switchboard.collection","version":1}');
    expect(lines[1]).toBe(
      '{"args":[{"key":"text","value":"Deploy finished"},{"key":"channel","value":"general"}],"bindings":[],"encoding":"json","httpMethod":"POST","method":"chat.postMessage","name":"Post a note","tokenKind":"bot"}',
    );
    expect(lines[2]).toContain('"bindings":[{"param":"channel","path":"channel","step":1}]');
    // Extra fields a stored request carries (id, position, times) do not reach the file.
    expect(
      toNdjson(
        "Onboarding",
        requests.map((r, i) => ({ ...r, id: `req_${i}`, position: i, updatedAt: Date.now() })),
      ),
    ).toBe(text);
  });

  it("round-trips exactly: export, import, export gives the same bytes, and an edit made in the file comes back", () => {
    const text = toNdjson("Onboarding", requests);
    const read = fromNdjson(text, isKnown);
    expect(read).toEqual({ name: "Onboarding", requests, skipped: [], notes: [] });
    expect(toNdjson(read.name, read.requests)).toBe(text);
    // A person edits the file: a new value and a third request appended by hand.
    const edited =
      text.replace("Deploy finished", "Deploy rolled back") +
      '{"args":[],"bindings":[],"encoding":"form","httpMethod":"GET","method":"auth.test","name":"Who am I","tokenKind":"bot"}\n';
    const again = fromNdjson(edited, isKnown);
    expect(again.requests.map((r) => r.name)).toEqual(["Post a note", "Read it back", "Who am I"]);
    expect(toNdjson(again.name, again.requests)).toBe(edited);
  });

  it("skips and lists unknown methods and lines that are not requests, imports the rest, and keeps bindings pointing at the same steps", () => {
    const lines = toNdjson("Mixed", requests).split("\n");
    const file = [lines[0], '{"name":"Old","method":"channels.frobnicate"}', "{ not json", lines[1], lines[2], ""].join("\n");
    const read = fromNdjson(file, isKnown);
    expect(read.requests.map((r) => r.name)).toEqual(["Post a note", "Read it back"]);
    expect(read.skipped).toEqual([
      { item: "line 2 (Old)", reason: "channels.frobnicate is not a method of the platform's catalog" },
      { item: "line 3", reason: "Line 3 is not JSON." },
    ]);
    // "Read it back" took step 1 of the file's four; the kept requests are its step 1 and 2 now: its binding to the
    // file's step 1 ("Old", skipped) is dropped and said.
    expect(read.requests[1]!.bindings).toEqual([]);
    expect(read.notes).toEqual(["Read it back: dropped the binding of channel to step 1, which was not imported."]);
  });

  it("drops a token from an imported line and says so; the token is nowhere in what is imported", () => {
    const bot = token("xoxb-1-");
    const lines = toNdjson("With a token", requests).split("\n");
    const withToken = lines[1]!.replace(
      '{"key":"channel","value":"general"}',
      `{"key":"channel","value":"general"},{"key":"token","value":"${bot}"},{"key":"auth","value":"Bearer ${token("xoxp-2-")}"}`,
    );
    const read = fromNdjson([lines[0], withToken, lines[2], ""].join("\n"), isKnown);
    expect(read.requests[0]!.args).toEqual(requests[0]!.args);
    expect(read.notes).toEqual([
      'line 2: dropped the argument "token" carries a credential (a saved request never keeps a token).',
      'line 2: dropped the argument "auth" holds a token (a saved request never keeps a token).',
    ]);
    expect(JSON.stringify(read)).not.toMatch(/xox[bp]-/);
  });

  it("refuses a file whose first line is not a collection header, or of another version, naming what is wrong", () => {
    expect(() => fromNdjson("", isKnown)).toThrow(CollectionFileError);
    expect(() => fromNdjson('{"name":"x","method":"auth.test"}\n', isKnown)).toThrow(/first line is not a collection header/);
    expect(() => fromNdjson('{"collection":"x","format":"switchboard.collection","version":2}\n', isKnown)).toThrow(/version 1 .* version 2/);
  });
});

describe("a Postman collection v2.1", () => {
  const fixture = readFileSync(path.join(__dirname, "fixtures", "platform.postman_collection.json"), "utf8");
  const tokens = { bot: token("xoxb-1-"), user: token("xoxp-1-"), query: token("xoxb-2-") };
  const file = fixture
    .replace("TOKEN_PLACEHOLDER_BOT", tokens.bot)
    .replace("TOKEN_PLACEHOLDER_USER", tokens.user)
    .replaceAll("TOKEN_PLACEHOLDER_QUERY", tokens.query);

  it("maps its requests, nested folders flattened in order, to catalog methods with their arguments, verb and encoding", () => {
    expect(looksLikePostman(file)).toBe(true);
    const read = fromPostman(file, isKnown);
    expect(read.name).toBe("Platform onboarding");
    expect(read.requests).toEqual([
      {
        name: "Post a note",
        method: "chat.postMessage",
        httpMethod: "POST",
        encoding: "json",
        tokenKind: "bot",
        args: [
          { key: "channel", value: "general" },
          { key: "text", value: "Deploy finished" },
          { key: "unfurl_links", value: "false" },
        ],
        bindings: [],
      },
      {
        name: "Channels / List channels",
        method: "conversations.list",
        httpMethod: "GET",
        encoding: "form",
        tokenKind: "bot",
        args: [
          { key: "limit", value: "20" },
          { key: "exclude_archived", value: "true" },
        ],
        bindings: [],
      },
      {
        name: "Channels / Archived / Rename a channel",
        method: "conversations.rename",
        httpMethod: "POST",
        encoding: "form",
        tokenKind: "user",
        args: [
          { key: "channel", value: "C0123456789" },
          { key: "name", value: "launch-room" },
        ],
        bindings: [],
      },
    ]);
    expect(read.skipped).toEqual([{ item: "An old method", reason: "channels.frobnicate is not a method of the platform's catalog" }]);
  });

  it("drops every token it carries (auth, Authorization header, a token argument), each with a note, and keeps none", () => {
    const read = fromPostman(file, isKnown);
    expect(read.notes).toEqual([
      "The collection's bearer token was dropped: the console calls with an installation's tokens.",
      "Post a note: dropped its Authorization header.",
      'Channels / List channels: dropped the argument "token" carries a credential (a saved request never keeps a token).',
      "Channels / Archived / Rename a channel: dropped its bearer token; the console calls with the installation's user token.",
    ]);
    const kept = JSON.stringify(read);
    for (const value of Object.values(tokens)) expect(kept).not.toContain(value);
  });

  it("reads a request given as its URL alone, and skips an item whose URL names no method", () => {
    const read = fromPostman(
      JSON.stringify({
        info: { name: "Short" },
        item: [
          { name: "Who am I", request: "https://slack.com/api/auth.test" },
          { name: "Nothing", request: { url: "" } },
        ],
      }),
      isKnown,
    );
    expect(read.requests).toEqual([{ name: "Who am I", method: "auth.test", httpMethod: "GET", encoding: "form", tokenKind: "bot", args: [], bindings: [] }]);
    expect(read.skipped).toEqual([{ item: "Nothing", reason: "its URL names no method" }]);
  });

  it("refuses a file that is not a Postman collection, and one that is not JSON", () => {
    expect(() => fromPostman('{"info":{}}', isKnown)).toThrow(/not a Postman collection/);
    expect(() => fromPostman("{ nope", isKnown)).toThrow(/not JSON/);
  });
});
