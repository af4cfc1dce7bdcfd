import { describe, expect, it } from "vitest";
import { childPath, diffJson } from "@/lib/explorer/json-diff";

describe("the structural JSON diff", () => {
  it("finds nothing between equal values, however built", () => {
    expect(diffJson({ a: [1, { b: null }], c: "x" }, JSON.parse('{"a":[1,{"b":null}],"c":"x"}'))).toEqual({
      changes: [],
      added: 0,
      removed: 0,
      changed: 0,
      limited: false,
    });
  });

  it("names added, removed and changed members of nested objects by their path, with their values", () => {
    const before = { ok: true, user: { name: "ana", profile: { title: "dev", phone: "1" } } };
    const after = { ok: true, user: { name: "ana", profile: { title: "lead", email: "a@x" } }, warning: "w" };
    expect(diffJson(before, after).changes).toEqual([
      { kind: "changed", path: "$.user.profile.title", before: "dev", after: "lead" },
      { kind: "removed", path: "$.user.profile.phone", before: "1" },
      { kind: "added", path: "$.user.profile.email", after: "a@x" },
      { kind: "added", path: "$.warning", after: "w" },
    ]);
  });

  it("compares arrays element by element: changed at an index, added or removed past the shorter", () => {
    expect(diffJson({ ids: [1, 2, 3] }, { ids: [1, 5, 3, 4] }).changes).toEqual([
      { kind: "changed", path: "$.ids[1]", before: 2, after: 5 },
      { kind: "added", path: "$.ids[3]", after: 4 },
    ]);
    expect(diffJson([{ id: "a" }, { id: "b" }], [{ id: "a" }]).changes).toEqual([{ kind: "removed", path: "$[1]", before: { id: "b" } }]);
  });

  it("says a change of type once, for the whole value", () => {
    const d = diffJson({ a: { x: 1 }, b: [1], c: 1, d: null, e: "1" }, { a: [1], b: { 0: 1 }, c: "1", d: {}, e: 1 });
    expect(d.changes).toEqual([
      { kind: "changed", path: "$.a", before: { x: 1 }, after: [1] },
      { kind: "changed", path: "$.b", before: [1], after: { 0: 1 } },
      { kind: "changed", path: "$.c", before: 1, after: "1" },
      { kind: "changed", path: "$.d", before: null, after: {} },
      { kind: "changed", path: "$.e", before: "1", after: 1 },
    ]);
    expect(d.changed).toBe(5);
  });

  it("quotes keys that are not identifiers, and keeps a key named __proto__ as a member", () => {
    expect(childPath("$", "display name")).toBe('$["display name"]');
    expect(childPath("$", 0)).toBe("$[0]");
    const d = diffJson(JSON.parse('{"__proto__":{"a":1}}'), JSON.parse('{"__proto__":{"a":2}}'));
    expect(d.changes).toEqual([{ kind: "changed", path: "$.__proto__.a", before: 1, after: 2 }]);
  });

  it("diffs two answers of a megabyte each, counting every change and listing the first ones", () => {
    const members = (n: number, title: string) =>
      Array.from({ length: n }, (_, i) => ({ id: `U${i}`, name: `user-${i}`, profile: { title, tz: "Europe/Paris" } }));
    const before = { ok: true, members: members(16_000, "dev") };
    const after = {
      ok: true,
      members: [...members(16_000, "dev").map((m, i) => (i % 3 === 0 ? { ...m, profile: { ...m.profile, title: "lead" } } : m)), { id: "Unew" }],
    };
    expect(JSON.stringify(before).length).toBeGreaterThan(1_000_000);
    const d = diffJson(before, after, { limit: 500 });
    expect(d.changed).toBe(5_334);
    expect(d.added).toBe(1);
    expect(d.changes).toHaveLength(500);
    expect(d.limited).toBe(true);
    expect(d.changes[0]).toEqual({ kind: "changed", path: "$.members[0].profile.title", before: "dev", after: "lead" });
  });

  it("does not overflow the stack on deeply nested values", () => {
    let a: unknown = 1;
    let b: unknown = 2;
    for (let i = 0; i < 20_000; i++) {
      a = { n: a };
      b = { n: b };
    }
    const d = diffJson(a, b);
    expect(d.changed).toBe(1);
    expect(d.changes[0]?.path.endsWith(".n.n")).toBe(true);
  });
});
