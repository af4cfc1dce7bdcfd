/**
 * Rate limits as the platform documents them (https://docs.slack.dev/apis/web-api/rate-limits): each method
 * its tier, per method, per workspace and per app; chat.postMessage about one message a second per channel
 * with short bursts; and the optional non-Marketplace profile for conversations.history and
 * conversations.replies. Time moves with the emulator's fake clock, never by waiting.
 */
import { describe, expect, it } from "vitest";
import { METHODS } from "@/lib/emulator/web-api/methods";
import { CHANNEL_BURST, NON_MARKETPLACE_PAGE_LIMIT, TIER_LIMITS_PER_MINUTE } from "@/lib/emulator/web-api/rate-limit";
import { METHOD_CATALOG } from "@/lib/explorer/catalog/methods.generated";
import type { EmulatorOptions } from "@/lib/emulator";
import { createHarness, type AdminApp, type Harness } from "./support/emulator-harness";

const SCOPES = ["channels:history", "channels:join", "channels:read", "chat:write", "users:read"];

async function setUp(options: EmulatorOptions = {}) {
  const h = createHarness({ rateLimits: true, ...options });
  const { rotation, legacy } = await h.apps();
  const grant = await h.install(rotation, { scope: SCOPES });
  const token = grant.access_token as string;
  const [random, general] = ["random", "general"].map((name) => h.emulator.state.workspace.channels.find((c) => c.name === name)!.id) as [string, string];
  for (const channel of [random, general]) expect((await h.call("conversations.join", { channel }, { token })).body.ok).toBe(true);
  return { h, rotation, legacy, token, random, general };
}

/** Calls `method` until it is refused; returns how many calls went through (at most `max`). */
async function callsAllowed(h: Harness, method: string, params: Record<string, string>, token: string, max = 700): Promise<number> {
  for (let i = 0; i < max; i++) {
    const { status } = await h.call(method, params, { token });
    if (status === 429) return i;
    expect(status).toBe(200);
  }
  return max;
}

async function installInto(h: Harness, app: AdminApp, teamId: string) {
  const url = new URL(h.authorizeUrl(app, { scope: SCOPES }));
  url.searchParams.set("team", teamId);
  const decided = await h.decide(url.toString(), "allow");
  const code = new URL(decided.headers.get("location") ?? "").searchParams.get("code") ?? "";
  return (await h.call("oauth.v2.access", { code, client_id: app.client_id, client_secret: app.client_secret })).body;
}

describe("each method's documented tier", () => {
  it("is the one the catalog gives, for every method the emulator answers", () => {
    const catalog = new Map(METHOD_CATALOG.map((m) => [m.name, m.rateTier]));
    for (const definition of METHODS.values()) expect(definition.tier, definition.name).toBe(catalog.get(definition.name));
    expect(METHODS.get("chat.postMessage")?.tier).toBe("special");
  });

  it("allows per minute the calls the platform publishes for the tier: 1, 20, 50, 100", () => {
    expect(TIER_LIMITS_PER_MINUTE).toMatchObject({ "1": 1, "2": 20, "3": 50, "4": 100 });
  });

  it("limits conversations.list (tier 2) to 20 calls a minute and conversations.members (tier 4) to 100", async () => {
    const { h, token, random } = await setUp();
    expect(await callsAllowed(h, "conversations.list", { limit: "1" }, token)).toBe(20);
    expect(await callsAllowed(h, "conversations.members", { channel: random, limit: "1" }, token)).toBe(100);
    const limited = await h.call("conversations.members", { channel: random }, { token });
    expect(limited).toMatchObject({ status: 429, body: { ok: false, error: "ratelimited" } });
    expect(limited.headers.get("retry-after")).toBe("60");
  });

  it("counts per method: one method used up leaves another's budget whole", async () => {
    const { h, token, random } = await setUp();
    expect(await callsAllowed(h, "conversations.list", { limit: "1" }, token)).toBe(20);
    // conversations.info is tier 3, with its own 50.
    expect(await callsAllowed(h, "conversations.info", { channel: random }, token)).toBe(50);
  });

  it("counts per workspace: the same app in another workspace has its own budget", async () => {
    const { h, rotation, token } = await setUp({ workspaces: 2 });
    const [, second] = h.emulator.state.workspaces.keys();
    const elsewhere = (await installInto(h, rotation, second!)).access_token as string;
    expect(await callsAllowed(h, "users.list", { limit: "1" }, token)).toBe(20);
    expect(await callsAllowed(h, "users.list", { limit: "1" }, elsewhere)).toBe(20);
  });

  it("counts a refresh grant in the workspace of the token it refreshes: an app refreshing in many workspaces has each one's budget", async () => {
    const { h, rotation } = await setUp({ workspaces: 2 });
    const [first, second] = h.emulator.state.workspaces.keys();
    const [here, there] = [await installInto(h, rotation, first!), await installInto(h, rotation, second!)];
    const refresh = (grant: Record<string, unknown>) =>
      h.call("oauth.v2.access", {
        grant_type: "refresh_token",
        refresh_token: grant.refresh_token as string,
        client_id: rotation.client_id,
        client_secret: rotation.client_secret,
      });
    // The first grant, then replays of it within the grace period, until the first workspace's minute is used
    // up (the installs' code exchanges counted there too).
    let allowed = 0;
    while ((await refresh(here)).status === 200) allowed++;
    expect(allowed).toBeGreaterThan(TIER_LIMITS_PER_MINUTE.special - 5);
    expect(allowed).toBeLessThanOrEqual(TIER_LIMITS_PER_MINUTE.special);
    expect(await refresh(here)).toMatchObject({ status: 429, body: { ok: false, error: "ratelimited" } });
    // The same app's refresh in the second workspace has that workspace's budget.
    expect(await refresh(there)).toMatchObject({ status: 200, body: { ok: true } });
  });

  it("counts per app: another app in the same workspace has its own budget", async () => {
    const { h, legacy, token } = await setUp();
    const other = (await h.install(legacy, { scope: SCOPES })).access_token as string;
    expect(await callsAllowed(h, "users.list", { limit: "1" }, token)).toBe(20);
    expect(await callsAllowed(h, "users.list", { limit: "1" }, other)).toBe(20);
  });
});

