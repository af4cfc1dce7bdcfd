import { describe, expect, it } from "vitest";
import { deepFreeze } from "@/lib/store/deep-freeze";
import { tokenAnswer } from "@/lib/token-api/token-for";
import { botAnswerJson } from "@/lib/token-api/warm-body";

const HOUR = 3_600_000;
const at = Date.UTC(2026, 10, 29, 12, 0, 0, 250);

const recordWith = (value: string, extra: Record<string, unknown> = {}) =>
  deepFreeze({
    id: "T0AAA-A0APP",
    team: { id: "T0AAA", name: 'Quotes "and" \\ backslashes, "expires_at": here' },
    botUserId: "U0BOT",
    botId: "B0BOT",
    bot: { value, expiresAt: at + 12 * HOUR, scopes: ["chat:write", "channels:read"] },
    ...extra,
  });

const full = (record: ReturnType<typeof recordWith>, when: number, marginS = 3600) =>
  JSON.stringify(tokenAnswer(record, record.bot, { kind: "bot", userId: null, refreshed: false, marginS, at: when }));

describe("the warm answer's JSON (kept per token)", () => {
  it("is exactly the full path's answer serialised, second after second, whatever the token and workspace hold", () => {
    const record = recordWith('xoxe.xoxb-1-a",\\"expires_at":1');
    for (const when of [at, at + 999, at + 1_000, at + 5 * HOUR + 17]) expect(botAnswerJson(record, record.bot, 3600, when)).toBe(full(record, when));
    // A platform clock gone back: the expiry is still capped at the platform's lifetime from now.
    expect(botAnswerJson(record, record.bot, 3600, at - 24 * HOUR)).toBe(full(record, at - 24 * HOUR));
    // A long-lived token: null expiry.
    const lasting = deepFreeze({ ...recordWith("xoxb-lasting"), bot: { value: "xoxb-lasting", scopes: ["chat:write"] } });
    expect(JSON.parse(botAnswerJson(lasting, lasting.bot, 3600, at))).toMatchObject({ expires_at: null, expires_in: null });
    expect(botAnswerJson(lasting, lasting.bot, 3600, at)).toBe(
      JSON.stringify(tokenAnswer(lasting, lasting.bot, { kind: "bot", userId: null, refreshed: false, marginS: 3600, at })),
    );
  });

  it("answers a refreshed token and a changed record at once (each is a new frozen object), and the margin as configured", () => {
    const before = recordWith("xoxb-before");
    expect(JSON.parse(botAnswerJson(before, before.bot, 3600, at)).access_token).toBe("xoxb-before");
    const refreshed = recordWith("xoxb-after");
    expect(botAnswerJson(refreshed, refreshed.bot, 3600, at)).toBe(full(refreshed, at));
    // The same token object in a record that learned its bot's id: the record's new fields are answered.
    const relearned = deepFreeze({ ...refreshed, botId: "B0NEW" });
    expect(JSON.parse(botAnswerJson(relearned, refreshed.bot, 3600, at)).bot_id).toBe("B0NEW");
    expect(JSON.parse(botAnswerJson(relearned, refreshed.bot, 7200, at)).margin_s).toBe(7200);
  });

  it("keeps nothing for a record that could change under it (not frozen)", () => {
    const bot = { value: "xoxb-mutable", expiresAt: at + 12 * HOUR, scopes: ["chat:write"] };
    const record = { id: "T0AAA-A0APP", team: { id: "T0AAA", name: "Acme" }, bot };
    expect(JSON.parse(botAnswerJson(record, bot, 3600, at)).access_token).toBe("xoxb-mutable");
    bot.value = "xoxb-changed";
    expect(JSON.parse(botAnswerJson(record, bot, 3600, at)).access_token).toBe("xoxb-changed");
  });
});
