import { describe, expect, it } from "vitest";
import { parseInline, parseMrkdwn } from "@/components/blocks/mrkdwn";

describe("parseMrkdwn", () => {
  it("reads bold, italic, strike and code, and nests marks", () => {
    expect(parseInline("*bold _and italic_* ~gone~ `*not bold*`")).toEqual([
      {
        kind: "bold",
        children: [
          { kind: "text", text: "bold " },
          { kind: "italic", children: [{ kind: "text", text: "and italic" }] },
        ],
      },
      { kind: "text", text: " " },
      { kind: "strike", children: [{ kind: "text", text: "gone" }] },
      { kind: "text", text: " " },
      { kind: "code", text: "*not bold*" },
    ]);
  });

  it("leaves a mark inside a word or one that never closes as text", () => {
    expect(parseInline("snake_case_name and 2*3 and *open")).toEqual([{ kind: "text", text: "snake_case_name and 2*3 and *open" }]);
  });

  it("reads links with and without a label, mentions, special mentions and dates", () => {
    expect(
      parseInline(
        "<https://example.com|the site> <mailto:a@b.c> <@U123> <@U9|ann> <#C42|general> <!subteam^S1|team> <!here> <!date^1700000000^{date_short}|Nov 14>",
      ),
    ).toEqual([
      { kind: "link", url: "https://example.com", label: "the site" },
      { kind: "text", text: " " },
      { kind: "link", url: "mailto:a@b.c", label: null },
      { kind: "text", text: " " },
      { kind: "user", id: "U123", label: null },
      { kind: "text", text: " " },
      { kind: "user", id: "U9", label: "ann" },
      { kind: "text", text: " " },
      { kind: "channel", id: "C42", label: "general" },
      { kind: "text", text: " " },
      { kind: "usergroup", id: "S1", label: "team" },
      { kind: "text", text: " " },
      { kind: "broadcast", range: "here" },
      { kind: "text", text: " " },
      { kind: "date", timestamp: 1700000000, format: "{date_short}", fallback: "Nov 14" },
    ]);
  });

  it("reads emoji names, with a skin tone, and unescapes the platform's &lt; &gt; &amp;", () => {
    expect(parseInline(":wave::skin-tone-3: hi &lt;b&gt; &amp; :not an emoji:")).toEqual([
      { kind: "emoji", name: "wave::skin-tone-3" },
      { kind: "text", text: " hi <b> & :not an emoji:" },
    ]);
  });

  it("keeps markup-looking text as text, never as markup", () => {
    expect(parseInline("<script>alert(1)</script>")).toEqual([
      { kind: "link", url: "script", label: null },
      { kind: "text", text: "alert(1)" },
      { kind: "link", url: "/script", label: null },
    ]);
  });

  it("reads ``` blocks across lines unformatted, and groups > quote lines", () => {
    expect(parseMrkdwn("before\n```\nconst *x* = 1;\nnext()\n```\n> quoted *bold*\n>second\nafter")).toEqual([
      { kind: "line", children: [{ kind: "text", text: "before" }] },
      { kind: "pre", text: "const *x* = 1;\nnext()" },
      {
        kind: "quote",
        lines: [
          [
            { kind: "text", text: "quoted " },
            { kind: "bold", children: [{ kind: "text", text: "bold" }] },
          ],
          [{ kind: "text", text: "second" }],
        ],
      },
      { kind: "line", children: [{ kind: "text", text: "after" }] },
    ]);
  });

  it("reads a one-line ```code``` and an unclosed block to the end", () => {
    expect(parseMrkdwn("```one line```")).toEqual([{ kind: "pre", text: "one line" }]);
    expect(parseMrkdwn("```\nnever closed\n*still raw*")).toEqual([{ kind: "pre", text: "never closed\n*still raw*" }]);
  });
});
