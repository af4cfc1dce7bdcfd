import { describe, expect, it } from "vitest";
import { escapeCsvCell, toCsv, toJsonExport } from "@/lib/explorer/export";
import { findCollection, toRow } from "@/lib/explorer/items";

describe("CSV export", () => {
  it("writes members with a header row and RFC 4180 quoting", () => {
    const csv = toCsv("members", [
      { id: "U1", name: "ada", real_name: "Ada, Countess", tz: "Europe/London", is_admin: true, profile: { email: "a@x.io", title: 'say "hi"' } },
    ]);
    const [header, row] = csv.split("\r\n");
    expect(header).toBe("id,name,real_name,email,title,tz,is_admin,is_bot,deleted");
    expect(row).toBe(`U1,ada,"Ada, Countess",a@x.io,"say ""hi""",Europe/London,true,,`);
  });

  it("defuses cells a spreadsheet would run as formulas", () => {
    expect(escapeCsvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(escapeCsvCell("@SUM")).toBe("'@SUM");
  });

  it("writes channels with topic and purpose values", () => {
    const csv = toCsv("channels", [{ id: "C1", name: "general", topic: { value: "news" }, purpose: { value: "all" }, num_members: 3 }]);
    expect(csv.split("\r\n")[1]).toBe("C1,general,,,3,news,all,");
  });

  it("exports JSON under the collection's own field", () => {
    const json = JSON.parse(toJsonExport("users.list", "members", [{ id: "U1" }], 1));
    expect(json).toEqual({ method: "users.list", pages: 1, count: 1, members: [{ id: "U1" }] });
  });
});

describe("collections", () => {
  it("finds members, channels, or another method's array", () => {
    expect(findCollection({ ok: true, members: [{ id: "U1" }] })?.kind).toBe("members");
    expect(findCollection({ ok: true, channels: [] })?.field).toBe("channels");
    expect(findCollection({ ok: true, files: [{ id: "F1" }] })).toEqual({ field: "files", kind: "items", items: [{ id: "F1" }] });
    expect(findCollection({ ok: true, user: {} })).toBeNull();
    expect(findCollection({ ok: false, error: "invalid_request", issues: [{ path: "installation" }] })).toBeNull();
  });

  it("reads a member's email from its profile", () => {
    expect(toRow("members", { id: "U1", profile: { email: "e@x.io", real_name: "E" } })).toMatchObject({ email: "e@x.io", real_name: "E" });
  });
});
