import { describe, expect, it } from "vitest";
import { pageSize, resolveLimit } from "@/lib/emulator/pagination/pagination";
import { addBotUser, markBotUserDeleted, memberAt, memberCount, memberIdAt, memberIndexOf } from "@/lib/emulator/workspace/members";
import { appendMessage } from "@/lib/emulator/workspace/messages";
import { createWorkspace } from "@/lib/emulator/workspace/workspace";

const BASE = "http://localhost:3211/emulator";
const SCALAR_FIELDS = ["id", "team_id", "name", "color", "real_name", "tz_label", "tz_offset", "updated"];
const FLAGS = ["deleted", "is_admin", "is_owner", "is_primary_owner", "is_restricted", "is_ultra_restricted", "is_bot"];

describe("the emulated workspace", () => {
  it("is the same for the same seed and different for another", () => {
    const a = createWorkspace({ seed: "alpha", users: 500 });
    const b = createWorkspace({ seed: "alpha", users: 500 });
    const c = createWorkspace({ seed: "beta", users: 500 });
    expect(memberAt(a, 123, BASE)).toEqual(memberAt(b, 123, BASE));
    expect(a.team).toEqual(b.team);
    expect(a.channels).toEqual(b.channels);
    expect(memberAt(a, 123, BASE)).not.toEqual(memberAt(c, 123, BASE));
  });

  it("starts 100,000 members in a few milliseconds, and finds any member from its id", () => {
    const started = performance.now();
    const ws = createWorkspace({ seed: "big", users: 100_000 });
    expect(performance.now() - started).toBeLessThan(300);
    for (const index of [0, 1, 4242, 99_999]) {
      const id = memberIdAt(ws, index);
      expect(id).toMatch(/^U0[0-9A-Z]{7}$/);
      expect(memberIndexOf(ws, id)).toBe(index);
    }
    expect(memberIndexOf(ws, "U0ZZZZZZZ")).toBe(-1);
    expect(memberIndexOf(ws, "not-an-id")).toBe(-1);
  });

  it("gives every member a unique id and name and the fields of spec 2.4", () => {
    const ws = createWorkspace({ seed: "fields", users: 4000 });
    const ids = new Set<string>();
    const names = new Set<string>();
    let with2fa = 0;
    let withoutOriginalImage = 0;
    for (let i = 0; i < ws.userCount; i++) {
      const m = memberAt(ws, i, BASE);
      ids.add(m.id as string);
      names.add(m.name as string);
      for (const f of SCALAR_FIELDS) expect(m[f], f).toBeDefined();
      for (const f of FLAGS) expect(typeof m[f], f).toBe("boolean");
      expect(m.tz === null || typeof m.tz === "string").toBe(true);
      if ("has_2fa" in m) with2fa++;
      const profile = m.profile as Record<string, unknown>;
      for (const f of ["avatar_hash", "real_name", "real_name_normalized", "image_24", "image_512", "always_active"]) {
        expect(profile[f], f).toBeDefined();
      }
      expect(profile.image_72).toBe(`${BASE}/avatars/${m.id}/${profile.avatar_hash}-72.svg`);
      expect(profile.fields === null || typeof profile.fields === "object").toBe(true);
      if (!("image_original" in profile)) withoutOriginalImage++;
    }
    expect(ids.size).toBe(4000);
    expect(names.size).toBe(4000);
    // Not every record carries has_2fa, and not every profile every field.
    expect(with2fa).toBeGreaterThan(0);
    expect(with2fa).toBeLessThan(4000);
    // (title, phone and skype are always there, "" when unset: the OpenAPI's objs_user_profile requires them.)
    expect(withoutOriginalImage).toBeGreaterThan(0);
    expect(memberAt(ws, 0, BASE).is_primary_owner).toBe(true);
  });

  it("has a #general and archived channels", () => {
    const ws = createWorkspace({ seed: "channels", users: 10 });
    expect(ws.channels.filter((c) => c.isGeneral).map((c) => c.name)).toEqual(["general"]);
    expect(ws.channels.some((c) => c.isArchived)).toBe(true);
    expect(new Set(ws.channels.map((c) => c.id)).size).toBe(ws.channels.length);
  });

  it("adds one bot user per app after the members, kept across reinstalls and marked deleted on uninstall", () => {
    const ws = createWorkspace({ seed: "bots", users: 10 });
    const first = addBotUser(ws, { appId: "A0APP", appName: "My App" }, Date.UTC(2026, 0, 1));
    expect(memberCount(ws)).toBe(11);
    expect(memberIndexOf(ws, first.userId)).toBe(10);
    expect(first.botId).toMatch(/^B0/);
    expect(memberAt(ws, 10, BASE)).toMatchObject({ id: first.userId, is_bot: true, real_name: "My App", deleted: false });
    markBotUserDeleted(ws, "A0APP");
    expect(memberAt(ws, 10, BASE).deleted).toBe(true);
    expect(addBotUser(ws, { appId: "A0APP", appName: "My App" }, Date.UTC(2026, 0, 2))).toEqual(first);
    expect(memberAt(ws, 10, BASE).deleted).toBe(false);
    expect(memberCount(ws)).toBe(11);
  });

  it("stamps messages with strictly increasing ts", () => {
    const ws = createWorkspace({ seed: "ts", users: 10 });
    const channel = ws.channels[0]!.id;
    const now = Date.UTC(2026, 0, 1);
    const a = appendMessage(ws, channel, { text: "a", via: "admin" }, now);
    const b = appendMessage(ws, channel, { text: "b", via: "admin" }, now);
    const c = appendMessage(ws, channel, { text: "c", via: "admin" }, now - 5000);
    expect(a.ts).toMatch(/^\d+\.\d{6}$/);
    expect(Number(b.ts)).toBeGreaterThan(Number(a.ts));
    expect(Number(c.ts)).toBeGreaterThan(Number(b.ts));
    expect(ws.messages.get(channel)?.map((m) => m.text)).toEqual(["a", "b", "c"]);
  });
});

describe("page sizes", () => {
  it("clamps limit into 1..1000 and falls back for absent or invalid values", () => {
    expect(resolveLimit(undefined, 100)).toBe(100);
    expect(resolveLimit("", 100)).toBe(100);
    expect(resolveLimit("abc", 100)).toBe(100);
    expect(resolveLimit("0", 100)).toBe(100);
    expect(resolveLimit("5000", 100)).toBe(1000);
    expect(resolveLimit("-7", 100)).toBe(1);
    expect(resolveLimit("12.9", 100)).toBe(12);
    expect(resolveLimit(" 200 ", 100)).toBe(200);
    expect(resolveLimit("Infinity", 100)).toBe(100);
  });

  it("makes some pages shorter than limit while more remain, never empty, never past the end", () => {
    const ws = createWorkspace({ seed: "short", users: 10 });
    let short = 0;
    for (let start = 0; start < 2000; start += 37) {
      const size = pageSize(ws, 1, start, 50, 100_000);
      expect(size).toBeGreaterThanOrEqual(1);
      expect(size).toBeLessThanOrEqual(50);
      if (size < 50) short++;
    }
    expect(short).toBeGreaterThan(0);
    expect(pageSize(ws, 1, 99_990, 50, 100_000)).toBe(10);
    expect(pageSize(ws, 1, 100_000, 50, 100_000)).toBe(0);
  });
});
