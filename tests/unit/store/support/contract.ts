/**
 * The store's contract: one suite, run against PGlite (store-pglite.slow.test.ts) and a real PostgreSQL 15
 * (store-postgres.slow.test.ts). Each test names its own installations and owners, so tests share one database.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { migrate, rowsOf, type Backend } from "@/lib/store/backend";
import { EVERY_OWNER, RefreshLockTimeoutError, VersionConflictError, type Store, type StoreInstallation, type StoreToken } from "@/lib/store";
import { sealingKeys } from "@/lib/store/sealing";
import { storeOn } from "@/lib/store/store";

export interface ContractBackend {
  /** Opens a backend on the suite's database (migrations run). */
  openBackend(): Promise<Backend>;
}

/** Token-shaped strings made at run time: nothing secret-looking is committed. */
export const secret = (prefix: string) => `${prefix}${randomBytes(16).toString("hex")}`;
const unique = (name: string) => `${name}-${randomBytes(4).toString("hex")}`;
export const testKeys = (...names: string[]) =>
  sealingKeys(
    names.map((n) => `${n}-passphrase-of-at-least-thirty-two-characters`),
    [],
  );

export function token(overrides: Partial<StoreToken> = {}): StoreToken {
  return {
    value: secret("xoxe.xoxb-1-"),
    refreshToken: secret("xoxe-1-"),
    expiresAt: 1_900_000_000_000,
    scopes: ["users:read", "chat:write"],
    issuedAt: 1_800_000_000_000,
    ...overrides,
  };
}

export function installation(overrides: Partial<StoreInstallation> = {}): StoreInstallation {
  return {
    id: unique("T0001-A0001"),
    appKey: "rotation",
    appId: "A0001",
    appName: "Switchboard Rotation",
    team: { id: "T0001", name: "Acme" },
    enterprise: { id: "E0001", name: "Acme Group" },
    botUserId: "U0BOT",
    authedUserId: "U0001",
    bot: token(),
    user: token({ value: secret("xoxe.xoxp-1-"), scopes: ["users:read"] }),
    incomingWebhook: {
      url: `https://hooks.example.test/services/T0001/B0001/${secret("")}`,
      channel: "#general",
      channelId: "C0001",
      configurationUrl: "https://example.test/config",
    },
    state: "active",
    installedAt: 1_800_000_000_000,
    updatedAt: 1_800_000_000_000,
    ...overrides,
  };
}

/** Every row of every table of the public schema, each as text (what a dump of the database holds). */
export async function dumpDatabase(backend: Backend): Promise<string[]> {
  const tables = await rowsOf<{ table_name: string }>(
    backend.db,
    sql`select table_name from information_schema.tables where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE'`,
  );
  const lines: string[] = [];
  for (const { table_name } of tables) {
    const schemaOf = table_name === "__drizzle_migrations" ? "drizzle" : "public";
    for (const { row } of await rowsOf<{ row: string }>(backend.db, sql.raw(`select t::text as row from "${schemaOf}"."${table_name}" t`))) {
      lines.push(`${table_name}: ${row}`);
    }
  }
  return lines;
}