describe("chat.postMessage", () => {
  it("lets a short burst through per channel, then about one message a second, with an honest Retry-After", async () => {
    const { h, token, random } = await setUp();
    for (let i = 0; i < CHANNEL_BURST; i++) expect((await h.call("chat.postMessage", { channel: random, text: `burst ${i}` }, { token })).status).toBe(200);
    const limited = await h.call("chat.postMessage", { channel: random, text: "one too many" }, { token });
    expect(limited).toMatchObject({ status: 429, body: { ok: false, error: "ratelimited" } });
    expect(limited.headers.get("retry-after")).toBe("1");
    h.clock.advance(1000);
    expect((await h.call("chat.postMessage", { channel: random, text: "a second later" }, { token })).status).toBe(200);
    expect((await h.call("chat.postMessage", { channel: random, text: "too soon" }, { token })).status).toBe(429);
    // A steady message a second goes through for as long as it keeps that pace.
    for (let i = 0; i < 10; i++) {
      h.clock.advance(1000);
      expect((await h.call("chat.postMessage", { channel: random, text: `steady ${i}` }, { token })).status).toBe(200);
    }
    // A refused message is not posted.
    const texts = (await h.call("conversations.history", { channel: random, limit: "100" }, { token })).body.messages.map((m: { text: string }) => m.text);
    expect(texts).not.toContain("one too many");
    expect(texts).not.toContain("too soon");
  });

  it("counts each channel apart", async () => {
    const { h, token, random, general } = await setUp();
    for (let i = 0; i < CHANNEL_BURST; i++) await h.call("chat.postMessage", { channel: random, text: "x" }, { token });
    expect((await h.call("chat.postMessage", { channel: random, text: "x" }, { token })).status).toBe(429);
    expect((await h.call("chat.postMessage", { channel: general, text: "x" }, { token })).status).toBe(200);
  });

  it("keeps a workspace-wide limit across channels: the special tier's count per workspace and app", async () => {
    const { h, token, random } = await setUp();
    let allowed = 0;
    // One message per channel never meets a channel's rate; the calls still count for the workspace and app,
    // answered or refused by the method (channel_not_found), as every call does.
    for (let i = 0; i < TIER_LIMITS_PER_MINUTE.special + 5; i++) {
      const { status } = await h.call("chat.postMessage", { channel: i === 0 ? random : `C0SPREAD${i}`, text: "x" }, { token });
      if (status === 429) break;
      allowed++;
    }
    expect(allowed).toBe(TIER_LIMITS_PER_MINUTE.special);
    // The minute over, the workspace and app have their count back, and the channel its burst.
    h.clock.advance(60_000);
    for (let i = 0; i < CHANNEL_BURST; i++) expect((await h.call("chat.postMessage", { channel: random, text: `after ${i}` }, { token })).status).toBe(200);
  });
});

