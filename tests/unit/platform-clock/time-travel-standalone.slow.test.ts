import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callGet } from "@/app/api/call/[method]/route";
import { POST as clockRoute } from "@/app/api/platform-clock/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { defaultAppCredentials } from "@/lib/emulator";
import { emulatorState, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

/**
 * Time travel against a standalone emulator set as the platform through PLATFORM_BASE_URL: the console
 * does not know from its configuration that the upstream is an emulator, and asks it
 * (GET {base}/.well-known/emulator). Its clock is read from the emulator's answers over HTTP.
 */
let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
  const app = defaultAppCredentials("session-tests", "rotation");
  Object.assign(process.env, { PLATFORM_BASE_URL: `${testConsole.origin}/emulator`, CLIENT_ID: app.clientId, CLIENT_SECRET: app.clientSecret });
});
afterAll(() => testConsole.close());

interface TokenView {
  masked: string;
  expiresAt: number | null;
}
interface Session {
  serverTime: number;
  upstream: { kind: string };
  platformClock: { emulator: boolean; offsetS?: number };
  installations: {
    id: string;
    bot: TokenView;
    user: TokenView;
    timeline: { type: string; token?: string; noticed?: string; reason?: string; by?: string }[];
  }[];
}

const HOUR_S = 3600;
const readSession = async (browser: TestBrowser) => (await (await browser.send(sessionRoute, "/api/session")).json()) as Session;
const grants = async () => (await emulatorState(testConsole.origin)).installations.reduce((sum, i) => sum + i.refresh_grants, 0);
const emulatorOffsetS = async () =>
  ((await (await fetch(`${testConsole.origin}/emulator/.well-known/emulator`)).json()) as { clock: { offset_s: number } }).clock.offset_s;

describe("time travel with a standalone emulator as PLATFORM_BASE_URL", () => {
  it("moves the clock 12.5 h: every token shows expired by the platform's time without a call, and the next call refreshes once", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect((await installIn(browser)).status).toBe(303);
    const before = await readSession(browser);
    expect(before.upstream.kind).toBe("platform");
    expect(before.platformClock).toEqual({ emulator: true, offsetS: 0, maxOffsetS: 315_360_000 });
    expect(Math.abs(before.serverTime - Date.now())).toBeLessThan(2000);
    const [installation] = before.installations;
    expect(installation!.bot.expiresAt! - before.serverTime).toBeGreaterThan(11.9 * HOUR_S * 1000);

    const moved = await browser.send(clockRoute, "/api/platform-clock", { method: "POST", json: { advance_s: 12.5 * HOUR_S } });
    expect(moved.status).toBe(200);
    const answer = (await moved.json()) as {
      movedS: number;
      from: number;
      to: number;
      expired: { token: string; masked: string }[];
      stale: string[];
      session: Session;
    };
    expect(answer.movedS).toBe(45_000);
    expect(answer.to - answer.from).toBeGreaterThan(45_000_000 - 2000);
    expect(answer.expired.map((t) => [t.token, t.masked])).toEqual([
      ["bot", installation!.bot.masked],
      ["user", installation!.user.masked],
    ]);
    expect(answer.stale.join(" ")).toMatch(/authorization codes.*pagination cursors.*refresh tokens already used/);
    expect(await emulatorOffsetS()).toBe(45_000);

    // The session says the platform's time: both tokens are past their expiry, noticed by the clock; nothing was refreshed.
    const after = await readSession(browser);
    expect(after.serverTime - Date.now()).toBeGreaterThan(45_000_000 - 2000);
    const view = after.installations[0]!;
    for (const token of [view.bot, view.user]) expect(token.expiresAt!).toBeLessThanOrEqual(after.serverTime);
    expect(view.timeline.filter((e) => e.type === "expired").map((e) => [e.token, e.noticed, e.by])).toEqual([
      ["user", "clock", "clock moved +12 h 30 min"],
      ["bot", "clock", "clock moved +12 h 30 min"],
    ]);
    expect(await grants()).toBe(0);

    // The next call refreshes the bot token once, before it is used: the platform never answers token_expired.
    const call = await browser.send(callGet, `/api/call/auth.test?installation=${view.id}&token=bot`, { params: { method: "auth.test" } });
    expect(call.status).toBe(200);
    expect(call.headers.get("x-token-refreshed")).toBe("1");
    expect(await grants()).toBe(1);
    const refreshed = (await readSession(browser)).installations[0]!;
    expect(refreshed.timeline.filter((e) => e.type === "refreshed").map((e) => [e.token, e.reason])).toEqual([["bot", "on_expiry"]]);
    expect(refreshed.bot.expiresAt! - answer.to).toBeGreaterThan(11.9 * HOUR_S * 1000);
  });

  it("refuses a move backward, of nothing, or past ten years ahead with a clear 400, and moves nothing", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const offset = await emulatorOffsetS();
    for (const json of [{ advance_s: 1e20 }, { advance_s: -5 }, { advance_s: 0 }, { to: Date.now() - HOUR_S * 1000 }, { advance_s: 11 * 365 * 24 * HOUR_S }]) {
      const refused = await browser.send(clockRoute, "/api/platform-clock", { method: "POST", json });
      expect(refused.status, JSON.stringify(json)).toBe(400);
      const body = (await refused.json()) as { error: string; message: string };
      expect(body.error).toBe("invalid_clock_move");
      expect(body.message).toMatch(/forward|ten years/);
    }
    expect((await browser.send(clockRoute, "/api/platform-clock", { method: "POST", json: { advance_s: "3600" } })).status).toBe(422);
    expect(await emulatorOffsetS()).toBe(offset);
  });

  it("refuses a move another site starts", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const offset = await emulatorOffsetS();
    const refused = await browser.send(clockRoute, "/api/platform-clock", {
      method: "POST",
      json: { advance_s: 3600 },
      headers: { origin: "https://evil.example" },
    });
    expect(refused.status).toBe(403);
    expect(await emulatorOffsetS()).toBe(offset);
  });
});
