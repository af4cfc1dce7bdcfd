import { describe, expect, it } from "vitest";
import type { WireRequest } from "@/lib/platform/call-method";
import { cutWhole, MAX_WIRE_HEADER_BYTES, wireHeader } from "@/lib/platform/wire-header";

/** Text with every kind of escape a URL, a form body or a JSON body holds, and characters outside the BMP. */
const SAMPLES = [
  new URLSearchParams({ 名前: "漢字 😀 a+b=c&d", text: "x%y" }).toString(),
  JSON.stringify({ text: 'quote " backslash \\ tab \t ctrl \u0001 emoji 😀 漢字', n: 1 }),
  "😀😀😀😀😀",
];

describe("Cutting a record's text to fit a header", () => {
  it("never splits a %XX escape, a backslash escape or a surrogate pair, at any length", () => {
    for (const text of SAMPLES) {
      for (let n = 0; n <= text.length; n++) {
        const cut = cutWhole(text, n);
        expect(text.startsWith(cut)).toBe(true);
        expect(cut.length).toBeLessThanOrEqual(n);
        expect(n - cut.length).toBeLessThanOrEqual(11);
        expect(cut).not.toMatch(/%[0-9A-Fa-f]?$/);
        expect(cut).not.toMatch(/[\ud800-\udbff]$/);
        expect(() => decodeURIComponent(cut)).not.toThrow();
        // No backslash escape is left half written (an odd run of backslashes, or \u with fewer than four digits).
        expect(cut).not.toMatch(/(^|[^\\])(\\\\)*\\(u[0-9a-fA-F]{0,3})?$/);
      }
    }
  });

  it("keeps a record that fits as it is", () => {
    const wire = { method: "GET" as const, url: "https://slack.com/api/users.list?limit=50", headers: { authorization: "Bearer xoxe.xoxb-…a1b2" } };
    expect(JSON.parse(wireHeader(wire))).toEqual(wire);
  });

  it("fits any record in the cap, in ASCII, the URL included", () => {
    const huge = "漢".repeat(5000);
    const wires: WireRequest[] = [
      {
        method: "POST" as const,
        url: "https://slack.com/api/chat.postMessage",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: huge }),
      },
      { method: "GET" as const, url: `https://slack.com/api/users.list?q=${encodeURIComponent(huge)}`, headers: {} },
      { method: "POST" as const, url: `https://slack.com/api/${"a".repeat(9000)}`, headers: {}, body: huge },
    ];
    for (const wire of wires) {
      const header = wireHeader(wire);
      expect(header.length).toBeLessThanOrEqual(MAX_WIRE_HEADER_BYTES);
      expect(header).toMatch(/^[\x20-\x7e]+$/);
      const record = JSON.parse(header) as { url: string; body?: string; cut: { url?: number; body?: number } };
      expect(wire.url.startsWith(record.url)).toBe(true);
      expect((wire.body ?? "").startsWith(record.body ?? "")).toBe(true);
      expect(record.cut).toEqual({
        ...(record.url !== wire.url ? { url: wire.url.length } : {}),
        ...(wire.body !== undefined ? { body: wire.body.length } : {}),
      });
    }
  });
});
