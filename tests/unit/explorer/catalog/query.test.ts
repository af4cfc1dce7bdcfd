import { describe, expect, it } from "vitest";
import { findMethod, groupByFamily, isPaginated, nearestMethodNames, scopeCheck, searchMethods } from "@/lib/explorer/catalog/query";
import { METHOD_CATALOG } from "@/lib/explorer/catalog/methods.generated";
import type { CatalogMethod } from "@/lib/explorer/catalog/types";

const names = (methods: readonly CatalogMethod[]) => methods.map((m) => m.name);
const search = (query: string, limit?: number) => names(searchMethods(METHOD_CATALOG, query, limit));

function method(name: string): CatalogMethod {
  const found = findMethod(METHOD_CATALOG, name);
  if (!found) throw new Error(`${name} is not in the catalog`);
  return found;
}

describe("Searching the catalog as you type", () => {
  it("finds conversations.history first for `history`", () => {
    expect(search("history")[0]).toBe("conversations.history");
  });

  it("finds chat.postMessage first for `post message`, whatever the case", () => {
    expect(search("post message")[0]).toBe("chat.postMessage");
    expect(search("Post MESSAGE")[0]).toBe("chat.postMessage");
  });

  it("puts the exact name first, then the names it begins", () => {
    expect(search("users.list")[0]).toBe("users.list");
    expect(search("users list")[0]).toBe("users.list");
    expect(search("chat.post")).toEqual(["chat.postMessage", "chat.postEphemeral"]);
    expect(search("users").slice(0, 2)).toEqual(["users.info", "users.list"]);
  });

  it("ranks a name holding the word before one that only starts a word with it, and shorter names first", () => {
    expect(search("message").slice(0, 3)).toEqual(["chat.meMessage", "chat.postMessage", "chat.scheduleMessage"]);
    expect(search("message")).toContain("search.messages");
    expect(search("message").indexOf("chat.scheduleMessage")).toBeLessThan(search("message").indexOf("search.messages"));
  });

  it("finds a method by its summary when its name does not say it", () => {
    expect(search("thread")).toContain("conversations.replies");
    expect(search("post message").indexOf("chat.postMessage")).toBeLessThan(search("post message").indexOf("chat.postEphemeral"));
  });

  it("needs every word of the query", () => {
    expect(search("post ephemeral")).toEqual(["chat.postEphemeral"]);
    expect(search("post ephemeral")).not.toContain("chat.postMessage");
  });

  it("finds a name from letters typed in order, but not from letters strewn across a long name", () => {
    expect(search("cnvhist")).toEqual(["conversations.history"]);
    expect(search("token")).not.toContain("admin.conversations.ekm.listOriginalConnectedChannelInfo");
  });

  it("finds nothing for a query nothing matches, and everything in catalog order for an empty one", () => {
    expect(search("xyzzy")).toEqual([]);
    expect(search("  ")).toEqual(names(METHOD_CATALOG));
  });

  it("returns at most the limit asked for", () => {
    expect(search("list", 5)).toHaveLength(5);
    expect(search("", 3)).toEqual(names(METHOD_CATALOG).slice(0, 3));
  });
});

describe("Grouping methods by family", () => {
  it("puts each method in its family, families in the order their first method comes", () => {
    const groups = groupByFamily(searchMethods(METHOD_CATALOG, "post message"));
    expect(groups[0]?.family).toBe("chat");
    expect(groups[0]?.methods[0]?.name).toBe("chat.postMessage");
  });

  it("keeps every method once, and families apart by their whole prefix", () => {
    const groups = groupByFamily(METHOD_CATALOG);
    expect(groups.flatMap((group) => names(group.methods)).sort()).toEqual(names(METHOD_CATALOG));
    expect(groups.find((group) => group.family === "files")?.methods.map((m) => m.name)).toEqual([
      "files.completeUploadExternal",
      "files.delete",
      "files.getUploadURLExternal",
      "files.info",
      "files.list",
      "files.revokePublicURL",
      "files.sharedPublicURL",
      "files.upload",
    ]);
    expect(groups.find((group) => group.family === "admin.apps")?.methods.map((m) => m.name)).toEqual(["admin.apps.approve", "admin.apps.restrict"]);
    expect(new Set(groups.map((group) => group.family)).size).toBe(groups.length);
  });
});

