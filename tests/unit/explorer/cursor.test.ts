import { describe, expect, it } from "vitest";
import { encodeCursor } from "@/lib/emulator/pagination/cursor";
import { describeCursor } from "@/lib/explorer/cursor";
import { readNextCursor } from "@/lib/platform/cursor";

describe("cursor display", () => {
  it("shows the platform's example cursor as received, on the wire with %3D, and decoded", () => {
    expect(describeCursor("dXNlcjpVMDYxTkZUVDI=")).toEqual({
      received: "dXNlcjpVMDYxTkZUVDI=",
      wire: "dXNlcjpVMDYxTkZUVDI%3D",
      decoded: "user:U061NFTT2",
      opaqueBytes: 0,
    });
  });

  it("encodes + and / as a form body would", () => {
    expect(describeCursor("ab+c/d==").wire).toBe("ab%2Bc%2Fd%3D%3D");
  });

  it("does not pretend to decode binary or non-base64 cursors", () => {
    const binary = btoa(String.fromCharCode(0, 159, 146, 150, 1, 2, 3));
    expect(describeCursor(binary).decoded).toBeNull();
    expect(describeCursor("not a cursor!").decoded).toBeNull();
    expect(describeCursor("").decoded).toBeNull();
  });

  it("reads the readable head of a signed cursor and counts the binary after it", () => {
    const bytes = [..."user:U0ABC"].map((c) => c.charCodeAt(0)).concat([0, 0, 1, 2, 3, 4, 250, 251, 252]);
    const cursor = btoa(String.fromCharCode(...bytes));
    expect(describeCursor(cursor)).toMatchObject({ decoded: "user:U0ABC", opaqueBytes: 9 });
  });

  it("shows the emulator's cursor whole: base64 of readable text (kind, id, issue time, tag), nothing to percent-encode but the =", () => {
    const cursor = encodeCursor(Buffer.alloc(32, 1), { method: "users.list", teamId: "T0TEAM0001", kind: "user" }, "U061NFTT2", Date.UTC(2026, 0, 1));
    const view = describeCursor(cursor);
    expect(view.decoded).toMatch(/^user:U061NFTT2:0*1767225600:[A-Za-z0-9_-]{16}$/);
    expect(view.opaqueBytes).toBe(0);
    expect(view.wire).toBe(cursor.replace(/=$/, "%3D"));
  });

  it("decodes url-safe base64 without padding", () => {
    const cursor = btoa("channel:C0123").replace(/=+$/, "");
    expect(describeCursor(cursor).decoded).toBe("channel:C0123");
  });
});

describe("the end of a walk", () => {
  it("is reached only when next_cursor is empty, null or absent", () => {
    expect(readNextCursor({ ok: true, response_metadata: { next_cursor: "" } })).toBeNull();
    expect(readNextCursor({ ok: true, response_metadata: { next_cursor: null } })).toBeNull();
    expect(readNextCursor({ ok: true, response_metadata: {} })).toBeNull();
    expect(readNextCursor({ ok: true })).toBeNull();
  });

  it("is not reached by a short page that still has a cursor", () => {
    expect(readNextCursor({ ok: true, members: [{ id: "U1" }], response_metadata: { next_cursor: "abc=" } })).toBe("abc=");
  });
});
