import { beforeAll, describe, expect, it } from "vitest";
import { buildMethodCatalog, type MethodReference } from "@/scripts/method-catalog/generate";
import type { CatalogMethod } from "@/lib/explorer/catalog/types";
import { readReference } from "./reference";

let reference: MethodReference;
let catalog: CatalogMethod[];

beforeAll(async () => {
  reference = await readReference();
  catalog = buildMethodCatalog(reference.openapi, reference.platformMethods);
});

function method(name: string): CatalogMethod {
  const found = catalog.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`${name} is not in the catalog`);
  return found;
}

const argument = (methodName: string, name: string) => method(methodName).args.find((arg) => arg.name === name);
const codes = (methodName: string) => method(methodName).errors.map((error) => error.code);

describe("Which methods the catalog holds", () => {
  it("has a method for every path of the OpenAPI", () => {
    const paths = Object.keys((reference.openapi as { paths: Record<string, unknown> }).paths);
    expect(paths).toHaveLength(174);
    for (const path of paths) expect(catalog.map((m) => m.name)).toContain(path.slice(1));
  });

  it("adds the methods only platform-methods describes, such as oauth.v2.exchange", () => {
    const exchange = method("oauth.v2.exchange");
    // The OpenAPI's 174, oauth.v2.exchange, and the methods transcribed from the platform's pages that it lacks.
    const onlyInPages = catalog.filter((m) => !Object.hasOwn((reference.openapi as { paths: Record<string, unknown> }).paths, `/${m.name}`)).map((m) => m.name);
    expect(onlyInPages).toEqual([
      "apps.connections.open",
      "apps.manifest.create",
      "apps.manifest.delete",
      "apps.manifest.export",
      "apps.manifest.update",
      "apps.manifest.validate",
      "assistant.threads.setStatus",
      "assistant.threads.setSuggestedPrompts",
      "assistant.threads.setTitle",
      "bookmarks.add",
      "bookmarks.edit",
      "bookmarks.list",
      "bookmarks.remove",
      "chat.appendStream",
      "chat.startStream",
      "chat.stopStream",
      "files.completeUploadExternal",
      "files.getUploadURLExternal",
      "oauth.v2.exchange",
      "openid.connect.token",
      "openid.connect.userInfo",
      "tooling.tokens.rotate",
    ]);
    expect(catalog).toHaveLength(174 + onlyInPages.length);
    expect(exchange.summary).toBe("Exchanges a legacy access token for a new expiring access token and refresh token");
    expect(exchange.docsUrl).toBe("https://api.slack.com/methods/oauth.v2.exchange");
    expect(exchange.args.filter((arg) => arg.required).map((arg) => arg.name)).toEqual(["client_id", "client_secret", "token"]);
    expect(codes("oauth.v2.exchange")).toEqual(expect.arrayContaining(["token_already_exchanged", "token_rotation_not_enabled"]));
  });

  it("links a transcribed method to the platform page it was transcribed from", () => {
    expect(method("tooling.tokens.rotate").docsUrl).toBe("https://docs.slack.dev/reference/methods/tooling.tokens.rotate");
    // An array of objects (files.completeUploadExternal's files) is sent as JSON text.
    expect(argument("files.completeUploadExternal", "files")).toMatchObject({ type: "json", required: true });
    expect(method("apps.manifest.create").summary).toBe("Create an app from an app manifest.");
    // A method the OpenAPI describes keeps the OpenAPI's link, though a page was transcribed for it too.
    expect(method("conversations.history").docsUrl).toBe("https://api.slack.com/methods/conversations.history");
  });

  it("lists methods once each, sorted by name, each in the family its name says", () => {
    const names = catalog.map((m) => m.name);
    expect(names).toEqual([...new Set(names)].sort());
    expect(method("conversations.history").family).toBe("conversations");
    expect(method("admin.apps.approved.list").family).toBe("admin.apps.approved");
    expect(method("oauth.v2.access").family).toBe("oauth.v2");
  });
});

