/**
 * The explorer history's part of the store (lib/store/history.ts), one suite run on PGlite
 * (history-pglite.slow.test.ts) and a real PostgreSQL 15 (history-postgres.slow.test.ts): bounds, filters,
 * keyset pages, and one person's history apart from another's.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type Backend } from "@/lib/store/backend";
import type { NewHistoryEntry, Store } from "@/lib/store";
import { storeOn } from "@/lib/store/store";
import { testKeys, type ContractBackend } from "./contract";

const DAY = 24 * 60 * 60 * 1000;
const person = () => `T1:U${randomBytes(4).toString("hex")}`;

function entry(patch: Partial<NewHistoryEntry> = {}): NewHistoryEntry {
  return {
    at: 1_800_000_000_000,
    kind: "call",
    method: "users.list",
    installationId: "T1-A1",
    tokenKind: "bot",
    httpMethod: "GET",
    encoding: "form",
    args: { limit: "2" },
    stripped: [],
    outcome: "ok",
    status: 200,
    durationMs: 12,
    summary: "ok · 2 members · more pages",
    count: 2,
    pages: null,
    answer: '{"ok":true,"members":[{"id":"U1"},{"id":"U2"}]}',
    answerBytes: 48,
    truncated: false,
    savedRequestId: null,
    ...patch,
  };
}

export function historyContract(name: string, backendFor: () => ContractBackend) {
  describe(`the explorer's history in the store, on ${name}`, () => {
    let backend: Backend;
    let store: Store;

    beforeAll(async () => {
      backend = await backendFor().openBackend();
      store = await storeOn(backend, testKeys("current"));
    }, 120_000);
    afterAll(async () => {
      await store?.close();
    });

    const count = async (owner: string | null) =>
      (
        await rowsOf<{ n: number }>(
          backend.db,
          owner === null
            ? sql`select count(*)::int as n from explorer_history where owner is null`
            : sql`select count(*)::int as n from explorer_history where owner = ${owner}`,
        )
      )[0]!.n;

    it("gives an entry back as it was recorded, its answer only when asked for one", async () => {
      const me = person();
      const id = await store.history.record(me, entry({ savedRequestId: "sr_1", stripped: ["token"], args: { channel: "C1", blocks: [{ type: "divider" }] } }));
      const page = await store.history.list(me);
      expect(page.next).toBeNull();
      expect(page.entries).toHaveLength(1);
      expect(page.entries[0]).toMatchObject({
        id,
        method: "users.list",
        outcome: "ok",
        savedRequestId: "sr_1",
        stripped: ["token"],
        args: { channel: "C1", blocks: [{ type: "divider" }] },
      });
      expect(page.entries[0]).not.toHaveProperty("answer");
      expect(await store.history.get(me, id)).toMatchObject({ id, answer: '{"ok":true,"members":[{"id":"U1"},{"id":"U2"}]}', truncated: false });
    });

    it("keeps the operator's history (owner null) and each person's apart: nobody reads, lists or clears another's", async () => {
      const ana = person();
      const bo = person();
      const anas = await store.history.record(ana, entry({ method: "auth.test" }));
      const bos = await store.history.record(bo, entry({ method: "team.info" }));
      const operators = await store.history.record(null, entry({ method: "emoji.list" }));
      expect((await store.history.list(ana)).entries.map((e) => e.id)).toEqual([anas]);
      expect(await store.history.get(ana, bos)).toBeNull();
      expect(await store.history.get(bo, anas)).toBeNull();
      expect(await store.history.get(ana, operators)).toBeNull();
      expect((await store.history.list(null)).entries.map((e) => e.id)).toContain(operators);
      expect(await store.history.clear(ana)).toBe(1);
      expect((await store.history.list(ana)).entries).toEqual([]);
      expect((await store.history.list(bo)).entries.map((e) => e.id)).toEqual([bos]);
      expect(await store.history.get(null, operators)).not.toBeNull();
    });

    it("keeps the newest 1,000 entries of a person, pruned on each write", async () => {
      const me = person();
      const other = person();
      await store.history.record(other, entry());
      // 1,000 written at once (as if kept over time), then five more through the store.
      await backend.db.execute(
        sql`insert into explorer_history (id, owner, at, kind, method, installation_id, token_kind, http_method, encoding, args, stripped, outcome, status, duration_ms, summary, answer_bytes, truncated)
            select 'bulk-' || ${me} || '-' || g, ${me}, ${1_800_000_000_000}::bigint + g, 'call', 'users.list', 'T1-A1', 'bot', 'GET', 'form', '{}'::jsonb, '{}'::text[], 'ok', 200, 1, 'ok', 0, false
            from generate_series(1, 1000) g`,
      );
      expect(await count(me)).toBe(1000);
      const newest: string[] = [];
      for (let i = 0; i < 5; i++) newest.push(await store.history.record(me, entry({ at: 1_800_000_010_000 + i })));
      expect(await count(me)).toBe(1000);
      const first = await store.history.list(me, { limit: 5 });
      expect(first.entries.map((e) => e.id)).toEqual(newest.reverse());
      // The five oldest went, nobody else's did.
      expect(await store.history.get(me, `bulk-${me}-5`)).toBeNull();
      expect(await store.history.get(me, `bulk-${me}-6`)).not.toBeNull();
      expect(await count(other)).toBe(1);
    });

    it("keeps the bound under concurrent writes of one person: never more than 1,000", async () => {
      const me = person();
      await backend.db.execute(
        sql`insert into explorer_history (id, owner, at, kind, method, installation_id, token_kind, http_method, encoding, args, stripped, outcome, status, duration_ms, summary, answer_bytes, truncated)
            select 'bulk-' || ${me} || '-' || g, ${me}, ${1_800_000_000_000}::bigint + g, 'call', 'users.list', 'T1-A1', 'bot', 'GET', 'form', '{}'::jsonb, '{}'::text[], 'ok', 200, 1, 'ok', 0, false
            from generate_series(1, 990) g`,
      );
      // Forty writes at once (on PostgreSQL, over the pool's connections), in three rounds.
      for (let round = 0; round < 3; round++) {
        await Promise.all(Array.from({ length: 40 }, (_, i) => store.history.record(me, entry({ at: 1_800_000_010_000 + round * 100 + i }))));
        expect(await count(me)).toBe(1000);
      }
    });

    it("forgets entries older than 30 days when it writes, even under 1,000", async () => {
      const me = person();
      const now = 1_900_000_000_000;
      const old = await store.history.record(me, entry({ at: now - 31 * DAY }));
      const recent = await store.history.record(me, entry({ at: now - 29 * DAY }));
      expect(await count(me)).toBe(2);
      const fresh = await store.history.record(me, entry({ at: now }));
      expect((await store.history.list(me)).entries.map((e) => e.id)).toEqual([fresh, recent]);
      expect(await store.history.get(me, old)).toBeNull();
    });

    it("searches by part of the method (any case, % and _ as letters), installation, outcome and saved request", async () => {
      const me = person();
      const list = await store.history.record(me, entry({ method: "conversations.list", installationId: "T1-A1" }));
      const info = await store.history.record(me, entry({ method: "conversations.info", installationId: "T2-A1", outcome: "channel_not_found" }));
      const post = await store.history.record(me, entry({ method: "chat.postMessage", outcome: "http_500", savedRequestId: "sr_post" }));
      const ids = async (q: Parameters<Store["history"]["list"]>[1]) => (await store.history.list(me, q)).entries.map((e) => e.id);
      expect(await ids({ method: "CONV" })).toEqual([info, list]);
      expect(await ids({ method: "conversations.l" })).toEqual([list]);
      expect(await ids({ method: "%" })).toEqual([]);
      expect(await ids({ method: "_" })).toEqual([]);
      expect(await ids({ installationId: "T2-A1" })).toEqual([info]);
      expect(await ids({ outcome: "ok" })).toEqual([list]);
      expect(await ids({ outcome: "error" })).toEqual([post, info]);
      expect(await ids({ outcome: "http_500" })).toEqual([post]);
      expect(await ids({ savedRequestId: "sr_post" })).toEqual([post]);
      expect(await ids({ method: "conversations", outcome: "error" })).toEqual([info]);
    });

    it("pages newest first by keyset: every entry once, the last page without a next", async () => {
      const me = person();
      const written: string[] = [];
      for (let i = 0; i < 7; i++) written.push(await store.history.record(me, entry({ at: 1_800_000_000_000 + i })));
      const seen: string[] = [];
      let before: number | undefined;
      for (;;) {
        const page = await store.history.list(me, { limit: 3, ...(before !== undefined ? { before } : {}) });
        seen.push(...page.entries.map((e) => e.id));
        if (page.next === null) break;
        before = page.next;
      }
      expect(seen).toEqual(written.reverse());
      // A page written meanwhile does not move the pages already read.
      const page1 = await store.history.list(me, { limit: 3 });
      await store.history.record(me, entry());
      const page2 = await store.history.list(me, { limit: 3, before: page1.next! });
      expect(page2.entries[0]!.id).toBe(seen[3]);
    });

    it("keeps a NUL character in an argument or answer as a replacement rather than failing the write", async () => {
      const me = person();
      const id = await store.history.record(me, entry({ args: { text: "a\u0000b" }, answer: '{"ok":true,"t":"a\u0000b"}' }));
      const kept = await store.history.get(me, id);
      expect(kept?.args).toEqual({ text: "a\uFFFDb" });
      expect(kept?.answer).toBe('{"ok":true,"t":"a\uFFFDb"}');
    });
  });
}