describe("Checking a token's scopes against a method", () => {
  it("passes a bot token with chat:write for chat.postMessage", () => {
    expect(scopeCheck(method("chat.postMessage"), "bot", ["chat:write", "users:read"])).toEqual({
      needed: ["chat:write"],
      missing: [],
      ok: true,
    });
  });

  it("names the missing scope when the token lacks it", () => {
    expect(scopeCheck(method("users.list"), "bot", ["chat:write"])).toEqual({ needed: ["users:read"], missing: ["users:read"], ok: false });
  });

  it("treats the scopes listed as alternatives: any one of them will do", () => {
    const history = method("conversations.history");
    expect(scopeCheck(history, "bot", ["im:history"]).ok).toBe(true);
    const lacking = scopeCheck(history, "user", ["chat:write"]);
    expect(lacking.ok).toBe(false);
    expect(lacking.missing).toEqual(lacking.needed);
    expect(lacking.missing).toContain("channels:history");
  });

  it("checks the scopes of the token's own kind", () => {
    const join = method("conversations.join");
    expect(scopeCheck(join, "bot", ["channels:join"]).ok).toBe(true);
    expect(scopeCheck(join, "user", ["channels:join"])).toMatchObject({ ok: false, missing: ["channels:write"] });
  });

  it("passes any token for a method that needs no scope", () => {
    expect(scopeCheck(method("auth.test"), "user", [])).toEqual({ needed: [], missing: [], ok: true });
  });
});

describe("Paginated methods", () => {
  it("tells a paginated method from one that is not", () => {
    expect(isPaginated(method("users.list"))).toBe(true);
    expect(isPaginated(method("auth.test"))).toBe(false);
  });
});

describe("Finding a method by name", () => {
  it("finds a method by its exact name only", () => {
    expect(findMethod(METHOD_CATALOG, "users.list")?.name).toBe("users.list");
    expect(findMethod(METHOD_CATALOG, "users.lst")).toBeUndefined();
  });
});

describe("Suggesting names for an unknown_method", () => {
  it("suggests users.list for users.lst", () => {
    expect(nearestMethodNames(METHOD_CATALOG, "users.lst")[0]).toBe("users.list");
  });

  it("suggests conversations.history for conversation.history", () => {
    expect(nearestMethodNames(METHOD_CATALOG, "conversation.history")[0]).toBe("conversations.history");
  });

  it("suggests the whole name when the family was left out, or the case is wrong", () => {
    expect(nearestMethodNames(METHOD_CATALOG, "postMessage")).toEqual(["chat.postMessage"]);
    expect(nearestMethodNames(METHOD_CATALOG, "Users.List")[0]).toBe("users.list");
    expect(nearestMethodNames(METHOD_CATALOG, "auth.tset")).toEqual(["auth.test"]);
  });

  it("offers at most n names, and none that are not near", () => {
    expect(nearestMethodNames(METHOD_CATALOG, "users.lst", 1)).toEqual(["users.list"]);
    expect(nearestMethodNames(METHOD_CATALOG, "users.lst")).toHaveLength(3);
    expect(nearestMethodNames(METHOD_CATALOG, "foo.bar")).toEqual([]);
  });

  it("never suggests the name it was given", () => {
    expect(nearestMethodNames(METHOD_CATALOG, "users.info")).not.toContain("users.info");
  });

  it("looks only among the methods it is given, such as those an emulator implements", () => {
    const implemented = METHOD_CATALOG.filter((m) => ["auth.test", "users.list", "chat.postMessage"].includes(m.name));
    expect(nearestMethodNames(implemented, "users.lst")).toEqual(["users.list"]);
  });
});
