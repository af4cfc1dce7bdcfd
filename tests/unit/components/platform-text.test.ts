import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { JsonString, PlatformJson, PlatformText } from "@/components/platform-text";

const RLO = "\u202E";
/** The text a reader sees, from markup: elements removed, entities read back. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">");

describe("PlatformText", () => {
  it("puts platform text in a <bdi>, which browsers isolate", () => {
    expect(renderToStaticMarkup(createElement(PlatformText, { className: "truncate", children: `invoice${RLO}txt.exe` }))).toBe(
      `<bdi class="truncate">invoice${RLO}txt.exe</bdi>`,
    );
  });
});

describe("JsonString", () => {
  it("isolates what is inside the quotes, so an override cannot carry the closing quote away", () => {
    expect(renderToStaticMarkup(createElement(JsonString, { value: `a"b${RLO}c` }))).toBe(`<span>&quot;<bdi>a\\&quot;b${RLO}c</bdi>&quot;</span>`);
  });
});

describe("PlatformJson", () => {
  it("isolates each string with characters outside ASCII, keys included, and prints the JSON unchanged", () => {
    const value = { text: `see ${RLO}txt.exe`, [`k${RLO}ey`]: ["plain", 'quote " and \\ slash', "עברית"], n: 1 };
    const html = renderToStaticMarkup(createElement(PlatformJson, { value }));
    expect(textOf(html)).toBe(JSON.stringify(value, null, 2));
    expect([...html.matchAll(/<bdi>(.*?)<\/bdi>/g)].map((m) => m[1])).toEqual([`see ${RLO}txt.exe`, `k${RLO}ey`, "עברית"]);
  });

  it("leaves an ASCII-only payload as plain text", () => {
    const value = { type: "app_mention", text: 'say "hi"' };
    expect(renderToStaticMarkup(createElement(PlatformJson, { value }))).toBe(JSON.stringify(value, null, 2).replaceAll('"', "&quot;"));
  });
});
