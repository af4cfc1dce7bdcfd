import { describe, expect, it } from "vitest";
import { safeHref } from "@/components/blocks/safe-url";

describe("safeHref", () => {
  it("lets web and mail links through", () => {
    expect(safeHref("https://example.com/a?b=1")).toBe("https://example.com/a?b=1");
    expect(safeHref("http://example.com")).toBe("http://example.com/");
    expect(safeHref("mailto:someone@example.com")).toBe("mailto:someone@example.com");
  });

  it("refuses script, data and relative URLs, however they are written", () => {
    for (const url of [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,<b>x</b>",
      "vbscript:x",
      "/admin",
      "//evil.example",
      "",
      "file:///etc/passwd",
    ]) {
      expect(safeHref(url), url).toBeNull();
    }
    expect(safeHref(42)).toBeNull();
  });
});
