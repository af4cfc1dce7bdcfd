import { describe, expect, it } from "vitest";
import { PAGINATED_LISTS } from "@/lib/explorer/catalog/lists.generated";
import { METHOD_CATALOG } from "@/lib/explorer/catalog/methods.generated";
import { toCsv } from "@/lib/explorer/export";
import { CHANNEL_COLUMNS, findCollection, MEMBER_COLUMNS, toRow } from "@/lib/explorer/items";
import { TableView } from "@/lib/explorer/table-view";

/** What a table shows of a collection: its columns, and each row's cells in that order. */
function tableOf(body: unknown, method: string) {
  const collection = findCollection(body, method);
  if (!collection) throw new Error(`no collection in the answer of ${method}`);
  const view = new TableView(collection.kind, collection.items);
  const columns = view.columns();
  const rows = collection.items.map((item) => {
    const row = toRow(collection.kind, item);
    return columns.map((column) => row[column] ?? "");
  });
  return { field: collection.field, kind: collection.kind, columns, rows };
}

const MESSAGES = [
  {
    type: "message",
    user: "U0A1",
    text: "Deploy finished",
    ts: "1700000000.000100",
    blocks: [{ type: "section", text: { type: "mrkdwn", text: "Deploy finished" } }],
    reply_count: 2,
  },
  { type: "message", subtype: "bot_message", bot_id: "B0A1", text: "Build green", ts: "1700000001.000200", edited: { user: "U0A1", ts: "1700000002.0" } },
];

describe("The list of a paginated method's answer", () => {
  const paginated = METHOD_CATALOG.filter((method) => method.pagination);

  it("is named for every paginated method of the catalog, the four the reference leaves unnamed included", () => {
    expect(paginated).toHaveLength(27);
    expect(PAGINATED_LISTS).toEqual(Object.fromEntries(paginated.map((method) => [method.name, method.pagination!.list])));
    expect(PAGINATED_LISTS).toMatchObject({
      "admin.inviteRequests.approved.list": "approved_requests",
      "admin.inviteRequests.denied.list": "denied_requests",
      "admin.inviteRequests.list": "invite_requests",
      "files.remote.list": "files",
    });
  });

  it.each(paginated.map((method) => [method.name, method.pagination!.list] as const))(
    "is what the table shows for %s: the items of %s, by their fields",
    (name, list) => {
      // Another array comes first in the answer, as a warning list or a file's shares might: the catalog's name decides.
      const items = [
        { id: "X1", name: "first", text: "hello", ts: "1700000000.000100", count: 3, nested: { a: 1 } },
        { id: "X2", name: "second", text: "again", ts: "1700000001.000200", count: 4, nested: { a: 2 } },
      ];
      const body = { ok: true, decoy: [{ id: "not this one" }], [list]: items, response_metadata: { next_cursor: "" } };
      const table = tableOf(body, name);
      expect(table.field).toBe(list);
      expect(table.rows).toHaveLength(2);
      if (table.kind === "items") {
        expect(table.columns).toEqual(["id", "ts", "name", "text", "count"]);
        expect(table.rows[1]).toEqual(["X2", "1700000001.000200", "second", "again", "4"]);
      } else {
        expect(table.columns).toEqual(table.kind === "members" ? MEMBER_COLUMNS : CHANNEL_COLUMNS);
        expect(table.rows[1]!.slice(0, 2)).toEqual(["X2", "second"]);
      }
    },
  );

  it("shows conversations.history's messages with ts and text first, their other scalar fields after, and no nested value", () => {
    const table = tableOf({ ok: true, messages: MESSAGES, has_more: false, pin_count: 0, response_metadata: { next_cursor: "" } }, "conversations.history");
    expect(table.columns).toEqual(["ts", "text", "type", "user", "reply_count", "subtype", "bot_id"]);
    expect(table.rows).toEqual([
      ["1700000000.000100", "Deploy finished", "message", "U0A1", "2", "", ""],
      ["1700000001.000200", "Build green", "message", "", "", "bot_message", "B0A1"],
    ]);
  });

  it("shows a list of IDs (conversations.members, admin.teams.admins.list) as one value column", () => {
    const members = tableOf({ ok: true, members: ["U023BECGF", "U061F7AUR"] }, "conversations.members");
    expect(members).toMatchObject({ field: "members", kind: "items", columns: ["value"], rows: [["U023BECGF"], ["U061F7AUR"]] });
    expect(tableOf({ ok: true, admin_ids: ["U1234"] }, "admin.teams.admins.list").rows).toEqual([["U1234"]]);
  });

  it("keeps users.list's and conversations.list's own columns, which read into profile and topic", () => {
    const users = tableOf({ ok: true, members: [{ id: "U1", name: "ada", profile: { email: "ada@example.com" } }] }, "users.list");
    expect(users.columns).toEqual(MEMBER_COLUMNS);
    expect(users.rows[0]).toContain("ada@example.com");
    const channels = tableOf({ ok: true, channels: [{ id: "C1", name: "general", topic: { value: "news" } }] }, "conversations.list");
    expect(channels.columns).toEqual(CHANNEL_COLUMNS);
    expect(channels.rows[0]).toContain("news");
  });

  it("falls back, for a method the catalog does not page, to members, channels, or the first array", () => {
    expect(findCollection({ ok: true, members: [{ id: "U1" }] })?.kind).toBe("members");
    expect(findCollection({ ok: true, channels: [] })?.kind).toBe("channels");
    expect(findCollection({ ok: true, files: [{ id: "F1" }] })).toEqual({ field: "files", kind: "items", items: [{ id: "F1" }] });
    // The catalog's list absent from an answer: the first array is still shown rather than nothing.
    expect(findCollection({ ok: true, teams: ["T1"] }, "admin.conversations.getTeams")?.field).toBe("teams");
  });
});

describe("The columns of a walk's items", () => {
  it("grow as pages bring new fields, and stay the same array while none does", () => {
    const items: unknown[] = [{ ts: "1.0", text: "a" }];
    const view = new TableView("items", items);
    const first = view.columns();
    expect(first).toEqual(["ts", "text"]);
    items.push({ ts: "2.0", text: "b" });
    expect(view.columns()).toBe(first);
    items.push({ ts: "3.0", text: "c", user: "U1", id: "M3" });
    expect(view.columns()).toEqual(["id", "ts", "text", "user"]);
  });

  it("filter and sort by a field only later items have", () => {
    const items: unknown[] = [{ ts: "1.0", text: "b" }];
    const view = new TableView("items", items);
    items.push({ ts: "2.0", text: "a", user: "U2" }, { ts: "3.0", text: "c", user: "U1" });
    expect(view.rows({ filter: "u1", filterColumn: null, sort: null })).toEqual([2]);
    expect(view.rows({ filter: "", filterColumn: null, sort: { column: "user", direction: "ascending" } })).toEqual([2, 1, 0]);
  });
});

describe("CSV of another method's items", () => {
  it("has the table's columns", () => {
    const [header, first] = toCsv("items", MESSAGES).split("\r\n");
    expect(header).toBe("ts,text,type,user,reply_count,subtype,bot_id");
    expect(first).toBe("1700000000.000100,Deploy finished,message,U0A1,2,,");
  });
});
