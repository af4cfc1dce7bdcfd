import { describe, expect, it } from "vitest";
import { argumentTyping, typesForSend, type CatalogState } from "@/lib/explorer/argument-typing";
import { METHOD_CATALOG } from "@/lib/explorer/catalog/methods.generated";
import { buildCall, fromSearchParams } from "@/lib/explorer/params";

/** A shared explorer link to a JSON POST with a boolean argument, as the page reads it. */
const shared = fromSearchParams(
  new URLSearchParams("method=chat.postMessage&installation=T1-A1&verb=POST-json&p.channel=general&p.text=hi&p.unfurl_links=false"),
);

const LOADING: CatalogState = { methods: undefined, unavailable: false };
const LOADED: CatalogState = { methods: METHOD_CATALOG, unavailable: false };
const FAILED: CatalogState = { methods: undefined, unavailable: true };

/** The JSON body the explorer would send now, or null when it must wait. */
function bodySent(catalog: CatalogState, request = shared): unknown {
  const types = typesForSend(argumentTyping(catalog, request.method));
  return types && JSON.parse(buildCall(request, types).body ?? "null");
}

describe("typing a call's arguments by the method catalog", () => {
  it("sends nothing while the catalog has not come: a link's JSON POST would otherwise carry `false` as a string", () => {
    expect(argumentTyping(LOADING, "chat.postMessage")).toEqual({ status: "waiting" });
    expect(bodySent(LOADING)).toBeNull();
  });

  it("types the arguments by the method's entry once the catalog is there", () => {
    expect(argumentTyping(LOADED, "chat.postMessage").status).toBe("typed");
    expect(bodySent(LOADED)).toEqual({ channel: "general", text: "hi", unfurl_links: false });
  });

  it("sends a method outside the catalog as written, and says why", () => {
    const unknown = { ...shared, method: "chat.postSomething" };
    expect(argumentTyping(LOADED, unknown.method)).toEqual({ status: "untyped", reason: "not_in_catalog" });
    expect(bodySent(LOADED, unknown)).toEqual({ channel: "general", text: "hi", unfurl_links: "false" });
  });

  it("does not hold calls back for ever: without a catalog (failed, or too slow) they go as written, said so", () => {
    expect(argumentTyping(FAILED, "chat.postMessage")).toEqual({ status: "untyped", reason: "no_catalog" });
    expect(bodySent(FAILED)).toEqual({ channel: "general", text: "hi", unfurl_links: "false" });
  });

  it("prefers the catalog when it comes after all, late", () => {
    expect(bodySent({ methods: METHOD_CATALOG, unavailable: true })).toEqual({ channel: "general", text: "hi", unfurl_links: false });
  });
});
