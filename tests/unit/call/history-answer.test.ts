import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keptArguments } from "@/lib/call/call-history";
import { keptAnswer, maskSecrets } from "@/lib/call/history-answer";

/** Token-shaped strings made at run time: nothing secret-looking is committed. */
const token = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;

describe("what the history keeps of an answer", () => {
  it("masks every token-shaped string and secret member, keeping the JSON valid", () => {
    const access = token("xoxe.xoxp-1-");
    const refresh = token("xoxe-1-");
    const secret = randomBytes(16).toString("hex");
    const text = JSON.stringify({
      ok: true,
      access_token: access,
      refresh_token: refresh,
      nested: { note: `use ${token("xoxb-")} here` },
      client_secret: secret,
    });
    const masked = maskSecrets(text);
    expect(masked).not.toContain(access);
    expect(masked).not.toContain(refresh);
    expect(masked).not.toContain(secret);
    expect(masked).not.toMatch(/xox[a-z]-[A-Za-z0-9]{8,}/);
    expect(JSON.parse(masked)).toMatchObject({ ok: true, access_token: `xoxe.xoxp-…${access.slice(-4)}` });
  });

  it("keeps an answer of up to 64 KB as it came, and a longer one cut to its first members, valid JSON, marked truncated", () => {
    const small = JSON.stringify({ ok: true, members: [{ id: "U1" }] });
    expect(keptAnswer(small, () => JSON.parse(small))).toEqual({ answer: small, answerBytes: small.length, truncated: false });

    const members = Array.from({ length: 5000 }, (_, i) => ({ id: `U${i}`, name: `ümlaut-${i}`, profile: { title: "x".repeat(40) } }));
    const big = JSON.stringify({ ok: true, members, response_metadata: { next_cursor: "abc" } });
    const kept = keptAnswer(big, () => JSON.parse(big));
    expect(kept.truncated).toBe(true);
    expect(kept.answerBytes).toBe(Buffer.byteLength(big));
    expect(Buffer.byteLength(kept.answer!)).toBeLessThanOrEqual(64 * 1024);
    // Most of the room is used.
    expect(Buffer.byteLength(kept.answer!)).toBeGreaterThan(60 * 1024);
    const value = JSON.parse(kept.answer!) as { ok: boolean; members: typeof members; response_metadata?: unknown };
    expect(value.ok).toBe(true);
    // Every member kept is whole but the last, which may itself be cut (an object keeps its first members).
    const n = value.members.length;
    expect(value.members.slice(0, n - 1)).toEqual(members.slice(0, n - 1));
    expect(value.members[n - 1]).toMatchObject({ id: `U${n - 1}` });
  });

  it("keeps nothing of an answer too long to keep that is not JSON, and says it was truncated", () => {
    const text = "<html>".repeat(20_000);
    expect(keptAnswer(text, () => JSON.parse(text))).toEqual({ answer: null, answerBytes: text.length, truncated: true });
  });
});

describe("what the history keeps of the arguments", () => {
  it("leaves out any argument holding a token-shaped value and names it with the credentials dropped", () => {
    const kept = keptArguments({ channel: "C1", text: `my token is ${token("xoxb-")}`, blocks: [{ type: "section", text: token("xapp-1-") }] }, ["token"]);
    expect(kept).toEqual({ args: { channel: "C1" }, stripped: ["blocks", "text", "token"] });
  });
});
