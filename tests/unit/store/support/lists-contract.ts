/**
 * Issue 43: the store's lists of installations (lib/store/installation-lists.ts), one suite run on PGlite
 * (installation-lists-pglite.slow.test.ts) and a real PostgreSQL 15 (installation-lists-postgres.slow.test.ts):
 * keyset pages that stay right while installations are written, each filter and the search, the counts the
 * triggers keep (checked against a count of the rows), and a member's scope.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store, StoreInstallation } from "@/lib/store";
import { rowsOf, type Backend } from "@/lib/store/backend";
import { COUNT_CAP, type ListFilter, type ListPageRequest, type ListPosition, type ListScope } from "@/lib/store/installation-lists";
import { storeOn } from "@/lib/store/store";
import { installation, testKeys, token } from "./contract";

const HOUR = 3_600_000;
const NOW = 1_850_000_000_000;
const EVERYONE: ListScope = { kind: "everyone" };

function made(n: number, overrides: Partial<StoreInstallation> = {}): StoreInstallation {
  const teamId = overrides.team?.id ?? `T${randomBytes(4).toString("hex").toUpperCase()}`;
  return installation({
    id: `${teamId}-A0001`,
    team: { id: teamId, name: `Acme ${String(n).padStart(5, "0")}` },
    enterprise: undefined,
    incomingWebhook: undefined,
    user: undefined,
    installedAt: NOW - 100 * HOUR + n * 1_000,
    updatedAt: NOW,
    // Rotating, expiring in 5 hours.
    bot: token({ expiresAt: NOW + 5 * HOUR }),
    ...overrides,
  });
}

const legacyBot = () => token({ refreshToken: undefined, expiresAt: undefined, value: `xoxb-${randomBytes(8).toString("hex")}` });

/** `concurrent`: the backend runs transactions on several connections at once (PostgreSQL), so two can interleave. */
export function listsContract(name: string, open: () => Promise<Backend>, { concurrent = false } = {}) {
  describe(`lists of installations on ${name}`, () => {
    let backend: Backend;
    let store: Store;
    beforeAll(async () => {
      backend = await open();
      store = await storeOn(backend, testKeys("lists"));
    }, 120_000);
    afterAll(async () => {
      await store?.close();
    });

    const page = (request: Partial<ListPageRequest> = {}) =>
      store.installations.page({ scope: EVERYONE, q: "", filter: "all", limit: 50, expiringBy: NOW + HOUR, ...request });

    async function forget() {
      for (const { id } of await rowsOf<{ id: string }>(backend.db, sql`select id from installations`)) await store.installations.delete(id);
    }

    /** What the kept counts must say: a count of the rows, as the filters mean them. */
    async function countedByRows(scope = "true"): Promise<Record<string, number>> {
      const [row] = await rowsOf<Record<string, string>>(
        backend.db,
        sql.raw(`select count(*) as all,
          count(*) filter (where state = 'needs_reinstall') as needs_reinstall,
          count(*) filter (where exists (select 1 from tokens t where t.installation_id = i.id and t.refresh_token_hash is not null)) as rotating,
          count(*) filter (where exists (select 1 from tokens t where t.installation_id = i.id and t.refresh_token_hash is null and not t.revoked)) as legacy
          from installations i where ${scope}`),
      );
      return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
    }

    it("pages in install order by cursor, and a page stays right while installations come and go", async () => {
      await forget();
      const records = Array.from({ length: 10 }, (_, n) => made(n + 1));
      // Same install time for two: the id breaks the tie, and the cursor keeps it.
      records[5] = { ...records[5]!, installedAt: records[4]!.installedAt };
      for (const r of records) await store.installations.put(r);
      const order = [...records].sort((a, b) => a.installedAt - b.installedAt || (a.id < b.id ? -1 : 1)).map((r) => r.id);

      const seen: string[] = [];
      let after: ListPosition | undefined;
      let turn = 0;
      do {
        const result = await page({ limit: 3, ...(after ? { after } : {}) });
        seen.push(...result.summaries.map((s) => s.id));
        after = result.next;
        if (turn++ === 0) {
          // Written between two pages: one installed before the cursor (not seen: it is behind), one at the
          // end (seen), and one of the next page forgotten (never seen, and nothing skipped for it).
          await store.installations.put(made(0, { installedAt: NOW - 200 * HOUR }));
          await store.installations.put(made(99, { team: { id: "TLAST", name: "Acme last" }, installedAt: NOW }));
          await store.installations.delete(order[4]!);
        }
      } while (after);
      expect(seen).toEqual([...order.filter((id) => id !== order[4]), "TLAST-A0001"]);

      // Back from the last page to the first, page by page: the same installations in the same order.
      const all = await page({ limit: 100 });
      const last = await page({ limit: 1, after: (await page({ limit: all.summaries.length - 1 })).next! });
      const back: string[] = last.summaries.map((s) => s.id);
      let before: ListPosition | undefined = last.previous;
      while (before) {
        const result = await page({ limit: 4, before });
        back.unshift(...result.summaries.map((s) => s.id));
        before = result.previous;
      }
      expect(back).toEqual(all.summaries.map((s) => s.id));
    });

    it("keeps each filter's count right across installs, state changes, token changes and forgetting", async () => {
      await forget();
      const rotating = made(1);
      const legacy = made(2, { bot: legacyBot() });
      const both = made(3, { user: legacyBot() });
      const revokedLegacy = made(4, { bot: { ...legacyBot(), revoked: true } });
      for (const r of [rotating, legacy, both, revokedLegacy]) await store.installations.put(r);
      const expectKept = async (expected: Record<string, number>) => {
        const result = await page();
        const rows = await countedByRows();
        expect(rows).toEqual(expected);
        expect({
          all: result.counts.all,
          needs_reinstall: result.counts.needs_reinstall,
          rotating: result.counts.rotating,
          legacy: result.counts.legacy,
        }).toEqual(expected);
        expect(result.total).toBe(expected.all);
      };
      await expectKept({ all: 4, needs_reinstall: 0, rotating: 2, legacy: 2 });

      // Uninstalled: needs reinstalling (its tokens revoked).
      const stored = (await store.installations.get(rotating.id, { fresh: true }))!;
      await store.installations.put({ ...stored, state: "needs_reinstall", bot: { ...stored.bot!, revoked: true } }, { expectVersion: stored.version });
      await expectKept({ all: 4, needs_reinstall: 1, rotating: 2, legacy: 2 });
      // Exchanged: the long-lived token gives way to a rotating one.
      await store.installations.put({ ...legacy, bot: token() });
      await expectKept({ all: 4, needs_reinstall: 1, rotating: 3, legacy: 1 });
      // A refresh settled (tokens written without rewriting the record) moves no count.
      const intent = await store.intents.record({ installationId: both.id, kind: "bot", refreshToken: both.bot!.refreshToken!, startedAt: NOW });
      await store.intents.settle({ intentId: intent.id, settledAt: NOW, token: token({ issuedAt: NOW, expiresAt: NOW + 12 * HOUR }) });
      await expectKept({ all: 4, needs_reinstall: 1, rotating: 3, legacy: 1 });
      await store.installations.delete(both.id);
      await store.installations.delete(rotating.id);
      await expectKept({ all: 2, needs_reinstall: 0, rotating: 1, legacy: 0 });

      // Many writers at once (a pool of connections on PostgreSQL): the counters end where the rows are.
      const crowd = Array.from({ length: 24 }, (_, n) => made(100 + n, n % 3 === 0 ? { bot: legacyBot() } : {}));
      await Promise.all(crowd.map((r) => store.installations.put(r)));
      await Promise.all(crowd.filter((_, n) => n % 4 === 0).map((r) => store.installations.delete(r.id)));
      await expectKept(await countedByRows());
      expect((await page()).counts.all).toBe(2 + 24 - 6);
    });

    it("moves counts from two writers at once without a deadlock: one uninstalls a legacy installation, the other forgets another", async () => {
      await forget();
      for (let round = 0; round < 12; round++) {
        const marked = made(2 * round, { bot: legacyBot() });
        const forgotten = made(2 * round + 1, { bot: { ...legacyBot(), revoked: true }, user: legacyBot(), state: "needs_reinstall" });
        await store.installations.put(marked);
        await store.installations.put(forgotten);
        const stored = (await store.installations.get(marked.id, { fresh: true }))!;
        await Promise.all([
          store.installations.put({ ...stored, state: "needs_reinstall", bot: { ...stored.bot!, revoked: true } }, { expectVersion: stored.version }),
          store.installations.delete(forgotten.id),
        ]);
      }
      const rows = await countedByRows();
      expect(rows).toEqual({ all: 12, needs_reinstall: 12, rotating: 0, legacy: 0 });
      const { counts } = await page();
      expect({ all: counts.all, needs_reinstall: counts.needs_reinstall, rotating: counts.rotating, legacy: counts.legacy }).toEqual(rows);
    });

    if (concurrent) {
      it("lets two transactions that move counts interleave without a deadlock, and counts both", async () => {
        await forget();
        const marked = made(1, { bot: legacyBot() });
        const forgotten = made(2, { bot: { ...legacyBot(), revoked: true }, user: legacyBot(), state: "needs_reinstall" });
        await store.installations.put(marked);
        await store.installations.put(forgotten);
        let forgetting: Promise<unknown> | undefined;
        // T1 marks its installation needs_reinstall, T2 forgets the other while T1 is open, then T1 revokes its
        // token and commits: T1's counters are taken both mid-transaction and at its commit.
        await backend.db.transaction(async (tx) => {
          await tx.execute(sql`update installations set state = 'needs_reinstall' where id = ${marked.id}`);
          // Started now (a query runs when it is awaited), on another connection of the pool.
          forgetting = Promise.resolve(backend.db.execute(sql`delete from installations where id = ${forgotten.id}`));
          await new Promise((resolve) => setTimeout(resolve, 300));
          await tx.execute(sql`update tokens set revoked = true where installation_id = ${marked.id}`);
        });
        await forgetting;
        const rows = await countedByRows();
        expect(rows).toEqual({ all: 1, needs_reinstall: 1, rotating: 0, legacy: 0 });
        const { counts } = await page();
        expect({ all: counts.all, needs_reinstall: counts.needs_reinstall, rotating: counts.rotating, legacy: counts.legacy }).toEqual(rows);
      });
    }

    it("works out an installation's facts when its tokens change, not when a refresher claims or releases one", async () => {
      await forget();
      const r = made(1);
      await store.installations.put(r);
      // How often the facts' function ran in one transaction (its deferred triggers fired before it ends).
      const factsRuns = (write: ReturnType<typeof sql>) =>
        backend.db.transaction(async (tx) => {
          await tx.execute(sql`set local track_functions = 'pl'`);
          await tx.execute(write);
          await tx.execute(sql`set constraints all immediate`);
          const [row] = await rowsOf<{ calls: string | number }>(
            tx,
            sql`select coalesce(sum(calls), 0) as calls from pg_stat_xact_user_functions where funcname = 'switchboard_installation_facts'`,
          );
          return Number(row!.calls);
        });
      expect(await factsRuns(sql`update tokens set refresh_claimed_until = 1 where installation_id = ${r.id}`)).toBe(0);
      expect(await factsRuns(sql`update tokens set refresh_claimed_until = null where installation_id = ${r.id}`)).toBe(0);
      expect(await factsRuns(sql`update tokens set revoked = true where installation_id = ${r.id}`)).toBe(1);
    });

    it("finds an installation by its workspace after a save that changed its app or its workspace", async () => {
      await forget();
      const r = made(1, { appId: "A0OLD" });
      await store.installations.put(r);
      expect(await store.installations.inTeam(r.team.id)).toEqual([{ id: r.id, appKey: r.appKey, appId: "A0OLD" }]);
      expect(await store.installations.inTeam("T0ELSEWHERE")).toEqual([]);

      const stored = (await store.installations.get(r.id, { fresh: true }))!;
      await store.installations.put({ ...stored, appId: "A0NEW" }, { expectVersion: stored.version });
      expect(await store.installations.inTeam(r.team.id)).toEqual([{ id: r.id, appKey: r.appKey, appId: "A0NEW" }]);

      const again = (await store.installations.get(r.id, { fresh: true }))!;
      await store.installations.put({ ...again, team: { id: "T0ELSEWHERE", name: "Elsewhere" } }, { expectVersion: again.version });
      expect(await store.installations.inTeam(r.team.id)).toEqual([]);
      expect(await store.installations.inTeam("T0ELSEWHERE")).toEqual([{ id: r.id, appKey: r.appKey, appId: "A0NEW" }]);
    });

    it("finds one installation by its exact id, though 60 installed before it hold that id in their search text", async () => {
      await forget();
      const target = made(100);
      const crowd = Array.from({ length: 60 }, (_, n) => made(n, { installedBy: `U-${target.id}` }));
      for (const r of [...crowd, target]) await store.installations.put(r);
      // A search on the id finds the 60 others first.
      expect((await page({ q: target.id, limit: 50 })).summaries.map((s) => s.id)).not.toContain(target.id);
      expect((await page({ id: target.id, limit: 1 })).summaries.map((s) => s.id)).toEqual([target.id]);
      // In a scope that cannot see it: nothing.
      expect((await page({ id: target.id, limit: 1, scope: { kind: "member", teamId: "T0OTHER" } })).summaries).toEqual([]);
    });

    it("keeps a refresher's claim across an ordinary save, and a release gives back only the claim it made", async () => {
      await forget();
      const r = made(1);
      await store.installations.put(r);
      const due = async () => (await store.refreshClaims.unclaimedExpiringBefore(NOW + 6 * HOUR, 10)).map((t) => t.tokenId);
      const [tokenId] = await due();
      const mine = await store.refreshClaims.claim([tokenId!], 60_000);
      expect([...mine.keys()]).toEqual([tokenId]);
      expect(await due()).toEqual([]);

      // A rename saves the whole record: the claim (a Retry-After hold, say) must outlive it.
      const stored = (await store.installations.get(r.id, { fresh: true }))!;
      await store.installations.put({ ...stored, team: { ...stored.team, name: "Renamed" } }, { expectVersion: stored.version });
      expect(await due()).toEqual([]);
      // And the claimant can still give it back.
      await store.refreshClaims.release(mine);
      expect(await due()).toEqual([tokenId]);

      // A lease that ran out, taken by another instance: the first one's late release leaves the other's claim.
      const stale = await store.refreshClaims.claim([tokenId!], 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const other = await store.refreshClaims.claim([tokenId!], 60_000);
      expect([...other.keys()]).toEqual([tokenId]);
      await store.refreshClaims.release(stale);
      expect(await due()).toEqual([]);
      await store.refreshClaims.release(other, 0);
      expect(await due()).toEqual([tokenId]);
    });

    it("filters expiring by the soonest rotating, unrevoked token of an active installation", async () => {
      await forget();
      const soon = made(1, { bot: token({ expiresAt: NOW + HOUR / 2 }) });
      const expired = made(2, { bot: token({ expiresAt: NOW - HOUR }) });
      const later = made(3, { bot: token({ expiresAt: NOW + 5 * HOUR }), user: token({ expiresAt: NOW + HOUR / 4 }) });
      const revoked = made(4, { bot: token({ expiresAt: NOW, revoked: true }) });
      const inactive = made(5, { state: "needs_reinstall", bot: token({ expiresAt: NOW }) });
      const legacy = made(6, { bot: legacyBot() });
      for (const r of [soon, expired, later, revoked, inactive, legacy]) await store.installations.put(r);
      const result = await page({ filter: "expiring" });
      // Soonest first: the expired one, then the one whose user token expires in a quarter of an hour.
      expect(result.summaries.map((s) => s.id)).toEqual([expired.id, later.id, soon.id]);
      expect(result.counts.expiring).toBe(3);
      const second = await page({ filter: "expiring", limit: 2 });
      expect(second.summaries.map((s) => s.id)).toEqual([expired.id, later.id]);
      expect((await page({ filter: "expiring", limit: 2, after: second.next! })).summaries.map((s) => s.id)).toEqual([soon.id]);
      // An hour on, what expired is still expiring, and nothing else became so.
      expect((await page({ filter: "expiring", expiringBy: NOW + 4 * HOUR })).counts.expiring).toBe(3);
      expect((await page({ filter: "expiring", expiringBy: NOW + 6 * HOUR })).counts.expiring).toBe(3);
      for (const filter of ["needs_reinstall", "rotating", "legacy"] as ListFilter[]) {
        const ids = (await page({ filter })).summaries.map((s) => s.id);
        expect(ids, filter).toEqual(
          { needs_reinstall: [inactive.id], rotating: [soon.id, expired.id, later.id, revoked.id, inactive.id], legacy: [legacy.id] }[filter as string],
        );
      }
      // The page carries its tokens' facts, no secret.
      const [first] = (await page({ limit: 1 })).summaries; // install order: `soon` was installed first
      expect(first!.tokens).toEqual([{ kind: "bot", rotating: true, expiresAt: NOW + HOUR / 2, revoked: false }]);
      expect(JSON.stringify(await page())).not.toContain(soon.bot!.value);
    });

    it("searches a part of a name or an id in any case, takes LIKE's characters literally, and caps a search's counts", async () => {
      await forget();
      const named = [
        made(1, { team: { id: "TAAA1", name: "Acme 04217" } }),
        made(2, { team: { id: "TBBB2", name: "Globex 100%_off" } }),
        made(3, { team: { id: "TCCC3", name: "Initech" }, enterprise: { id: "EORG1", name: "Umbrella Group" } }),
        made(4, { team: { id: "TDDD4", name: "Hooli" }, installedBy: "UINSTALLER" }),
      ];
      for (const r of named) await store.installations.put(r);
      const found = async (q: string) => (await page({ q })).summaries.map((s) => s.team.id);
      expect(await found("acme 04")).toEqual(["TAAA1"]);
      expect(await found("4217")).toEqual(["TAAA1"]);
      expect(await found("tbbb")).toEqual(["TBBB2"]);
      expect(await found("TCCC3-A0001")).toEqual(["TCCC3"]);
      expect(await found("umbrella")).toEqual(["TCCC3"]);
      expect(await found("uinstaller")).toEqual(["TDDD4"]);
      expect(await found("100%_")).toEqual(["TBBB2"]);
      expect(await found("0%")).toEqual(["TBBB2"]);
      expect(await found("_")).toEqual(["TBBB2"]);
      expect(await found("xoxe")).toEqual([]);
      const searched = await page({ q: "hooli" });
      expect(searched.counts).toEqual({ all: 1, needs_reinstall: 0, expiring: 0, rotating: 1, legacy: 0 });
      expect(searched.total).toBe(4);

      // A search that keeps more than the cap says so rather than counting every row.
      await store.installations.insertMany(Array.from({ length: COUNT_CAP + 5 }, (_, n) => ({ record: made(1_000 + n) })));
      const broad = await page({ q: "acme", limit: 10 });
      expect(broad.counts.all).toBe(COUNT_CAP);
      expect(broad.capped).toContain("all");
      expect(broad.summaries).toHaveLength(10);
      expect(broad.total).toBe(4 + COUNT_CAP + 5);
    }, 60_000);

    it("shows a member only their workspace's installations and their organisation's organisation-wide ones, at any page", async () => {
      await forget();
      const own = Array.from({ length: 5 }, (_, n) => made(n + 1, { team: { id: "TMINE", name: `Mine ${n}` }, id: `TMINE-A000${n}` }));
      const orgWide = made(10, {
        team: { id: "EORG", name: "The organisation" },
        enterprise: { id: "EORG", name: "The organisation" },
        isEnterpriseInstall: true,
      });
      const sibling = made(11, { team: { id: "TSIBLING", name: "Sibling" }, enterprise: { id: "EORG", name: "The organisation" } });
      const other = Array.from({ length: 5 }, (_, n) => made(20 + n));
      for (const r of [...own, orgWide, sibling, ...other]) await store.installations.put(r);
      const member: ListScope = { kind: "member", teamId: "TMINE", enterpriseId: "EORG" };
      const seen: string[] = [];
      let after: ListPosition | undefined;
      do {
        const result = await page({ scope: member, limit: 2, ...(after ? { after } : {}) });
        expect(result.total).toBe(6);
        expect(result.counts.all).toBe(6);
        seen.push(...result.summaries.map((s) => s.id));
        after = result.next;
      } while (after);
      expect(seen.sort()).toEqual([...own.map((r) => r.id), orgWide.id].sort());
      // Without an organisation: the workspace's own only, and no search reaches past it.
      expect((await page({ scope: { kind: "member", teamId: "TMINE" } })).total).toBe(5);
      expect((await page({ scope: member, q: "sibling" })).summaries).toEqual([]);
      expect((await page({ q: "sibling" })).summaries.map((s) => s.id)).toEqual([sibling.id]);
    });
  });
}