describe("the non-Marketplace profile (off by default)", () => {
  async function withMessages(options: EmulatorOptions, count = 40) {
    const setup = await setUp({ ...options, rateLimits: false });
    for (let i = 0; i < count; i++)
      expect((await setup.h.call("chat.postMessage", { channel: setup.random, text: `m${i}` }, { token: setup.token })).body.ok).toBe(true);
    const parent = (await setup.h.call("chat.postMessage", { channel: setup.random, text: "thread" }, { token: setup.token })).body.ts as string;
    for (let i = 0; i < 20; i++) await setup.h.call("chat.postMessage", { channel: setup.random, text: `r${i}`, thread_ts: parent }, { token: setup.token });
    await setup.h.admin("rate-limits", { enabled: true });
    return { ...setup, parent };
  }

  it("is off by default: conversations.history pages as asked, at tier 3", async () => {
    const { h, token, random } = await withMessages({});
    const { body } = await h.call("conversations.history", { channel: random, limit: "30" }, { token });
    expect(body.messages.length).toBeGreaterThan(NON_MARKETPLACE_PAGE_LIMIT);
    expect((await h.call("conversations.history", { channel: random }, { token })).status).toBe(200);
    expect((await h.admin("state")).body.rate_limits).toEqual({ enabled: true, non_marketplace: false });
  });

  it("when on, allows conversations.history and conversations.replies one call a minute each, per workspace and app", async () => {
    const { h, token, random, parent } = await withMessages({ nonMarketplaceRateLimits: true });
    expect((await h.call("conversations.history", { channel: random }, { token })).status).toBe(200);
    const limited = await h.call("conversations.history", { channel: random }, { token });
    expect(limited).toMatchObject({ status: 429, body: { ok: false, error: "ratelimited" } });
    expect(limited.headers.get("retry-after")).toBe("60");
    // Each method has its own minute; other methods keep their tiers.
    expect((await h.call("conversations.replies", { channel: random, ts: parent }, { token })).status).toBe(200);
    expect((await h.call("conversations.replies", { channel: random, ts: parent }, { token })).status).toBe(429);
    expect((await h.call("conversations.info", { channel: random }, { token })).status).toBe(200);
    h.clock.advance(60_000);
    expect((await h.call("conversations.history", { channel: random }, { token })).status).toBe(200);
  });

  it("when on, pages at most 15 objects, which is also the default", async () => {
    const { h, token, random, parent } = await withMessages({ nonMarketplaceRateLimits: true });
    await h.admin("rate-limits", { enabled: false });
    const asked = await h.call("conversations.history", { channel: random, limit: "100" }, { token });
    expect(asked.body.messages).toHaveLength(NON_MARKETPLACE_PAGE_LIMIT);
    expect(asked.body.has_more).toBe(true);
    expect(asked.body.response_metadata.next_cursor).not.toBe("");
    const byDefault = await h.call("conversations.history", { channel: random }, { token });
    expect(byDefault.body.messages.length).toBeLessThanOrEqual(NON_MARKETPLACE_PAGE_LIMIT);
    expect(byDefault.body.has_more).toBe(true);
    const fewer = await h.call("conversations.history", { channel: random, limit: "5" }, { token });
    expect(fewer.body.messages.length).toBeLessThanOrEqual(5);
    const thread = await h.call("conversations.replies", { channel: random, ts: parent, limit: "1000" }, { token });
    expect(thread.body.messages.length).toBeLessThanOrEqual(NON_MARKETPLACE_PAGE_LIMIT);
    expect(thread.body.has_more).toBe(true);
  });

  it("switches with POST /admin/rate-limits, and rate limits off still refuse nothing", async () => {
    const { h, token, random } = await withMessages({});
    expect((await h.admin("rate-limits", { enabled: true, non_marketplace: true })).body).toEqual({
      ok: true,
      rate_limits: { enabled: true, non_marketplace: true },
    });
    expect((await h.call("conversations.history", { channel: random }, { token })).status).toBe(200);
    expect((await h.call("conversations.history", { channel: random }, { token })).status).toBe(429);
    // Turning rate limits off keeps the profile (so pages stay small) but refuses nothing.
    expect((await h.admin("rate-limits", { enabled: false })).body).toEqual({ ok: true, rate_limits: { enabled: false, non_marketplace: true } });
    for (let i = 0; i < 5; i++) {
      const { status, body } = await h.call("conversations.history", { channel: random, limit: "50" }, { token });
      expect(status).toBe(200);
      expect(body.messages).toHaveLength(NON_MARKETPLACE_PAGE_LIMIT);
    }
    await h.admin("rate-limits", { enabled: true, non_marketplace: false });
    expect((await h.call("conversations.history", { channel: random, limit: "50" }, { token })).body.messages.length).toBeGreaterThan(
      NON_MARKETPLACE_PAGE_LIMIT,
    );
  });
});
