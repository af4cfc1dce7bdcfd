import { describe, expect, it } from "vitest";
import { createEmulator } from "@/lib/emulator";
import { encodeCursor } from "@/lib/emulator/pagination/cursor";
import { CONVERSATIONS_LIST_DEFAULT_LIMIT } from "@/lib/emulator/web-api/methods/conversations";
import { USERS_LIST_DEFAULT_LIMIT } from "@/lib/emulator/web-api/methods/users";
import { MAX_LIMIT } from "@/lib/emulator/pagination/pagination";
import { BASE, callApi, install, startEmulator, walk, type Json } from "./support";

const nextCursor = (page: Json) => (page.response_metadata as { next_cursor: string }).next_cursor;

describe("users.list pagination", () => {
  it.each([1, 7, 100, 200, 1000, undefined])("walking with limit %s yields every member exactly once", async (limit) => {
    const { emulator } = startEmulator({ users: limit === 1 ? 120 : 2500 });
    const { botToken } = await install(emulator);
    const { pages, items } = await walk(emulator, "users.list", botToken, limit === undefined ? {} : { limit });
    const ids = items.map((m) => m.id);
    const expected = emulator.state.workspace.userCount + emulator.state.workspace.bots.length;
    expect(ids.length).toBe(expected);
    expect(new Set(ids).size).toBe(expected);
    expect(nextCursor(pages.at(-1)!)).toBe("");
    for (const page of pages) {
      expect(typeof page.cache_ts).toBe("number");
      expect((page.members as unknown[]).length).toBeLessThanOrEqual(limit ?? USERS_LIST_DEFAULT_LIMIT);
    }
  });

  it("returns some short pages while more remain, so a client that stops on one misses members", async () => {
    const { emulator } = startEmulator({ users: 3000 });
    const { botToken } = await install(emulator);
    const { pages, items } = await walk(emulator, "users.list", botToken, { limit: 100 });
    const shortWithMore = pages.filter((p) => (p.members as unknown[]).length < 100 && nextCursor(p) !== "");
    expect(shortWithMore.length).toBeGreaterThan(0);
    const firstShort = pages.findIndex((p) => (p.members as unknown[]).length < 100);
    const seenByNaiveClient = pages.slice(0, firstShort + 1).reduce((n, p) => n + (p.members as unknown[]).length, 0);
    expect(seenByNaiveClient).toBeLessThan(items.length);
  });

  it("gives the same pages on every run for the same seed", async () => {
    const a = startEmulator();
    const b = startEmulator();
    const tokenA = (await install(a.emulator)).botToken;
    const tokenB = (await install(b.emulator)).botToken;
    const sizesA = (await walk(a.emulator, "users.list", tokenA, { limit: 50 })).pages.map((p) => (p.members as unknown[]).length);
    const sizesB = (await walk(b.emulator, "users.list", tokenB, { limit: 50 })).pages.map((p) => (p.members as unknown[]).length);
    expect(sizesA).toEqual(sizesB);
  });

  it("silently adjusts limit into 1..1000", async () => {
    const { emulator } = startEmulator({ users: 2500 });
    const { botToken } = await install(emulator);
    const count = async (limit: string) => {
      const page = await callApi(emulator, "users.list", { limit }, botToken);
      expect(page.ok).toBe(true);
      return (page.members as unknown[]).length;
    };
    expect(await count("-5")).toBe(1);
    expect(await count("1")).toBe(1);
    expect(await count("5000")).toBe(await count(String(MAX_LIMIT)));
    expect(await count("5000")).toBeLessThanOrEqual(MAX_LIMIT);
    expect(await count("abc")).toBe(await count(String(USERS_LIST_DEFAULT_LIMIT)));
    expect(await count("0")).toBe(await count(String(USERS_LIST_DEFAULT_LIMIT)));
    expect(await count("")).toBe(await count(String(USERS_LIST_DEFAULT_LIMIT)));
  });

  it("accepts the cursor URL-encoded in a query string and in a form body (users.list reads no JSON body)", async () => {
    const { emulator } = startEmulator();
    const { botToken } = await install(emulator);
    const first = await callApi(emulator, "users.list", { limit: 10 }, botToken);
    const cursor = nextCursor(first);
    expect(cursor).toMatch(/=$/);
    const viaForm = await callApi(emulator, "users.list", { limit: 10, cursor }, botToken);
    const viaQuery = (await (
      await emulator.fetch(
        new Request(`${BASE}/api/users.list?limit=10&cursor=${encodeURIComponent(cursor)}`, { headers: { authorization: `Bearer ${botToken}` } }),
      )
    ).json()) as Json;
    expect(viaForm.ok).toBe(true);
    expect(viaQuery.members).toEqual(viaForm.members);
    expect((viaForm.members as Array<{ id: string }>)[0]!.id).not.toBe((first.members as Array<{ id: string }>)[0]!.id);
  });

  it("answers invalid_cursor for gibberish, wrong encodings, tampering, other methods, other emulators and old cursors", async () => {
    const { emulator, clock } = startEmulator();
    const { botToken } = await install(emulator);
    const cursor = nextCursor(await callApi(emulator, "users.list", { limit: 10 }, botToken));
    const channelCursor = nextCursor(await callApi(emulator, "conversations.list", { limit: 5 }, botToken));
    const tamperedBytes = Buffer.from(cursor, "base64");
    tamperedBytes[6] = (tamperedBytes[6] as number) ^ 0x04;
    const other = createEmulator({ seed: "workspace-tests", users: 500 });
    const foreign = encodeCursor(
      other.state.workspace.cursorSecret,
      { method: "users.list", teamId: emulator.state.workspace.team.id, kind: "user" },
      "U01WWACT9",
      clock.now(),
    );

    const bad = {
      gibberish: "not a cursor at all",
      platformExample: "dXNlcjpVMDYxTkZUVDI=",
      doubleEncoded: cursor.replace(/=$/, "%3D"),
      base64url: cursor.replace(/\+/g, "-").replace(/\//g, "_").replace(/=$/, ""),
      truncated: cursor.slice(0, 12),
      tampered: tamperedBytes.toString("base64"),
      otherMethod: channelCursor,
      otherEmulator: foreign,
    };
    for (const [name, value] of Object.entries(bad)) {
      const page = await callApi(emulator, "users.list", { limit: 10, cursor: value }, botToken);
      expect({ name, ...page }).toEqual({ name, ok: false, error: "invalid_cursor" });
    }
    const crossMethod = await callApi(emulator, "conversations.list", { cursor }, botToken);
    expect(crossMethod).toEqual({ ok: false, error: "invalid_cursor" });

    expect((await callApi(emulator, "users.list", { limit: 10, cursor }, botToken)).ok).toBe(true);
    clock.advance(900_000);
    expect(await callApi(emulator, "users.list", { limit: 10, cursor }, botToken)).toEqual({ ok: false, error: "invalid_cursor" });
  });

  it("expires cursors after cursorTtlSeconds", async () => {
    const { emulator, clock } = startEmulator({ cursorTtlSeconds: 60 });
    const { botToken } = await install(emulator);
    const cursor = nextCursor(await callApi(emulator, "users.list", { limit: 10 }, botToken));
    clock.advance(59_000);
    expect((await callApi(emulator, "users.list", { cursor }, botToken)).ok).toBe(true);
    clock.advance(1_000);
    expect((await callApi(emulator, "users.list", { cursor }, botToken)).error).toBe("invalid_cursor");
  });

  it("needs users:read, and says which scope was needed and which were provided", async () => {
    const { emulator } = startEmulator();
    const { botToken } = await install(emulator, { botScopes: ["chat:write", "channels:read"] });
    expect(await callApi(emulator, "users.list", {}, botToken)).toMatchObject({
      ok: false,
      error: "missing_scope",
      needed: "users:read",
      provided: "chat:write,channels:read",
    });
  });

  it("lists the bot users of installed apps after the people", async () => {
    const { emulator } = startEmulator({ users: 40 });
    const { botToken, botUserId } = await install(emulator);
    const { items } = await walk(emulator, "users.list", botToken, { limit: 1000 });
    expect(items.at(-1)).toMatchObject({ id: botUserId, is_bot: true });
  });
});

describe("conversations.list", () => {
  it("walks every channel once, with is_member for the calling bot", async () => {
    const { emulator } = startEmulator();
    const { botToken } = await install(emulator);
    const general = emulator.state.workspace.channels.find((c) => c.isGeneral)!;
    expect((await callApi(emulator, "conversations.join", { channel: general.id }, botToken)).ok).toBe(true);
    const { items } = await walk(emulator, "conversations.list", botToken, { limit: 4 }, "channels");
    const channels = items as unknown as Array<Record<string, unknown>>;
    expect(channels.map((c) => c.id)).toEqual(emulator.state.workspace.channels.map((c) => c.id));
    expect(channels.filter((c) => c.is_member).map((c) => c.name)).toEqual(["general"]);
    expect(channels.filter((c) => c.is_general).map((c) => c.name)).toEqual(["general"]);
    expect(channels.some((c) => c.is_archived)).toBe(true);
    for (const c of channels) {
      expect(c).toMatchObject({ is_channel: true, is_private: false });
      expect(typeof c.created).toBe("number");
      expect(typeof c.num_members).toBe("number");
      expect(c.topic).toHaveProperty("value");
      expect(c.purpose).toHaveProperty("value");
    }
  });

  it("leaves archived channels out with exclude_archived, and refuses types the token may not read", async () => {
    const { emulator } = startEmulator();
    const { botToken } = await install(emulator);
    const { items } = await walk(emulator, "conversations.list", botToken, { limit: 1000, exclude_archived: "true" }, "channels");
    const names = (items as unknown as Array<{ name: string; is_archived: boolean }>).map((c) => c.is_archived);
    expect(names).not.toContain(true);
    expect(names.length).toBe(emulator.state.workspace.channels.filter((c) => !c.isArchived).length);
    // The default app has channels:read only: private channels and ims take groups:read and im:read.
    const privateOnly = await callApi(emulator, "conversations.list", { types: "private_channel,im" }, botToken);
    expect(privateOnly).toMatchObject({ ok: false, error: "missing_scope", needed: "groups:read" });
    expect(await callApi(emulator, "conversations.list", { types: "nonsense" }, botToken)).toEqual({ ok: false, error: "invalid_types" });
  });

  it("pages at most 100 channels without a limit", async () => {
    const { emulator } = startEmulator();
    const { botToken } = await install(emulator);
    const page = await callApi(emulator, "conversations.list", {}, botToken);
    expect((page.channels as unknown[]).length).toBeLessThanOrEqual(CONVERSATIONS_LIST_DEFAULT_LIMIT);
    expect((page.channels as unknown[]).length).toBe(Math.min(CONVERSATIONS_LIST_DEFAULT_LIMIT, emulator.state.workspace.channels.length));
  });
});
