import { describe, expect, it } from "vitest";
import { nextSort, sortRows, TableView, toSortKey, type SortKey, type TableQuery } from "@/lib/explorer/table-view";

const COLLATOR = new Intl.Collator("en", { numeric: true });
const all = (n: number) => Array.from({ length: n }, (_, i) => i);
const keysOf = (values: unknown[]): SortKey[] => values.map(toSortKey);
const sortValues = (values: unknown[], direction: "ascending" | "descending" = "ascending") =>
  sortRows(all(values.length), keysOf(values), direction, COLLATOR).map((row) => values[row]);

function member(id: string, name: string, extra: Record<string, unknown> = {}) {
  return { id, name, ...extra };
}

function query(overrides: Partial<TableQuery>): TableQuery {
  return { filter: "", filterColumn: null, sort: null, ...overrides };
}

describe("header clicks", () => {
  it("sort ascending, then descending, then back to the order the platform sent", () => {
    const first = nextSort(null, "name");
    expect(first).toEqual({ column: "name", direction: "ascending" });
    const second = nextSort(first, "name");
    expect(second).toEqual({ column: "name", direction: "descending" });
    expect(nextSort(second, "name")).toBeNull();
  });

  it("start ascending on another column, whatever the current one", () => {
    expect(nextSort({ column: "name", direction: "descending" }, "email")).toEqual({ column: "email", direction: "ascending" });
  });
});

describe("sorting", () => {
  it("orders numbers by value, not as text", () => {
    expect(sortValues([10, 9, 100, -1, 2.5])).toEqual([-1, 2.5, 9, 10, 100]);
  });

  it("orders text by the collator, with runs of digits as numbers and case aside", () => {
    expect(sortValues(["user10", "user9", "User1", "bob", "Émile", "alice", "user09b"])).toEqual([
      "alice",
      "bob",
      "Émile",
      "User1",
      "user9",
      "user09b",
      "user10",
    ]);
  });

  it("orders false before true", () => {
    expect(sortValues([true, false, true, false])).toEqual([false, false, true, true]);
  });

  it("reverses each kind of value when descending", () => {
    expect(sortValues([10, 9, 100], "descending")).toEqual([100, 10, 9]);
    expect(sortValues(["b", "a10", "a9"], "descending")).toEqual(["b", "a10", "a9"]);
    expect(sortValues([false, true, false], "descending")).toEqual([true, false, false]);
  });

  it("puts missing and empty values last in either direction", () => {
    const values = ["b", undefined, "", "a", null, "c"];
    expect(sortValues(values)).toEqual(["a", "b", "c", undefined, "", null]);
    expect(sortValues(values, "descending")).toEqual(["c", "b", "a", undefined, "", null]);
  });

  it("keeps rows with equal values in the order the platform sent, in either direction", () => {
    const keys = keysOf(["b", "a", "b", "a", "b"]);
    expect(sortRows(all(5), keys, "ascending", COLLATOR)).toEqual([1, 3, 0, 2, 4]);
    expect(sortRows(all(5), keys, "descending", COLLATOR)).toEqual([0, 2, 4, 1, 3]);
  });

  it("counts texts the collator holds equal as equal values: an accent composed or not", () => {
    const keys = keysOf(["e\u0301", "z", "\u00e9", "e\u0301"]);
    expect(sortRows(all(4), keys, "ascending", COLLATOR)).toEqual([0, 2, 3, 1]);
    expect(sortRows(all(4), keys, "descending", COLLATOR)).toEqual([1, 0, 2, 3]);
  });

  it("sorts a column of mixed values as a spreadsheet does: numbers, text, booleans", () => {
    const values = ["x", true, 3, null, 1, false];
    expect(sortValues(values)).toEqual([1, 3, "x", false, true, null]);
    expect(sortValues(values, "descending")).toEqual([true, false, "x", 3, 1, null]);
  });

  it("gives exactly the collator's order over names, ids and emails, accents and punctuation included", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const parts = ["ann", "Ann", "Zoë", "zoe", "Émile", "emile", "Øvrebø", "o'brien", "O-Brien"];
    parts.push("straße", "strasse", "李", "ß", "æ", "ae");
    const texts = Array.from({ length: 3000 }, () => {
      const shape = pick(["name", "email", "id"]);
      if (shape === "id")
        return `U${Math.floor(random() * 1e6)
          .toString(36)
          .toUpperCase()}${pick(["", "0", "07", "10"])}`;
      const name = `${pick(parts)}${pick([".", "_", " ", "-", ""])}${pick(parts)}${pick(["", "2", "10", "007"])}`;
      return shape === "email" ? `${name.toLowerCase()}@example.com` : name;
    });
    const expected = all(texts.length).sort((a, b) => COLLATOR.compare(texts[a]!, texts[b]!) || a - b);
    expect(sortRows(all(texts.length), keysOf(texts), "ascending", COLLATOR)).toEqual(expected);
    const reversed = all(texts.length).sort((a, b) => COLLATOR.compare(texts[b]!, texts[a]!) || a - b);
    expect(sortRows(all(texts.length), keysOf(texts), "descending", COLLATOR)).toEqual(reversed);
  });
});

