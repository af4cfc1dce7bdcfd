import { describe, expect, it } from "vitest";
import { editRequest, initialRowKeys, rowKeysFor, transportOf, withoutRow } from "@/components/explorer/request-form-state";
import { findMethod } from "@/lib/explorer/catalog/query";
import { METHOD_CATALOG } from "@/lib/explorer/catalog/methods.generated";
import type { CatalogMethod } from "@/lib/explorer/catalog/types";
import { EMPTY_REQUEST, type ExplorerRequest } from "@/lib/explorer/params";

function method(name: string): CatalogMethod {
  const found = findMethod(METHOD_CATALOG, name);
  if (!found) throw new Error(`${name} is not in the catalog`);
  return found;
}

const request = (patch: Partial<ExplorerRequest> = {}): ExplorerRequest => ({ ...EMPTY_REQUEST, installation: "T1-A1", ...patch });
const pick = (from: ExplorerRequest, name: string) => editRequest(from, { type: "method_picked", method: method(name) });

describe("picking a method in the form", () => {
  it("starts from the first page with the catalog's verb and body, keeping the other arguments", () => {
    const walking = request({ method: "users.list", cursor: "dXNlcjpVMDI=", limit: "50", extra: [{ key: "channel", value: "C1" }] });
    expect(pick(walking, "chat.postMessage")).toEqual({
      ...walking,
      method: "chat.postMessage",
      httpMethod: "POST",
      encoding: "json",
      cursor: "",
      limit: "",
    });
    expect(pick(request({ httpMethod: "POST", encoding: "json" }), "users.info")).toMatchObject({ httpMethod: "GET" });
  });

  it("keeps a limit set for a method that pages for another that pages, and gives one that had none the console's page size", () => {
    expect(pick(request({ method: "users.list", limit: "7" }), "conversations.list").limit).toBe("7");
    expect(pick(request({ method: "auth.test", limit: "" }), "conversations.list").limit).toBe("50");
  });

  it("changes only the name while it is typed", () => {
    const typed = editRequest(request({ cursor: "c2=", limit: "7" }), { type: "method_typed", method: "chat.post" });
    expect(typed).toEqual(request({ method: "chat.post", cursor: "c2=", limit: "7" }));
  });
});

describe("the verb and body", () => {
  it("is one of three choices, and a GET keeps the encoding chosen for the next POST", () => {
    const json = editRequest(request(), { type: "transport_chosen", transport: "POST-json" });
    expect(json).toMatchObject({ httpMethod: "POST", encoding: "json" });
    expect(transportOf(json)).toBe("POST-json");
    const get = editRequest(json, { type: "transport_chosen", transport: "GET" });
    expect(get).toMatchObject({ httpMethod: "GET", encoding: "json" });
    expect(transportOf(get)).toBe("GET");
    expect(transportOf(editRequest(get, { type: "transport_chosen", transport: "POST-form" }))).toBe("POST-form");
  });
});

describe("the fields and parameters", () => {
  it("sets the installation, token, cursor and limit as chosen or typed", () => {
    let edited = editRequest(request(), { type: "installation_chosen", installation: "T2-A1" });
    edited = editRequest(edited, { type: "token_chosen", tokenKind: "user" });
    edited = editRequest(edited, { type: "cursor_typed", cursor: "c9=" });
    edited = editRequest(edited, { type: "limit_typed", limit: "12" });
    expect(edited).toMatchObject({ installation: "T2-A1", tokenKind: "user", cursor: "c9=", limit: "12" });
  });

  it("sets an argument by name, and removes it when emptied", () => {
    const set = editRequest(request(), { type: "argument_set", name: "channel", value: "C1" });
    expect(set.extra).toEqual([{ key: "channel", value: "C1" }]);
    expect(editRequest(set, { type: "argument_set", name: "channel", value: "C2" }).extra).toEqual([{ key: "channel", value: "C2" }]);
    expect(editRequest(set, { type: "argument_set", name: "channel", value: "" }).extra).toEqual([]);
  });

  it("adds an empty free row at the end, edits a row by its place, and removes only that row", () => {
    let edited = editRequest(request({ extra: [{ key: "channel", value: "C1" }] }), { type: "parameter_added" });
    expect(edited.extra).toEqual([
      { key: "channel", value: "C1" },
      { key: "", value: "", free: true },
    ]);
    edited = editRequest(edited, { type: "parameter_edited", index: 1, patch: { key: "text" } });
    edited = editRequest(edited, { type: "parameter_edited", index: 1, patch: { value: "hi" } });
    expect(edited.extra[1]).toEqual({ key: "text", value: "hi", free: true });
    expect(editRequest(edited, { type: "parameter_removed", index: 0 }).extra).toEqual([{ key: "text", value: "hi", free: true }]);
  });
});

describe("the keys of the parameter rows", () => {
  it("keep each row's key when a row above it is removed, and give added rows new ones", () => {
    const pairs = [
      { key: "a", value: "1" },
      { key: "b", value: "2" },
      { key: "c", value: "3" },
    ];
    const rows = initialRowKeys(pairs);
    expect(rows.keys).toEqual([0, 1, 2]);
    expect(rowKeysFor(rows, pairs)).toBe(rows);
    const remaining = [pairs[1]!, pairs[2]!];
    const removed = withoutRow(rows, 0, remaining);
    expect(rowKeysFor(removed, remaining).keys).toEqual([1, 2]);
    const added = [...remaining, { key: "", value: "", free: true }];
    expect(rowKeysFor(removed, added).keys).toEqual([1, 2, 3]);
    // A value typed keeps every key: the rows are the same rows.
    const typed = [{ ...pairs[0]!, value: "9" }, pairs[1]!, pairs[2]!];
    expect(rowKeysFor(rows, typed).keys).toEqual([0, 1, 2]);
  });
});