export function storeContract(name: string, backendFor: () => ContractBackend) {
  describe(`the store's contract on ${name}`, () => {
    let backend: Backend;
    let store: Store;
    const keys = testKeys("current");

    beforeAll(async () => {
      backend = await backendFor().openBackend();
      store = await storeOn(backend, keys);
    }, 120_000);
    afterAll(async () => {
      await store?.close();
    });

    it("gives back an installation as it was put: names, state, both tokens and the webhook, at version 1", async () => {
      const record = installation();
      const put = await store.installations.put(record);
      expect(put).toEqual({ ...record, version: 1 });
      expect(await store.installations.get(record.id, { fresh: true })).toEqual({ ...record, version: 1 });
      expect(await store.installations.get(record.id)).toEqual({ ...record, version: 1 });
      const bare = installation({ enterprise: undefined, bot: undefined, user: undefined, incomingWebhook: undefined, appId: undefined });
      for (const key of Object.keys(bare) as Array<keyof StoreInstallation>) if (bare[key] === undefined) delete bare[key];
      await store.installations.put(bare);
      expect(await store.installations.get(bare.id, { fresh: true })).toEqual({ ...bare, version: 1 });
      expect(await store.installations.get("T0001-nobody")).toBeNull();
    });

    it("lists installations by who installed them, with their tokens", async () => {
      const person = unique("U-person");
      const a = installation({ installedBy: person, installedAt: 1 });
      const b = installation({ installedBy: person, installedAt: 2 });
      await store.installations.put(b);
      await store.installations.put(a);
      const listed = await store.installations.list({ installedBy: person });
      expect(listed.map((i) => i.id)).toEqual([a.id, b.id]);
      expect(listed[0]!.bot?.value).toBe(a.bot!.value);
      expect((await store.installations.list()).length).toBeGreaterThanOrEqual(2);
    });

    it("bumps the version on each write and refuses a write over another version, leaving the stored one", async () => {
      const record = installation();
      await expect(store.installations.put(record, { expectVersion: 1 })).rejects.toBeInstanceOf(VersionConflictError);
      expect(await store.installations.get(record.id, { fresh: true })).toBeNull();
      const first = await store.installations.put(record, { expectVersion: 0 });
      expect(first.version).toBe(1);
      const second = await store.installations.put({ ...record, problem: "token_revoked", state: "needs_reinstall" }, { expectVersion: 1 });
      expect(second.version).toBe(2);
      const stale = store.installations.put({ ...record, appName: "lost update" }, { expectVersion: 1 });
      await expect(stale).rejects.toMatchObject({ name: "VersionConflictError", expected: 1, actual: 2 });
      expect(await store.installations.get(record.id)).toMatchObject({ version: 2, state: "needs_reinstall", appName: record.appName });
    });

    it("never keeps half an installation: a write that fails part-way leaves nothing of it", async () => {
      const record = installation();
      await expect(store.installations.put(record, { timeline: [{ at: Number.NaN, type: "installed" }] })).rejects.toThrow();
      expect(await store.installations.get(record.id, { fresh: true })).toBeNull();
      expect(await store.installations.listTokens(record.id)).toEqual([]);
    });

    it("forgets an installation with its tokens, timeline and refresh intents", async () => {
      const record = installation();
      await store.installations.put(record, { timeline: [{ at: 1, type: "installed" }] });
      await store.intents.record({ installationId: record.id, kind: "bot", refreshToken: record.bot!.refreshToken!, startedAt: 5 });
      expect(await store.installations.delete(record.id)).toBe(true);
      expect(await store.installations.get(record.id)).toBeNull();
      expect(await store.installations.listTokens(record.id)).toEqual([]);
      expect((await store.installations.pageTimeline(record.id)).entries).toEqual([]);
      expect(await store.intents.listUnsettled({ startedAfter: 0, installationId: record.id })).toEqual([]);
      expect(await store.intents.findByRefreshToken(record.bot!.refreshToken!)).toBeNull();
      expect(await store.installations.delete(record.id)).toBe(false);
    });

    it("lists tokens and finds the rotating ones about to expire, without their secrets", async () => {
      const record = installation({ bot: token({ expiresAt: 1_000 }), user: token({ expiresAt: 3_000, revoked: true }) });
      await store.installations.put(record);
      const listed = await store.installations.listTokens(record.id);
      expect(listed.map((t) => [t.kind, t.value])).toEqual([
        ["bot", record.bot!.value],
        ["user", record.user!.value],
      ]);
      const expiring = await store.installations.tokensExpiringBefore(2_000, 1_000);
      expect(expiring.filter((t) => t.installationId === record.id)).toEqual([{ installationId: record.id, kind: "bot", expiresAt: 1_000 }]);
      // An installation that needs reinstalling keeps its rows but has nothing to refresh: never listed (its
      // long-expired tokens would otherwise come first in every batch).
      const dead = installation({ bot: token({ expiresAt: 500 }), state: "needs_reinstall", problem: "invalid_refresh_token" });
      await store.installations.put(dead);
      expect((await store.installations.tokensExpiringBefore(2_000, 1_000)).filter((t) => t.installationId === dead.id)).toEqual([]);
    });

    it("keeps the timeline in full and pages it newest first", async () => {
      const record = installation();
      await store.installations.put(record, { timeline: [{ at: 100, type: "installed", tokens: [] }] });
      await store.installations.appendTimeline(
        record.id,
        [1, 2, 3, 4, 5, 6].map((n) => ({ at: 100 + n, type: "tested", n })),
      );
      const first = await store.installations.pageTimeline(record.id, { limit: 3 });
      expect(first.entries.map((e) => e.entry.at)).toEqual([106, 105, 104]);
      const second = await store.installations.pageTimeline(record.id, { limit: 3, before: first.nextBefore });
      expect(second.entries.map((e) => e.entry.at)).toEqual([103, 102, 101]);
      const last = await store.installations.pageTimeline(record.id, { limit: 3, before: second.nextBefore });
      expect(last.entries.map((e) => e.entry)).toEqual([{ at: 100, type: "installed", tokens: [] }]);
      expect(last.nextBefore).toBeUndefined();
    });

    it("summarises every installation for a list without a secret: names, state and its tokens' facts", async () => {
      const { user: _rotatingUser, ...rotating } = installation({ bot: token({ expiresAt: 5_000 }), installedAt: 1 });
      const { bot: _legacyBot, ...legacy } = installation({ installedAt: 2 });
      legacy.user = { value: secret("xoxp-1-"), scopes: ["users:read"], revoked: true, issuedAt: 1 };
      await store.installations.put(rotating);
      await store.installations.put(legacy);
      const summaries = (await store.installations.listSummaries()).filter((s) => s.id === rotating.id || s.id === legacy.id);
      expect(summaries.map((s) => s.id)).toEqual([rotating.id, legacy.id]);
      expect(summaries[0]).toMatchObject({ team: rotating.team, state: "active", tokens: [{ kind: "bot", rotating: true, expiresAt: 5_000, revoked: false }] });
      expect(summaries[1]!.tokens).toEqual([{ kind: "user", rotating: false, expiresAt: null, revoked: true }]);
      expect(JSON.stringify(summaries)).not.toMatch(/xox[a-z]-1-/);
      // Kept between reads, and read again after any change: a refresh, an uninstall, a forget.
      await store.installations.put({ ...rotating, state: "needs_reinstall", bot: token({ expiresAt: 9_000 }) }, { expectVersion: 1 });
      await store.installations.delete(legacy.id);
      const again = (await store.installations.listSummaries()).filter((s) => s.id === rotating.id || s.id === legacy.id);
      expect(again).toEqual([expect.objectContaining({ id: rotating.id, state: "needs_reinstall", tokens: [expect.objectContaining({ expiresAt: 9_000 })] })]);
    });

    it("reads the newest entries of many timelines in one go, saying which have older ones", async () => {
      const long = installation();
      const short = installation();
      const empty = installation();
      await store.installations.put(long, { timeline: [1, 2, 3, 4, 5].map((n) => ({ at: n, type: "tested", n })) });
      await store.installations.put(short, { timeline: [{ at: 9, type: "installed" }] });
      await store.installations.put(empty);
      const pages = await store.installations.newestTimelines([long.id, short.id, empty.id], { limit: 3 });
      expect(pages.get(long.id)?.entries.map((e) => e.entry.n)).toEqual([5, 4, 3]);
      // The next page of the long one starts where this one stopped.
      const older = await store.installations.pageTimeline(long.id, { before: pages.get(long.id)!.nextBefore, limit: 3 });
      expect(older.entries.map((e) => e.entry.n)).toEqual([2, 1]);
      expect(pages.get(short.id)).toEqual({ entries: [expect.objectContaining({ entry: { at: 9, type: "installed" } })] });
      expect(pages.has(empty.id)).toBe(false);
      expect((await store.installations.newestTimelines([])).size).toBe(0);
    });

    it("keeps the timeline in the order it was written, when the platform's clock moved back between entries", async () => {
      const record = installation();
      await store.installations.put(record, { timeline: [{ at: 5_000, type: "installed", tokens: [] }] });
      // The emulator was reset: its clock, which stamps each entry, starts over below the entries already kept.
      await store.installations.appendTimeline(record.id, [
        { at: 1_000, type: "tested", n: 1 },
        { at: 900, type: "tested", n: 2 },
      ]);
      await store.installations.appendTimeline(record.id, [{ at: 1_100, type: "refreshed" }]);
      const page = await store.installations.pageTimeline(record.id);
      expect(page.entries.map((e) => `${String(e.entry.type)}${String(e.entry.n ?? "")}`)).toEqual(["refreshed", "tested2", "tested1", "installed"]);
    });

    it("imports a record keeping, per token kind, whichever token was issued later", async () => {
      const newerBot = token({ issuedAt: 2_000 });
      const olderUser = token({ value: secret("xoxe.xoxp-1-"), issuedAt: 1_000 });
      const stored = installation({ bot: token({ issuedAt: 1_000 }), user: token({ value: secret("xoxe.xoxp-1-"), issuedAt: 3_000 }), updatedAt: 10 });
      const created = await store.installations.import(stored, { timeline: [{ at: 5, type: "installed" }] });
      expect(created.outcome).toBe("created");
      const fromOtherBrowser = { ...stored, bot: newerBot, user: olderUser, appName: "Renamed", updatedAt: 20 };
      const merged = await store.installations.import(fromOtherBrowser, {
        timeline: [
          { at: 5, type: "installed" },
          { at: 7, type: "refreshed" },
        ],
      });
      expect(merged.outcome).toBe("merged");
      const read = await store.installations.get(stored.id, { fresh: true });
      expect(read?.bot).toEqual(newerBot);
      expect(read?.user).toEqual(stored.user);
      expect(read?.appName).toBe("Renamed");
      expect(read?.version).toBe(2);
      expect((await store.installations.pageTimeline(stored.id)).entries.map((e) => e.entry.at)).toEqual([7, 5]);
      // An older cookie imported again changes nothing.
      expect((await store.installations.import({ ...stored, updatedAt: 1 })).outcome).toBe("unchanged");
      expect((await store.installations.get(stored.id, { fresh: true }))?.bot).toEqual(newerBot);
    });

    it("settles a refresh in one step: the new pair stored, the intent settled, the old refresh token known spent", async () => {
      const record = installation();
      await store.installations.put(record);
      const spent = record.bot!.refreshToken!;
      const intent = await store.intents.record({ installationId: record.id, kind: "bot", refreshToken: spent, startedAt: 50_000 });
      expect(intent).toMatchObject({ installationId: record.id, kind: "bot", refreshToken: spent, startedAt: 50_000 });
      expect((await store.intents.listUnsettled({ startedAfter: 40_000, installationId: record.id })).map((i) => i.id)).toEqual([intent.id]);
      expect(await store.intents.listUnsettled({ startedAfter: 60_000, installationId: record.id })).toEqual([]);
      expect(await store.intents.findByRefreshToken(spent)).toMatchObject({ id: intent.id });

      const fresh = token({ issuedAt: record.bot!.issuedAt + 1 });
      const settled = await store.intents.settle({ intentId: intent.id, settledAt: 51_000, token: fresh, timeline: [{ at: 51_000, type: "refreshed" }] });
      expect(settled.outcome).toBe("refreshed");
      expect(settled.installation).toMatchObject({ version: 2, updatedAt: 51_000, bot: fresh, user: record.user });
      expect(await store.installations.get(record.id)).toMatchObject({ version: 2, bot: fresh });
      expect(await store.intents.listUnsettled({ startedAfter: 0, installationId: record.id })).toEqual([]);
      expect(await store.intents.findByRefreshToken(spent)).toMatchObject({ id: intent.id, settledAt: 51_000, outcome: "refreshed" });
      expect((await store.installations.pageTimeline(record.id)).entries.map((e) => e.entry.type)).toEqual(["refreshed"]);
      // Settling again (a replay that also got its answer) changes nothing.
      const again = await store.intents.settle({ intentId: intent.id, settledAt: 52_000, token: token({ issuedAt: fresh.issuedAt + 5 }) });
      expect(again.outcome).toBe("refreshed");
      expect((await store.installations.get(record.id, { fresh: true }))?.bot).toEqual(fresh);
      // Once past the grace period a settled intent can go; an unsettled one stays to be replayed.
      const pending = await store.intents.record({ installationId: record.id, kind: "user", refreshToken: record.user!.refreshToken!, startedAt: 51_500 });
      expect(await store.intents.pruneSettled(51_001)).toBeGreaterThanOrEqual(1);
      expect(await store.intents.findByRefreshToken(spent)).toBeNull();
      expect((await store.intents.listUnsettled({ startedAfter: 0, installationId: record.id })).map((i) => i.id)).toEqual([pending.id]);
    });

    it("does not let a refresh's late answer overwrite a newer token stored meanwhile", async () => {
      const record = installation();
      await store.installations.put(record);
      const intent = await store.intents.record({ installationId: record.id, kind: "user", refreshToken: record.user!.refreshToken!, startedAt: 1 });
      const newer = token({ issuedAt: record.user!.issuedAt + 100 });
      await store.installations.put({ ...record, user: newer });
      const late = await store.intents.settle({ intentId: intent.id, settledAt: 2, token: token({ issuedAt: record.user!.issuedAt + 10 }) });
      expect(late.outcome).toBe("superseded");
      expect((await store.installations.get(record.id, { fresh: true }))?.user).toEqual(newer);
      const failedIntent = await store.intents.record({ installationId: record.id, kind: "bot", refreshToken: record.bot!.refreshToken!, startedAt: 3 });
      expect((await store.intents.settle({ intentId: failedIntent.id, settledAt: 4, failure: "invalid_refresh_token" })).outcome).toBe(
        "failed:invalid_refresh_token",
      );
      expect((await store.installations.get(record.id, { fresh: true }))?.bot).toEqual(record.bot);
    });

    it("keeps a user token per person: written and read with the record, refreshed one person at a time, gone with an uninstall", async () => {
      const ana = token({ value: secret("xoxe.xoxp-1-"), issuedAt: 1_800_000_000_001 });
      const ben = token({ value: secret("xoxe.xoxp-1-"), issuedAt: 1_800_000_000_002 });
      const record = installation({ user: undefined, people: { U0ANA: ana, U0BEN: ben }, isEnterpriseInstall: true });
      await store.installations.put(record);
      expect(await store.installations.get(record.id, { fresh: true })).toEqual({ ...record, version: 1 });
      expect((await store.installations.list()).find((i) => i.id === record.id)?.people).toEqual({ U0ANA: ana, U0BEN: ben });
      expect((await store.installations.listSummaries()).find((i) => i.id === record.id)).toMatchObject({ isEnterpriseInstall: true });
      expect(
        (await store.installations.listTokens(record.id))
          .filter((t) => t.kind === "user")
          .map((t) => t.userId)
          .sort(),
      ).toEqual(["U0ANA", "U0BEN"]);
      // One person's refresh settles their row only.
      const intent = await store.intents.record({
        installationId: record.id,
        kind: "user",
        userId: "U0ANA",
        refreshToken: ana.refreshToken!,
        startedAt: 1,
      });
      const renewed = token({ value: secret("xoxe.xoxp-1-"), issuedAt: ana.issuedAt + 10 });
      expect((await store.intents.settle({ intentId: intent.id, settledAt: 2, token: renewed })).outcome).toBe("refreshed");
      const after = await store.installations.get(record.id, { fresh: true });
      expect(after?.people).toEqual({ U0ANA: renewed, U0BEN: ben });
      expect(after?.user).toBeUndefined();
      // A record is written whole: the people it no longer holds (an uninstall) are gone.
      const { people: _people, bot: _bot, ...ended } = after!;
      await store.installations.put({ ...ended, state: "needs_reinstall", uninstalledAt: 3 }, { expectVersion: after!.version });
      expect((await store.installations.get(record.id, { fresh: true }))?.people).toBeUndefined();
      expect(await store.installations.listTokens(record.id)).toEqual([]);
    });

    it("keeps pasted webhooks per owner: add (a repeat answers the one kept), list, rename, remove", async () => {
      const owner = unique("U-owner");
      const url = `https://hooks.example.test/services/T1/B1/${secret("")}`;
      const added = await store.webhooks.add({ owner, url, label: "Alerts", maskedUrl: "https://hooks.example.test/services/T1/B1/…abcd", createdAt: 10 });
      expect(added).toMatchObject({ owner, url, label: "Alerts", createdAt: 10 });
      expect(added.id).toMatch(/^wh_/);
      expect((await store.webhooks.add({ owner, url, label: "Again", maskedUrl: "x", createdAt: 11 })).id).toBe(added.id);
      const operators = await store.webhooks.add({ owner: null, url, label: "Operator's", maskedUrl: "x", createdAt: 12 });
      expect(operators.id).not.toBe(added.id);
      expect(await store.webhooks.list(owner)).toEqual([added]);
      expect(await store.webhooks.get(unique("U-other"), added.id)).toBeNull();
      // An admin's lookup names no owner: it finds whoever's.
      expect((await store.webhooks.get(EVERY_OWNER, added.id))?.owner).toBe(owner);
      expect((await store.webhooks.list(EVERY_OWNER)).map((h) => h.id)).toEqual(expect.arrayContaining([added.id, operators.id]));
      expect(await store.webhooks.rename(owner, added.id, "Pager")).toMatchObject({ label: "Pager", url });
      expect(await store.webhooks.remove(owner, added.id)).toBe(true);
      expect(await store.webhooks.remove(owner, added.id)).toBe(false);
      expect(await store.webhooks.list(owner)).toEqual([]);
      expect(await store.webhooks.remove(null, operators.id)).toBe(true);
    });

    it("keeps each owner's newest webhook sends, newest first, up to the bound", async () => {
      const owner = unique("U-sender");
      for (let n = 1; n <= 5; n++) {
        await store.webhooks.recordSend(
          owner,
          {
            id: unique(`send${n}`),
            webhookId: "wh_1",
            webhookLabel: "Alerts",
            sentAt: n,
            preview: `text ${n}`,
            status: 200,
            ok: true,
            result: "ok",
            durationMs: n === 5 ? null : 12,
          },
          { keep: 3 },
        );
      }
      const sends = await store.webhooks.listSends(owner);
      expect(sends.map((s) => s.preview)).toEqual(["text 5", "text 4", "text 3"]);
      expect(sends[0]).toMatchObject({ webhookId: "wh_1", status: 200, ok: true, durationMs: null });
      expect(await store.webhooks.listSends(owner, 1)).toHaveLength(1);
    });

    it("keeps one app configuration token pair per owner: put, replace, get, delete", async () => {
      const owner = unique("U-config");
      expect(await store.configTokens.get(owner)).toBeNull();
      const pair = { token: secret("xoxe.xoxp-1-"), refreshToken: secret("xoxe-1-"), expiresAt: 100, rotatedAt: 50, teamId: "T1", userId: "U1" };
      await store.configTokens.put(owner, pair);
      expect(await store.configTokens.get(owner)).toEqual(pair);
      const next = { token: secret("xoxe.xoxp-1-"), refreshToken: secret("xoxe-1-"), expiresAt: 200, rotatedAt: 150 };
      await store.configTokens.put(owner, next);
      expect(await store.configTokens.get(owner)).toEqual(next);
      expect(await store.configTokens.delete(owner)).toBe(true);
      expect(await store.configTokens.get(owner)).toBeNull();
      expect(await store.configTokens.delete(owner)).toBe(false);
    });

    it("serves repeated reads from its cache and drops an entry on its own writes", async () => {
      const record = installation();
      await store.installations.put(record);
      await store.installations.get(record.id);
      const before = store.cacheStats();
      const read = await store.installations.get(record.id);
      expect(store.cacheStats().hits).toBe(before.hits + 1);
      // A copy: changing what was read changes nothing stored.
      read!.team.name = "changed by a caller";
      expect((await store.installations.get(record.id))?.team.name).toBe("Acme");
      await store.installations.put({ ...record, appName: "New name" });
      expect(await store.installations.get(record.id)).toMatchObject({ appName: "New name", version: 2 });
    });

    it("lets one holder of a refresh lock run at a time, and a bounded waiter give up with RefreshLockTimeoutError", async () => {
      const key = unique("lock");
      const events: string[] = [];
      let releaseFirst!: () => void;
      const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
      const first = store.withRefreshLock(key, async () => {
        events.push("first in");
        await firstHolds;
        events.push("first out");
        return 1;
      });
      await new Promise((r) => setTimeout(r, 50));
      const second = store.withRefreshLock(key, async () => {
        events.push("second in");
        return 2;
      });
      await expect(store.withRefreshLock(key, async () => 3, { waitMs: 100 })).rejects.toBeInstanceOf(RefreshLockTimeoutError);
      expect(events).toEqual(["first in"]);
      releaseFirst();
      expect(await Promise.all([first, second])).toEqual([1, 2]);
      expect(events).toEqual(["first in", "first out", "second in"]);
      // Another key is never held up.
      expect(await store.withRefreshLock(unique("lock"), async () => "free", { waitMs: 1_000 })).toBe("free");
    });

    it("reads a record sealed with an older key once the list has a newer one, and re-seals it on its next write", async () => {
      const oldKeys = testKeys("older");
      const rotated = [...testKeys("newer"), ...oldKeys];
      const before = await storeOn(backend, oldKeys, { ownsBackend: false });
      const record = installation();
      await before.installations.put(record);
      await before.configTokens.put(record.id, { token: secret("xoxe.xoxp-1-"), refreshToken: secret("xoxe-1-"), expiresAt: 1, rotatedAt: 1 });
      const keyIdsOf = async () => {
        const rows = await rowsOf<{ v: string }>(
          backend.db,
          sql`select value_sealed as v from tokens where installation_id = ${record.id} union all select webhook_url_sealed from installations where id = ${record.id}`,
        );
        return [...new Set(rows.map((r) => r.v.split(".")[1]))];
      };
      expect(await keyIdsOf()).toEqual([oldKeys[0]!.id]);
      const after = await storeOn(backend, rotated, { ownsBackend: false });
      const read = await after.installations.get(record.id, { fresh: true });
      expect(read?.bot?.value).toBe(record.bot!.value);
      expect(read?.incomingWebhook?.url).toBe(record.incomingWebhook!.url);
      expect((await after.configTokens.get(record.id))?.token).toMatch(/^xoxe\.xoxp-1-/);
      await after.installations.put({ ...read!, updatedAt: read!.updatedAt + 1 });
      expect(await keyIdsOf()).toEqual([rotated[0]!.id]);
      // A refresh settled re-seals the rest of the record too (its other token, its webhook).
      const third = [...testKeys("newest"), ...rotated];
      const latest = await storeOn(backend, third, { ownsBackend: false });
      const intent = await latest.intents.record({ installationId: record.id, kind: "bot", refreshToken: read!.bot!.refreshToken!, startedAt: 1 });
      await latest.intents.settle({ intentId: intent.id, settledAt: 2, token: token({ issuedAt: read!.bot!.issuedAt + 1 }) });
      expect(await keyIdsOf()).toEqual([third[0]!.id]);
      expect((await latest.installations.get(record.id, { fresh: true }))?.user).toEqual(record.user);
      await latest.close();
      // A store without the key that sealed a value says which key is missing, never answers an empty token.
      const forgetful = await storeOn(backend, testKeys("unrelated"), { ownsBackend: false });
      await expect(forgetful.installations.get(record.id, { fresh: true })).rejects.toMatchObject({ code: "store_unavailable", status: 503 });
      await Promise.all([before.close(), after.close(), forgetful.close()]);
    });

    it("holds no token, refresh token or webhook secret in any row of any table (a dump through SQL)", async () => {
      const record = installation();
      const secrets = [record.bot!.value, record.bot!.refreshToken!, record.user!.value, record.user!.refreshToken!, record.incomingWebhook!.url];
      await store.installations.put(record, { timeline: [{ at: 1, type: "installed", tokens: ["xoxe.xoxb-…abcd"] }] });
      await store.intents.record({ installationId: record.id, kind: "bot", refreshToken: record.bot!.refreshToken!, startedAt: 1 });
      const pasted = `https://hooks.example.test/services/T9/B9/${secret("")}`;
      await store.webhooks.add({ owner: null, url: pasted, label: "Pasted", maskedUrl: "https://hooks.example.test/services/T9/B9/…", createdAt: 1 });
      const config = { token: secret("xoxe.xoxp-1-"), refreshToken: secret("xoxe-1-"), expiresAt: 1, rotatedAt: 1 };
      await store.configTokens.put(unique("U-dump"), config);
      secrets.push(pasted, config.token, config.refreshToken);

      const dump = await dumpDatabase(backend);
      const tables = new Set(dump.map((line) => line.split(":")[0]));
      for (const table of ["installations", "tokens", "timeline_entries", "refresh_intents", "pasted_webhooks", "config_tokens"])
        expect(tables).toContain(table);
      expect(dump.join("\n")).toContain(record.id);
      const text = dump.join("\n");
      for (const value of secrets) {
        // The secret part of each (a URL's last segment), not the prefix every token shares.
        const secretPart = value.split(/[-/]/).pop()!;
        expect(secretPart.length).toBeGreaterThan(20);
        expect(text.includes(secretPart), `the dump holds a secret (${value.slice(0, 12)}…)`).toBe(false);
      }
    });

    it("runs its migrations again, twice at once, without harm", async () => {
      await Promise.all([migrate(backend), migrate(backend)]);
      const [tables] = await rowsOf<{ n: number }>(
        backend.db,
        sql`select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name = 'installations'`,
      );
      expect(tables?.n).toBe(1);
      const [applied] = await rowsOf<{ n: number }>(backend.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(applied?.n).toBe(readdirSync(backend.migrationsFolder).filter((f) => f.endsWith(".sql")).length);
    });
  });
}
