import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, type CursorScope } from "@/lib/emulator/pagination/cursor";

const SECRET = Buffer.alloc(32, 7);
const USERS: CursorScope = { method: "users.list", teamId: "T0TEAM0001", kind: "user" };
const NOW = Date.UTC(2026, 0, 1);

describe("pagination cursors", () => {
  it("are base64 of ASCII text starting with the platform's `user:` payload, with no + or /, ending in a single '='", () => {
    for (const id of ["U01WWACT9", "U0", "U0ABCDEFGH12", "1767225600.000100"]) {
      const cursor = encodeCursor(SECRET, USERS, id, NOW);
      expect(cursor).toMatch(/^[A-Za-z0-9]+=$/);
      expect(cursor).not.toMatch(/==$/);
      const text = Buffer.from(cursor, "base64").toString("latin1");
      expect(text).toMatch(/^[\x20-\x7e]+$/);
      expect(text.startsWith(`user:${id}:`)).toBe(true);
    }
  });

  it("never hold + or /, whatever the id and the time (the platform's never do)", () => {
    const ids = ["U01WWACT9", "C0123ABCD", "a~b?c>d", "id with spaces/and:colons", "Zoë+Ørjan", "\u007f", "x".repeat(40)];
    for (let i = 0; i < 3000; i++) {
      const id = ids[i % ids.length]! + (i % 7 === 0 ? "" : String(i));
      const kind = ["user", "channel", "message"][i % 3]!;
      const scope = { ...USERS, kind };
      const now = NOW + i * 7919_000;
      const cursor = encodeCursor(SECRET, scope, id, now);
      expect(cursor, id).toMatch(/^[A-Za-z0-9]+=$/);
      expect(Buffer.from(cursor, "base64").toString("latin1"), id).toMatch(/^[\x20-\x7e]+$/);
      expect(decodeCursor(SECRET, scope, cursor, now, 900)).toEqual({ ok: true, id, issuedAt: Math.floor(now / 1000) });
    }
  });

  it("round-trip to the id they point at", () => {
    const cursor = encodeCursor(SECRET, USERS, "U01WWACT9", NOW);
    expect(decodeCursor(SECRET, USERS, cursor, NOW + 1000, 900)).toEqual({ ok: true, id: "U01WWACT9", issuedAt: NOW / 1000 });
  });

  it("refuse gibberish and wrong encodings", () => {
    const good = encodeCursor(SECRET, USERS, "U01WWACT9", NOW);
    const bad = [
      "gibberish",
      "!!!!",
      "dXNlcjpVMDYxTkZUVDI=", // the platform's own example: not signed by this emulator
      Buffer.from("user:U01WWACT9:1767225600:AAAAAAAAAAAAAAAA").toString("base64"), // our shape, no valid tag
      Buffer.from(`${Buffer.from(good, "base64").toString("latin1")}\0`).toString("base64"), // bytes after the tag
      good.replace(/=$/, "%3D"), // still URL-encoded
      good.replace(/=$/, ""), // base64url, which drops the padding
      good.replace(/A/g, "+"), // a character we never issue
      good.slice(0, -1), // padding lost
      good + "=",
      ` ${good}`,
      Buffer.from(Buffer.from(good, "base64").toString("latin1"), "latin1").toString("base64url"),
      "",
      "A".repeat(400) + "=",
    ].filter((c) => c !== good);
    for (const cursor of bad) {
      expect(decodeCursor(SECRET, USERS, cursor, NOW, 900).ok, cursor).toBe(false);
    }
  });

  it("detect any changed byte", () => {
    const cursor = encodeCursor(SECRET, USERS, "U01WWACT9", NOW);
    const bytes = Buffer.from(cursor, "base64");
    for (let i = 0; i < bytes.length; i++) {
      const tampered = Buffer.from(bytes);
      tampered[i] = (tampered[i] as number) ^ 0x01;
      expect(decodeCursor(SECRET, USERS, tampered.toString("base64"), NOW, 900)).toEqual({ ok: false, problem: "forged" });
    }
  });

  it("only work for the method, team and emulator that issued them", () => {
    const cursor = encodeCursor(SECRET, USERS, "U01WWACT9", NOW);
    expect(decodeCursor(SECRET, { ...USERS, method: "conversations.list" }, cursor, NOW, 900).ok).toBe(false);
    expect(decodeCursor(SECRET, { ...USERS, teamId: "T0OTHER001" }, cursor, NOW, 900).ok).toBe(false);
    expect(decodeCursor(SECRET, { ...USERS, kind: "channel" }, cursor, NOW, 900).ok).toBe(false);
    expect(decodeCursor(Buffer.alloc(32, 8), USERS, cursor, NOW, 900).ok).toBe(false);
  });

  it("expire after their lifetime", () => {
    const cursor = encodeCursor(SECRET, USERS, "U01WWACT9", NOW);
    expect(decodeCursor(SECRET, USERS, cursor, NOW + 899_000, 900).ok).toBe(true);
    expect(decodeCursor(SECRET, USERS, cursor, NOW + 900_000, 900)).toEqual({ ok: false, problem: "expired" });
  });
});
