import { describe, expect, it } from "vitest";
import {
  argumentProblem,
  buildCall,
  callQuery,
  EMPTY_REQUEST,
  fromSearchParams,
  isValidMethod,
  requestParams,
  toSearchParams,
  withoutPagingFields,
  type ExplorerRequest,
} from "@/lib/explorer/params";
import { currentCursor, pageNumber, popPage, pushPage, START } from "@/lib/explorer/pagination";

const request: ExplorerRequest = {
  method: "conversations.list",
  installation: "inst_1",
  tokenKind: "user",
  httpMethod: "GET",
  encoding: "form",
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

  it("keeps a method name outside [A-Za-z0-9.] as it is, invalid, instead of calling users.list in its place", () => {
    const request = fromSearchParams(new URLSearchParams("method=../admin"));
    expect(request.method).toBe("../admin");
    expect(isValidMethod(request.method)).toBe(false);
    expect(isValidMethod("admin.users.list")).toBe(true);
    expect(isValidMethod("users/list")).toBe(false);
    // No method at all is the explorer's first method.
    expect(fromSearchParams(new URLSearchParams("")).method).toBe("users.list");
    expect(fromSearchParams(new URLSearchParams("method=")).method).toBe("users.list");
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
    expect(requestParams({ cursor: "", limit: "", extra: [] })).toEqual({});
  });
});

describe("the request builder", () => {
  const post: ExplorerRequest = {
    ...EMPTY_REQUEST,
    method: "chat.postMessage",
    installation: "inst_1",
    httpMethod: "POST",
    encoding: "json",
    limit: "",
    extra: [
      { key: "channel", value: "C123" },
      { key: "blocks", value: '[{"type":"section","text":{"type":"mrkdwn","text":"*hi*"}}]' },
      { key: "unfurl_links", value: "false" },
      { key: "thread_ts", value: "1700000000.000100" },
      { key: "token", value: "xoxb-never" },
    ],
  };
  const types = new Map([
    ["channel", "string"],
    ["blocks", "json"],
    ["unfurl_links", "boolean"],
    ["thread_ts", "string"],
  ] as const);

  it("sends a JSON POST with typed values: blocks as JSON, booleans as booleans, strings as strings, no token", () => {
    const call = buildCall(post, types);
    expect(call).toMatchObject({ method: "chat.postMessage", httpMethod: "POST", contentType: "application/json; charset=utf-8" });
    expect(Object.fromEntries(new URLSearchParams(call.query))).toEqual({ installation: "inst_1", token: "bot" });
    expect(JSON.parse(call.body ?? "")).toEqual({
      channel: "C123",
      blocks: [{ type: "section", text: { type: "mrkdwn", text: "*hi*" } }],
      unfurl_links: false,
      thread_ts: "1700000000.000100",
    });
  });

  it("sends a value that is not what its type says as the string it is, for the platform to judge", () => {
    const call = buildCall(
      {
        ...post,
        extra: [
          { key: "blocks", value: "[not json" },
          { key: "unfurl_links", value: "maybe" },
        ],
      },
      types,
    );
    expect(JSON.parse(call.body ?? "")).toEqual({ blocks: "[not json", unfurl_links: "maybe" });
    expect(argumentProblem("json", "[not json")).toBe("is not valid JSON");
    expect(argumentProblem("boolean", "maybe")).toBe("expects true or false");
    expect(argumentProblem("integer", "12.5")).toBe("expects an integer");
    expect(argumentProblem("integer", " 12 ")).toBeNull();
    expect(argumentProblem("json", "")).toBeNull();
  });

  it("sends a form POST with the parameters in the body and a GET with them in the query", () => {
    const form = buildCall({ ...post, encoding: "form" }, types);
    expect(form.contentType).toBe("application/x-www-form-urlencoded");
    expect(new URLSearchParams(form.body).get("blocks")).toBe('[{"type":"section","text":{"type":"mrkdwn","text":"*hi*"}}]');
    expect(new URLSearchParams(form.body).has("token")).toBe(false);
    const get = buildCall({ ...post, httpMethod: "GET" }, types);
    expect(get.body).toBeUndefined();
    expect(new URLSearchParams(get.query).get("channel")).toBe("C123");
  });

  it("keeps verb and body encoding in the page URL", () => {
    expect(fromSearchParams(toSearchParams(post))).toMatchObject({ httpMethod: "POST", encoding: "json" });
    expect(fromSearchParams(toSearchParams({ ...post, encoding: "form" }))).toMatchObject({ httpMethod: "POST", encoding: "form" });
    expect(fromSearchParams(new URLSearchParams("method=users.list"))).toMatchObject({ httpMethod: "GET" });
  });

  it("turns the cursor and limit fields of a method that does not page into ordinary parameters", () => {
    const moved = withoutPagingFields({ ...EMPTY_REQUEST, method: "auth.test", limit: "50", cursor: "" });
    expect(moved).toMatchObject({ limit: "", cursor: "", extra: [{ key: "limit", value: "50" }] });
    expect(requestParams({ cursor: "", limit: "", extra: [{ key: "limit", value: "10" }] })).toEqual({ limit: "10" });
    // A paginated method's own limit field wins over a parameter of the same name.
    expect(
      requestParams({
        cursor: "c=",
        limit: "5",
        extra: [
          { key: "limit", value: "10" },
          { key: "cursor", value: "x" },
        ],
      }),
    ).toEqual({ limit: "5", cursor: "c=" });
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
