import { describe, expect, it } from "vitest";
import { addHistoryEntry, HISTORY_LIMIT, parseHistory, type HistoryEntry } from "@/lib/explorer/history";
import { callQuery, fromSearchParams, isValidMethod, methodParams, toSearchParams, type ExplorerRequest } from "@/lib/explorer/params";
import { currentCursor, pageNumber, popPage, pushPage, START } from "@/lib/explorer/pagination";

const request: ExplorerRequest = {
  method: "conversations.list",
  installation: "inst_1",
  tokenKind: "user",
  cursor: "abc=",
  limit: "50",
  extra: [
    { key: "types", value: "public_channel,private_channel" },
    { key: "token", value: "xoxb-should-never-travel" },
  ],
};

describe("the explorer's URL", () => {
  it("round-trips method, installation, token kind and parameters", () => {
    const back = fromSearchParams(toSearchParams(request));
    expect(back).toEqual({ ...request, extra: [{ key: "types", value: "public_channel,private_channel" }] });
  });

  it("never carries a token parameter", () => {
    const search = toSearchParams(request).toString();
    expect(search).not.toContain("xoxb");
    expect(fromSearchParams(new URLSearchParams("method=users.list&p.token=xoxb-1&p.client_secret=s")).extra).toEqual([]);
  });

  it("falls back to users.list for a method name outside [A-Za-z0-9.]", () => {
    expect(fromSearchParams(new URLSearchParams("method=../admin")).method).toBe("users.list");
    expect(isValidMethod("admin.users.list")).toBe(true);
    expect(isValidMethod("users/list")).toBe(false);
  });

  it("builds the /api/call query with the token kind, not a token", () => {
    const query = new URLSearchParams(callQuery(request, { max_pages: "5" }));
    expect(Object.fromEntries(query)).toEqual({
      installation: "inst_1",
      token: "user",
      limit: "50",
      types: "public_channel,private_channel",
      cursor: "abc=",
      max_pages: "5",
    });
    expect(methodParams({ cursor: "", limit: "", extra: [] })).toEqual({});
  });
});

describe("walking by hand", () => {
  it("goes forward by pushing next_cursor and back by popping", () => {
    let stack = START;
    stack = pushPage(stack, "c2=");
    stack = pushPage(stack, "c3=");
    expect(pageNumber(stack)).toBe(3);
    expect(currentCursor(stack)).toBe("c3=");
    stack = popPage(popPage(stack));
    expect(pageNumber(stack)).toBe(1);
    expect(currentCursor(stack)).toBe("");
    expect(popPage(stack)).toBe(stack);
  });
});

describe("request history", () => {
  const entry = (i: number): HistoryEntry => ({
    id: String(i),
    at: i,
    method: "users.list",
    installation: "inst_1",
    tokenKind: "bot",
    params: { limit: "50", token: "xoxb-secret" },
    status: 200,
    ok: true,
    ms: 3,
  });

  it("keeps the newest entries first, at most the limit, without credentials", () => {
    let history: HistoryEntry[] = [];
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) history = addHistoryEntry(history, entry(i));
    expect(history).toHaveLength(HISTORY_LIMIT);
    expect(history[0]?.id).toBe(String(HISTORY_LIMIT + 4));
    expect(JSON.stringify(history)).not.toContain("xoxb");
  });

  it("reads back what it stored and ignores garbage", () => {
    const stored = JSON.stringify(addHistoryEntry([], entry(1)));
    expect(parseHistory(stored)).toHaveLength(1);
    expect(parseHistory("{nope")).toEqual([]);
    expect(parseHistory(JSON.stringify([{ id: 1 }]))).toEqual([]);
  });
});
