import { describe, expect, it } from "vitest";
import { childCount, childSlice, kindOf, SLICE, summarize } from "@/lib/explorer/json-tree";

describe("the JSON viewer's tree", () => {
  const big = { ok: true, members: Array.from({ length: 100_000 }, (_, i) => ({ id: `U${i}` })) };

  it("summarizes a collapsed node without looking inside it", () => {
    expect(summarize(big)).toBe("{ 2 keys }");
    expect(summarize(big.members)).toBe("[ 100,000 items ]");
    expect(summarize([1])).toBe("[ 1 item ]");
    expect(summarize('a"b')).toBe('"a\\"b"');
    expect(summarize(null)).toBe("null");
  });

  it("opens a large array a slice at a time", () => {
    const first = childSlice(big.members, 0, SLICE);
    expect(first).toHaveLength(SLICE);
    expect(first[0]).toEqual(["0", { id: "U0" }]);
    expect(childSlice(big.members, 99_990, 99_990 + SLICE)).toHaveLength(10);
    expect(childCount(big.members)).toBe(100_000);
  });

  it("tells the kinds apart", () => {
    expect([kindOf({}), kindOf([]), kindOf("s"), kindOf(1), kindOf(false), kindOf(null)]).toEqual(["object", "array", "string", "number", "boolean", "null"]);
    expect(childSlice({ a: 1, b: 2, c: 3 }, 1, 3)).toEqual([
      ["b", 2],
      ["c", 3],
    ]);
  });
});