describe("How a method is called", () => {
  it("takes chat.postMessage as a POST with a form or JSON body", () => {
    expect(method("chat.postMessage").verbs).toEqual(["POST"]);
    expect(method("chat.postMessage").encodings).toEqual(["form", "json"]);
  });

  it("offers GET first for a read the reference documents as a GET, and POST for every method", () => {
    expect(method("users.list").verbs).toEqual(["GET", "POST"]);
    for (const m of catalog) expect(m.verbs).toContain("POST");
  });

  it("takes the OAuth methods as forms only", () => {
    const oauth = catalog.filter((m) => m.family.startsWith("oauth"));
    expect(oauth.map((m) => m.name)).toEqual(["oauth.access", "oauth.token", "oauth.v2.access", "oauth.v2.exchange"]);
    for (const m of oauth) expect(m.encodings).toEqual(["form"]);
  });

  it("types blocks, attachments and metadata as JSON, and other arguments the reference says hold JSON", () => {
    expect(argument("chat.postMessage", "blocks")?.type).toBe("json");
    expect(argument("chat.postMessage", "attachments")?.type).toBe("json");
    expect(argument("chat.postMessage", "metadata")?.type).toBe("json");
    expect(argument("views.open", "view")?.type).toBe("json");
    expect(argument("chat.postMessage", "text")?.type).toBe("string");
  });

  it("takes the newer document's types, and the OpenAPI's integer over a mere number", () => {
    expect(argument("chat.postMessage", "as_user")?.type).toBe("boolean");
    expect(argument("users.list", "limit")?.type).toBe("integer");
    expect(argument("users.list", "include_locale")?.type).toBe("boolean");
  });

  it("marks required arguments and lists them first", () => {
    const args = method("chat.postMessage").args;
    expect(args[0]).toMatchObject({ name: "channel", required: true });
    expect(args.filter((arg) => arg.required)).toHaveLength(1);
    expect(argument("chat.postMessage", "text")?.required).toBeUndefined();
  });

  it("lets the newer document decide what is required: oauth.v2.access no longer needs a code", () => {
    expect(argument("oauth.v2.access", "code")?.required).toBeUndefined();
    expect(argument("oauth.v2.access", "refresh_token")).toBeDefined();
  });

  it("gives a default only where the reference states a value", () => {
    expect(argument("users.list", "include_locale")?.default).toBe("false");
    expect(argument("chat.postMessage", "mrkdwn")?.default).toBe("true");
    expect(argument("chat.update", "parse")?.default).toBe("client");
    expect(argument("users.getPresence", "user")?.default).toBeUndefined();
    // "Defaults to true if the chat:write:bot scope is not included. Otherwise, defaults to false."
    expect(argument("chat.postEphemeral", "as_user")?.default).toBeUndefined();
  });

  it("leaves the caller's token out of the arguments, but keeps the token oauth.v2.exchange exchanges", () => {
    expect(catalog.filter((m) => m.args.some((arg) => arg.name === "token")).map((m) => m.name)).toEqual(["oauth.v2.exchange"]);
  });

  it("keeps the first paragraph of a description, with links reduced to their text", () => {
    expect(argument("chat.postMessage", "thread_ts")?.description).toBe(
      "Provide another message's `ts` value to make this message a reply. Avoid using a reply's `ts` value; use its parent instead.",
    );
    for (const m of catalog) {
      for (const text of [m.summary, ...m.args.map((arg) => arg.description ?? "")]) expect(text).not.toMatch(/\]\(|\n/);
    }
  });

  it("drops the sentences that point to a part of the platform's page or to a link the text lost", () => {
    expect(argument("chat.postMessage", "channel")?.description).toBe(
      "An encoded ID or channel name that represents a channel, private group, or IM channel to send the message to.",
    );
    expect(argument("chat.postMessage", "parse")?.description).toBe("Change how messages are treated.");
    expect(argument("search.messages", "highlight")?.description).toBe("Pass a value of `true` to enable query highlight markers."); // The page's "Defaults to `none`. See [below](#formatting)." keeps its first sentence.
    expect(argument("chat.postEphemeral", "parse")?.description).toBe("Change how messages are treated. Defaults to `none`.");
    expect(argument("files.list", "types")?.description).toMatch(/^Filter files by type\. You can pass multiple values/);
    expect(argument("calls.add", "users")?.description).toBe("The list of users to register as participants in the Call.");
    expect(method("chat.postMessage").errors.find((error) => error.code === "rate_limited")?.description).toBe("Application has posted too many messages.");
    // A pointer to another method of the catalog leads somewhere: it stays.
    expect(argument("chat.scheduleMessage", "parse")?.description).toBe("Change how messages are treated. See chat.postMessage.");
    const texts = catalog.flatMap((m) => [m.summary, ...m.args.map((arg) => arg.description ?? ""), ...m.errors.map((error) => error.description ?? "")]);
    // "For more details, see https://…" leads somewhere, and stays.
    for (const text of texts) expect(text).not.toMatch(/\b(?:below|above|here\.|documentation for more)\b|\bfor more details?\./i);
  });
});

