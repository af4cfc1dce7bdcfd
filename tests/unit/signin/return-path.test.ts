import { describe, expect, it } from "vitest";
import { safeReturnPath } from "@/lib/signin/return-path";

describe("safeReturnPath: where a sign-in (and /signin without sign-in) may send the person", () => {
  it("keeps a path of this console, percent-encoded as a browser sends it", () => {
    expect(safeReturnPath("/explorer?method=users.list#x")).toBe("/explorer?method=users.list#x");
    expect(safeReturnPath("/\u2028x")).toBe("/%E2%80%A8x");
  });

  it("refuses a path the URL parser tidies into another site (//host), which the redirect would follow", () => {
    for (const next of [
      "/.//evil.example",
      "/..//evil.example",
      "/%2e//evil.example",
      "/a/..//evil.example/x",
      "/./%2e/..//evil.example",
      "/.///evil.example",
    ]) {
      expect(safeReturnPath(next), next).toBe("/");
    }
  });

  it("refuses another site, a backslash, control characters and nothing at all", () => {
    for (const next of ["https://evil.example/", "//evil.example", "/\\evil.example", "/\u0000x", "javascript:alert(1)", "", null, undefined]) {
      expect(safeReturnPath(next), String(next)).toBe("/");
    }
  });
});
