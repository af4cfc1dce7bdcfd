import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, type CursorScope } from "@/lib/emulator/pagination/cursor";

const SECRET = Buffer.alloc(32, 7);
const USERS: CursorScope = { method: "users.list", teamId: "T0TEAM0001", kind: "user" };
const NOW = Date.UTC(2026, 0, 1);

describe("pagination cursors", () => {
  it("are standard base64 ending in a single '=' that starts with the platform's `user:` payload", () => {
    for (const id of ["U01WWACT9", "U0", "U0ABCDEFGH12"]) {
      const cursor = encodeCursor(SECRET, USERS, id, NOW);
      expect(cursor).toMatch(/^[A-Za-z0-9+/]+=$/);
      expect(cursor).not.toMatch(/==$/);
      expect(Buffer.from(cursor, "base64").toString("latin1").startsWith(`user:${id}\0`)).toBe(true);
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
      good.replace(/=$/, "%3D"), // still URL-encoded
      good.replace(/\+/g, "-").replace(/\//g, "_"), // base64url instead of base64
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