describe("Arguments a call nearly always sends", () => {
  it("names text, blocks and attachments of the chat methods that post, one of which a message needs", () => {
    const posting = catalog.filter((m) => m.conditionallyRequired).map((m) => m.name);
    expect(posting).toEqual(["chat.postEphemeral", "chat.postMessage", "chat.scheduleMessage", "chat.update"]);
    for (const name of posting) {
      expect(method(name).conditionallyRequired?.args).toEqual(["text", "blocks", "attachments"]);
      expect(method(name).conditionallyRequired?.rule).toMatch(/^One of text, blocks or attachments is required/);
      for (const arg of ["text", "blocks", "attachments"]) expect(argument(name, arg)?.required).toBeUndefined();
    }
  });
});

describe("Scopes", () => {
  it("takes the scopes per token kind from the newer document", () => {
    expect(method("chat.postMessage").scopes).toEqual({ bot: ["chat:write"], user: ["chat:write"], byTokenKind: true });
    expect(method("conversations.join").scopes).toEqual({ bot: ["channels:join"], user: ["channels:write"], byTokenKind: true });
    expect(method("users.list").scopes.bot).toEqual(["users:read"]);
  });

  it("needs no scope for auth.test, or for the OAuth methods that take app credentials", () => {
    for (const name of ["auth.test", "auth.revoke", "apps.uninstall", "oauth.v2.access", "oauth.v2.exchange"]) {
      expect(method(name).scopes).toMatchObject({ bot: [], user: [] });
    }
  });

  it("gives the OpenAPI's one list of alternatives to both token kinds, and says it is not split", () => {
    const stars = method("stars.add").scopes;
    expect(stars.byTokenKind).toBe(false);
    expect(stars.bot).toEqual(stars.user);
    expect(method("chat.meMessage").scopes).toEqual({
      bot: ["chat:write", "chat:write:bot", "chat:write:user"],
      user: ["chat:write", "chat:write:bot", "chat:write:user"],
      byTokenKind: false,
    });
  });

  it("drops the OpenAPI's legacy scopes where a page gives the scopes per token kind", () => {
    const history = method("conversations.history").scopes;
    expect(history).toEqual({
      bot: ["channels:history", "groups:history", "im:history", "mpim:history"],
      user: ["channels:history", "groups:history", "im:history", "mpim:history"],
      byTokenKind: true,
    });
    expect(method("chat.update").scopes).toEqual({ bot: ["chat:write"], user: ["chat:write"], byTokenKind: true });
    // The OpenAPI's chat:write:bot and chat:write:user, which its page no longer names.
    expect(method("chat.deleteScheduledMessage").scopes).toEqual({ bot: ["chat:write"], user: ["chat:write"], byTokenKind: true });
  });

  it("says which methods take only a configuration token, or only a user token", () => {
    expect(method("apps.manifest.update").scopes).toEqual({
      bot: [],
      user: [],
      byTokenKind: true,
      tokens: "configuration",
      configuration: ["app_configurations:write"],
    });
    expect(method("openid.connect.userInfo").scopes).toEqual({ bot: [], user: ["openid"], byTokenKind: true, tokens: "user" });
    for (const m of catalog.filter((candidate) => candidate.scopes.tokens === undefined)) expect(m.scopes.configuration).toBeUndefined();
  });
});

