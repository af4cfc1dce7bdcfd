import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keptArguments } from "@/lib/call/call-history";
import { keptAnswer } from "@/lib/call/history-answer";

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
    const masked = keptAnswer(text, () => JSON.parse(text)).answer!;
    expect(masked).not.toContain(access);
    expect(masked).not.toContain(refresh);
    expect(masked).not.toContain(secret);
    expect(masked).not.toMatch(/xox[a-z]-[A-Za-z0-9]{8,}/);
    expect(JSON.parse(masked)).toMatchObject({ ok: true, access_token: `xoxe.xoxp-…${access.slice(-4)}` });
  });

  it("masks the secrets of an oauth.v2.access answer: webhook URL, id_token, odd member names, escaped tokens", () => {
    const hook = `https://hooks.slack.com/services/T${randomBytes(4).toString("hex")}/B${randomBytes(4).toString("hex")}/${randomBytes(12).toString("hex")}`;
    const part = () => randomBytes(24).toString("base64url");
    const jwt = `eyJ${part()}.${part()}.${part()}`;
    const underscored = `xoxb_${randomBytes(12).toString("hex")}`;
    const escaped = token("xoxb-");
    const value = {
      ok: true,
      token_type: "bot",
      incoming_webhook: { channel: "#general", channel_id: "C1", url: hook },
      authed_user: { id: "U1", id_token: jwt },
      bot_token: underscored,
      team: { id: "T1", name: "Acme" },
    };
    // The access token written with a JSON escape, as a server may: `\u0078` is "x".
    const text = JSON.stringify(value).slice(0, -1) + `,"access_token":"\\u0078${escaped.slice(1)}"}`;
    expect(JSON.parse(text)).toMatchObject({ access_token: escaped });
    const kept = keptAnswer(text, () => JSON.parse(text));
    const answer = kept.answer!;
    for (const secret of [hook, hook.split("/").pop()!, jwt, underscored, escaped, escaped.slice(1)]) expect(answer).not.toContain(secret);
    expect(JSON.parse(answer)).toMatchObject({
      ok: true,
      token_type: "bot",
      incoming_webhook: { channel: "#general", url: `hooks.slack.com/…${hook.slice(-4)}` },
      authed_user: { id: "U1" },
      team: { id: "T1", name: "Acme" },
      access_token: `xoxb-…${escaped.slice(-4)}`,
    });
    expect(kept.truncated).toBe(false);
  });

  it("masks secrets in an answer too long to keep whole, before cutting it", () => {
    const hook = `https://hooks.example.test/services/T1/B1/${randomBytes(12).toString("hex")}`;
    const members = Array.from({ length: 3000 }, (_, i) => ({ id: `U${i}`, bot_token: `tok${i}${randomBytes(8).toString("hex")}`, hook }));
    const text = JSON.stringify({ ok: true, members });
    const answer = keptAnswer(text, () => JSON.parse(text)).answer!;
    expect(answer).not.toContain(hook);
    expect(answer).not.toContain(members[0]!.bot_token);
    expect((JSON.parse(answer) as { members: unknown[] }).members.length).toBeGreaterThan(10);
  });

  it("masks what a secret-free answer's text does not show: a secret member, an escaped slash in a webhook URL, an escaped token", () => {
    // Answers without a secret are kept without walking them; each of these has one the text alone hides from a plain search.
    const secret = randomBytes(16).toString("hex");
    const named = JSON.stringify({ ok: true, team: { id: "T1" }, signing_secret: secret });
    expect(keptAnswer(named, () => JSON.parse(named)).answer).not.toContain(secret);
    const hookSecret = randomBytes(12).toString("hex");
    const slashes = JSON.stringify({ ok: true, channel: { url: `https://hooks.example.test/services/T1/B1/${hookSecret}` } }).replaceAll("/", "\\/");
    expect(JSON.parse(slashes)).toMatchObject({ channel: { url: expect.stringContaining(hookSecret) } });
    expect(keptAnswer(slashes, () => JSON.parse(slashes)).answer).not.toContain(hookSecret);
    const bot = token("xoxb-");
    const escaped = `{"ok":true,"profile":{"status_text":"\\u0078${bot.slice(1)}"}}`;
    expect(JSON.parse(escaped)).toMatchObject({ profile: { status_text: bot } });
    expect(keptAnswer(escaped, () => JSON.parse(escaped)).answer).not.toContain(bot.slice(4));
  });

  it("keeps a secret-free answer as it came: a users.list page of real size, cut to 64 KB, the same as masking it would have", () => {
    const members = Array.from({ length: 100 }, (_, i) => ({
      id: `U${i}`,
      name: `member-${i}`,
      real_name: `Member ${i}`,
      profile: { title: "Engineer", image_72: `https://avatars.example.test/U${i}.png`, status_text: "x".repeat(700) },
      is_bot: false,
    }));
    const text = JSON.stringify({ ok: true, members, response_metadata: { next_cursor: "dXNlcjpVMTAw" } });
    expect(Buffer.byteLength(text)).toBeGreaterThan(64 * 1024);
    const kept = keptAnswer(text, () => JSON.parse(text));
    expect(kept.truncated).toBe(true);
    const value = JSON.parse(kept.answer!) as { members: typeof members };
    expect(value.members.slice(0, -1)).toEqual(members.slice(0, value.members.length - 1));
    // The same as the walk over every string keeps: a member named like a secret, past the cut, makes the walk happen.
    const walked = `${text.slice(0, -1)},"token_type":"bot"}`;
    expect(kept.answer).toBe(keptAnswer(walked, () => JSON.parse(walked)).answer);
  });

  it("masks a token in an answer that is not JSON, kept as text", () => {
    const secret = token("xoxp-");
    expect(keptAnswer(`error: ${secret}`, () => JSON.parse("x")).answer).toBe(`error: xoxp-…${secret.slice(-4)}`);
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
