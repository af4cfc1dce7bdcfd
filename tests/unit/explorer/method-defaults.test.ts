import { describe, expect, it } from "vitest";
import { findMethod } from "@/lib/explorer/catalog/query";
import { METHOD_CATALOG } from "@/lib/explorer/catalog/methods.generated";
import type { CatalogMethod } from "@/lib/explorer/catalog/types";
import { requestFromHistory, type HistoryEntry } from "@/lib/explorer/history";
import { catalogShape, defaultTransport, NOTHING_STATED, withMethodDefaults } from "@/lib/explorer/method-defaults";
import { buildCall, EMPTY_REQUEST, fromSearchParams, requestParams, statedInLink, toSearchParams, type ExplorerRequest } from "@/lib/explorer/params";

function method(name: string): CatalogMethod {
  const found = findMethod(METHOD_CATALOG, name);
  if (!found) throw new Error(`${name} is not in the catalog`);
  return found;
}

/** A page URL opened in a fresh tab, once the catalog has filled what the URL does not state. */
function openLink(query: string): ExplorerRequest {
  const search = new URLSearchParams(query);
  const request = fromSearchParams(search);
  return withMethodDefaults(request, catalogShape(method(request.method)), statedInLink(search));
}

/** A history entry put back in the form, once the catalog has filled what the entry does not state. */
function restore(entry: HistoryEntry): ExplorerRequest {
  const { request, stated } = requestFromHistory(entry);
  return withMethodDefaults(request, catalogShape(method(request.method)), stated);
}

const entry = (patch: Partial<HistoryEntry>): HistoryEntry => ({
  id: "h1",
  at: 1_700_000_000_000,
  method: "auth.test",
  installation: "T1-A1",
  tokenKind: "bot",
  httpMethod: "GET",
  encoding: "form",
  params: {},
  stripped: [],
  kind: "call",
  outcome: "ok",
  status: 200,
  ok: true,
  ms: 12,
  summary: "ok",
  answerBytes: 11,
  truncated: false,
  ...patch,
});

describe("a method opened from a link takes what the link does not state from the catalog", () => {
  it("opens chat.postMessage as the JSON POST the catalog documents, with no limit in the form, the body or the link", () => {
    const request = openLink("method=chat.postMessage&as=bot&verb=POST-json");
    expect(request).toMatchObject({ httpMethod: "POST", encoding: "json", limit: "", cursor: "", extra: [] });
    const call = buildCall(request);
    expect(JSON.parse(call.body ?? "")).toEqual({});
    expect(toSearchParams(request).has("p.limit")).toBe(false);

    const withArgs = openLink("method=chat.postMessage&as=bot&verb=POST-json&p.channel=general&p.text=hi");
    expect(JSON.parse(buildCall(withArgs).body ?? "")).toEqual({ channel: "general", text: "hi" });
  });

  it("opens chat.postMessage without a verb as a JSON POST, not a GET", () => {
    expect(openLink("method=chat.postMessage&p.channel=general")).toMatchObject({ httpMethod: "POST", encoding: "json" });
    expect(defaultTransport(method("chat.postMessage"))).toEqual({ httpMethod: "POST", encoding: "json" });
  });

  it("adds no limit to auth.test", () => {
    const request = openLink("method=auth.test");
    expect(requestParams(request)).toEqual({});
    expect(request.extra).toEqual([]);
  });

  it("gives a method that pages the console's page size when the link states none", () => {
    expect(openLink("method=users.list")).toMatchObject({ httpMethod: "GET", limit: "50" });
    expect(openLink("method=conversations.history&p.channel=C1")).toMatchObject({ limit: "50", extra: [{ key: "channel", value: "C1" }] });
  });

  it("keeps the verb and the limit a link states", () => {
    expect(openLink("method=chat.postMessage&verb=GET")).toMatchObject({ httpMethod: "GET" });
    expect(openLink("method=chat.postMessage&verb=POST")).toMatchObject({ httpMethod: "POST", encoding: "form" });
    expect(openLink("method=users.list&verb=POST&p.limit=7")).toMatchObject({ httpMethod: "POST", encoding: "form", limit: "7" });
    // A limit given to a method that does not page is an ordinary parameter: the platform decides.
    expect(requestParams(openLink("method=auth.test&p.limit=5"))).toEqual({ limit: "5" });
    // An unknown verb is no verb.
    expect(openLink("method=chat.postMessage&verb=PUT")).toMatchObject({ httpMethod: "POST", encoding: "json" });
  });

  it("writes the verb into every link, so that a GET of chat.postMessage reopens as a GET", () => {
    const get: ExplorerRequest = { ...EMPTY_REQUEST, method: "chat.postMessage", limit: "", httpMethod: "GET" };
    expect(toSearchParams(get).get("verb")).toBe("GET");
    expect(openLink(toSearchParams(get).toString())).toMatchObject({ httpMethod: "GET", limit: "" });
  });
});