describe("TableView", () => {
  const items = [
    member("U3", "carol", { profile: { email: "carol@example.com", title: "Engineer" }, is_admin: true }),
    member("U1", "engineer", { profile: { email: "eng@example.com", title: "Manager" } }),
    member("U2", "alice", { profile: { email: "alice@example.com", title: "Engineer" }, is_admin: false }),
    member("U4", "bob", { profile: { email: "bob@example.com" } }),
  ];
  const names = (rows: readonly number[] | null) => (rows ?? all(items.length)).map((row) => items[row]!.name);

  it("shows every row as the platform sent it when neither filtering nor sorting", () => {
    expect(new TableView("members", items, COLLATOR).rows(query({}))).toBeNull();
  });

  it("sorts by a column's value and goes back to the original order", () => {
    const view = new TableView("members", items, COLLATOR);
    expect(names(view.rows(query({ sort: { column: "name", direction: "ascending" } })))).toEqual(["alice", "bob", "carol", "engineer"]);
    expect(names(view.rows(query({ sort: { column: "name", direction: "descending" } })))).toEqual(["engineer", "carol", "bob", "alice"]);
    expect(names(view.rows(query({ sort: { column: "id", direction: "ascending" } })))).toEqual(["engineer", "alice", "carol", "bob"]);
    expect(names(view.rows(query({ sort: null })))).toEqual(["carol", "engineer", "alice", "bob"]);
  });

  it("sorts booleans with the members that lack the field last", () => {
    const view = new TableView("members", items, COLLATOR);
    const byAdmin = view.rows(query({ sort: { column: "is_admin", direction: "ascending" } }));
    expect(names(byAdmin)).toEqual(["alice", "carol", "engineer", "bob"]);
  });

  it("matches the filter in any column by default, and in one column only when one is chosen", () => {
    const view = new TableView("members", items, COLLATOR);
    expect(names(view.rows(query({ filter: "Engineer" })))).toEqual(["carol", "engineer", "alice"]);
    expect(names(view.rows(query({ filter: "Engineer", filterColumn: "name" })))).toEqual(["engineer"]);
    expect(names(view.rows(query({ filter: "engineer", filterColumn: "title" })))).toEqual(["carol", "alice"]);
    expect(view.rows(query({ filter: "  ", filterColumn: "title" }))).toBeNull();
  });

  it("filters, then sorts", () => {
    const view = new TableView("members", items, COLLATOR);
    const filtered = view.rows(query({ filter: "engineer", sort: { column: "name", direction: "ascending" } }));
    expect(names(filtered)).toEqual(["alice", "carol", "engineer"]);
    const oneColumn = view.rows(query({ filter: "engineer", filterColumn: "title", sort: { column: "email", direction: "descending" } }));
    expect(names(oneColumn)).toEqual(["carol", "alice"]);
  });

  it("includes rows appended while a walk streams, in their sorted place and through the filter", () => {
    const streamed: unknown[] = [member("U5", "mallory"), member("U6", "dave")];
    const view = new TableView("members", streamed, COLLATOR);
    const sort = { column: "name", direction: "ascending" } as const;
    const shown = () => (view.rows(query({ sort })) ?? []).map((row) => (streamed[row] as { name: string }).name);
    expect(shown()).toEqual(["dave", "mallory"]);
    streamed.push(member("U7", "erin"), member("U8", "bob"));
    expect(shown()).toEqual(["bob", "dave", "erin", "mallory"]);
    // Enough rows at once that the view sorts them all again rather than placing each.
    const many = Array.from({ length: 200 }, (_, i) => member(`W${i}`, `walker${200 - i}`));
    streamed.push(...many, member("U9", "aaron"));
    expect(shown().slice(0, 3)).toEqual(["aaron", "bob", "dave"]);
    expect(shown().at(-1)).toBe("walker200");
    streamed.push(member("U10", "zed"), member("U11", "carl"));
    expect(shown().slice(0, 4)).toEqual(["aaron", "bob", "carl", "dave"]);
    expect(shown().at(-1)).toBe("zed");
    expect(view.rows(query({ sort, filter: "walker1", filterColumn: "name" }))).toHaveLength(111);
  });

  it("places rows that stream in exactly where a fresh sort puts them", () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const streamed: unknown[] = [];
    const view = new TableView("channels", streamed, COLLATOR);
    const sort = { column: "num_members", direction: "descending" } as const;
    for (let page = 0; page < 30; page++) {
      for (let i = 0; i < 40; i++) {
        const roll = random();
        streamed.push({ id: `C${page}-${i}`, name: `c${i}`, num_members: roll < 0.1 ? undefined : Math.floor(roll * 50) });
      }
      view.rows(query({ sort }));
    }
    expect(view.rows(query({ sort }))).toEqual(new TableView("channels", streamed, COLLATOR).rows(query({ sort })));
  });
});