describe("Rate tiers", () => {
  it("knows the tiers the reference and its README give, and no others", () => {
    const tiers = Object.fromEntries(catalog.filter((m) => m.rateTier !== undefined).map((m) => [m.name, m.rateTier]));
    // Every method that has a page in platform-methods has its tier; the OpenAPI states none.
    expect(Object.keys(tiers)).toEqual(Object.keys(reference.platformMethods).sort());
    // The README's: apps.uninstall tier 1, conversations.join / auth.revoke / oauth.v2.exchange tier 3, auth.test and oauth.v2.access special.
    expect(tiers).toMatchObject({
      "apps.uninstall": 1,
      "auth.revoke": 3,
      "auth.test": "special",
      "chat.postMessage": "special",
      "conversations.join": 3,
      "oauth.v2.access": "special",
      "oauth.v2.exchange": 3,
      "users.list": 2,
    });
    // And the transcribed pages': one of each tier, and the special ones.
    expect(tiers).toMatchObject({
      "apps.manifest.create": 1,
      "bookmarks.add": 2,
      "conversations.history": 3,
      "conversations.list": 2,
      "conversations.members": 4,
      "views.open": 4,
      "files.getUploadURLExternal": 4,
      "chat.getPermalink": "special",
      "tooling.tokens.rotate": "special",
    });
  });
});

describe("Cursor pagination", () => {
  it("pages users.list's members and conversations.history's messages", () => {
    expect(method("users.list").pagination).toEqual({ list: "members" });
    expect(method("conversations.history").pagination).toEqual({ list: "messages" });
    expect(method("conversations.list").pagination).toEqual({ list: "channels" });
    expect(method("files.info").pagination).toEqual({ list: "comments" });
  });

  it("does not page auth.test, chat.postMessage, or search.messages (which pages by number)", () => {
    for (const name of ["auth.test", "chat.postMessage", "search.messages"]) expect(method(name).pagination).toBeUndefined();
  });

  it("pages every method that takes a cursor and shows next_cursor, naming a list for each", () => {
    const paginated = catalog.filter((m) => m.pagination);
    expect(paginated).toHaveLength(27);
    for (const m of paginated) expect(m.pagination?.list).toMatch(/^[a-z_]+$/);
  });

  it("names the lists the reference shows only as {ok: true}, from the official client's answer types", () => {
    expect(method("admin.inviteRequests.list").pagination).toEqual({ list: "invite_requests" });
    expect(method("admin.inviteRequests.approved.list").pagination).toEqual({ list: "approved_requests" });
    expect(method("admin.inviteRequests.denied.list").pagination).toEqual({ list: "denied_requests" });
    expect(method("files.remote.list").pagination).toEqual({ list: "files" });
  });

  it("leaves unpaged the one method that takes a cursor but whose answer the reference does not show", () => {
    const unshown = catalog.filter((m) => m.args.some((arg) => arg.name === "cursor") && !m.pagination);
    expect(unshown.map((m) => m.name)).toEqual(["apps.event.authorizations.list"]);
  });
});

describe("Errors", () => {
  it("merges the codes of both documents, with the newer one's descriptions", () => {
    const errors = method("users.list").errors;
    expect(errors).toContainEqual({ code: "invalid_cursor", description: "Value passed for `cursor` was not valid or is no longer valid." });
    expect(errors.map((error) => error.code)).toEqual(expect.arrayContaining(["limit_required", "missing_argument", "not_authed", "fatal_error"]));
    expect(new Set(errors.map((error) => error.code)).size).toBe(errors.length);
  });

  it("takes a method's example error when the OpenAPI has no list of codes", () => {
    expect(codes("admin.apps.requests.list")).toEqual(["missing_scope"]);
  });

  it("does not take api.test's echoed argument, or a sentence, for an error code", () => {
    expect(codes("api.test")).toEqual([]);
    expect(codes("search.messages")).toEqual([]);
  });

  it("describes a code with the newer document's words when both name it", () => {
    const openapi = {
      paths: {
        "/things.list": {
          get: {
            description: "Lists things.",
            externalDocs: { url: "https://api.slack.com/methods/things.list" },
            responses: { default: { schema: { properties: { error: { enum: ["thing_gone", "not_authed"] } } } } },
          },
        },
      },
    };
    const platform = { "things.list": { desc: "Lists the things.", errors: { thing_gone: { desc: "The [thing](/things) is gone." } } } };
    const [things] = buildMethodCatalog(openapi, platform);
    expect(things?.summary).toBe("Lists the things.");
    expect(things?.errors).toEqual([{ code: "thing_gone", description: "The thing is gone." }, { code: "not_authed" }]);
  });
});

describe("Deprecation", () => {
  it("flags what the reference calls deprecated: only users.setActive", () => {
    // The timeline methods the spec calls deprecated (channels.history…) are not in the reference at all.
    expect(catalog.filter((m) => m.deprecated).map((m) => m.name)).toEqual(["users.setActive"]);
  });
});