describe("a method put back from the history takes only what the entry lacks from the catalog", () => {
  it("restores a JSON body's arguments as the form's text: strings as they were, other values as JSON", () => {
    const request = restore(
      entry({ method: "chat.postMessage", httpMethod: "POST", encoding: "json", params: { channel: "general", blocks: [{ type: "divider" }] } }),
    );
    expect(request).toMatchObject({ httpMethod: "POST", encoding: "json", limit: "" });
    expect(requestParams(request)).toEqual({ channel: "general", blocks: '[{"type":"divider"}]' });
  });

  it("keeps the verb an entry records", () => {
    expect(restore(entry({ method: "chat.postMessage", httpMethod: "POST", encoding: "form" }))).toMatchObject({ httpMethod: "POST", encoding: "form" });
    expect(restore(entry({ method: "users.list", httpMethod: "POST", encoding: "form" }))).toMatchObject({ httpMethod: "POST" });
  });

  it("adds no limit: an entry's parameters are the call as it was sent", () => {
    expect(requestParams(restore(entry({ method: "auth.test", httpMethod: "POST", encoding: "json" })))).toEqual({});
    expect(restore(entry({ method: "users.list", httpMethod: "GET", params: { limit: "7" } }))).toMatchObject({ limit: "7" });
    expect(restore(entry({ method: "users.list", httpMethod: "GET", params: {} }))).toMatchObject({ limit: "" });
    // A limit sent to a method that does not page stays a parameter (it was sent), not a hidden field.
    expect(requestParams(restore(entry({ method: "auth.test", httpMethod: "POST", params: { limit: "3" } })))).toEqual({ limit: "3" });
  });

  it("restores a Fetch all's page cap beside its request, not as a parameter", () => {
    const restored = requestFromHistory(entry({ method: "users.list", kind: "all", httpMethod: "GET", params: { limit: "1000", max_pages: "4" } }));
    expect(restored.maxPages).toBe("4");
    expect(restored.request).toMatchObject({ limit: "1000", extra: [] });
  });
});

describe("a method picked takes the catalog's transport", () => {
  it("switches to the picked method's verb and drops the limit of a method that pages when the new one does not", () => {
    const fromUsersList: ExplorerRequest = { ...EMPTY_REQUEST, limit: "20" };
    const picked = withMethodDefaults({ ...fromUsersList, method: "auth.test" }, catalogShape(method("auth.test")), NOTHING_STATED);
    expect(picked).toMatchObject({ httpMethod: "POST", encoding: "json", limit: "", extra: [] });
    const paged = withMethodDefaults({ ...fromUsersList, method: "conversations.list" }, catalogShape(method("conversations.list")), {
      transport: false,
      limit: true,
    });
    expect(paged).toMatchObject({ httpMethod: "GET", limit: "20" });
  });

  it("leaves the transport of a method outside the catalog as it is", () => {
    const request: ExplorerRequest = { ...EMPTY_REQUEST, method: "users.lst", httpMethod: "POST", encoding: "form" };
    expect(withMethodDefaults(request, { paginated: false, transport: null }, NOTHING_STATED)).toMatchObject({
      httpMethod: "POST",
      encoding: "form",
      limit: "",
    });
  });
});
