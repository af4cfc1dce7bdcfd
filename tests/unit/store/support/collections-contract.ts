/**
 * The store's collections of saved requests, one suite run against PGlite and a real PostgreSQL 15
 * (collections-pglite.slow.test.ts, collections-postgres.slow.test.ts). Each test names its own owners.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Backend } from "@/lib/store/backend";
import type { Store } from "@/lib/store";
import type { StoreRequestFields } from "@/lib/store/collections";
import { storeOn } from "@/lib/store/store";
import { testKeys } from "./contract";

const unique = (name: string) => `${name}-${randomBytes(4).toString("hex")}`;

const fields = (name: string, overrides: Partial<StoreRequestFields> = {}): StoreRequestFields & { id: string } => ({
  id: unique("req"),
  name,
  method: "conversations.info",
  httpMethod: "GET",
  encoding: "form",
  tokenKind: "bot",
  args: [{ key: "channel", value: "C1" }],
  bindings: [],
  ...overrides,
});

export function collectionsContract(name: string, openBackend: () => Promise<Backend>) {
  describe(`the store's collections on ${name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await storeOn(await openBackend(), testKeys("current"));
    }, 120_000);
    afterAll(async () => {
      await store?.close();
    });

    // Each made a millisecond after the last: lists are oldest first.
    let clock = 1_000;
    const newCollection = (owner: string | null, teamId: string | null, requests: Array<StoreRequestFields & { id: string }> = []) =>
      store.collections.create({ id: unique("col"), owner, ownerName: "Ada", teamId, name: "Onboarding", at: clock++, requests });

    it("keeps a collection with its requests in order, as they were given", async () => {
      const made = await newCollection(unique("T1:U1"), "T1", [
        fields("Post", { method: "chat.postMessage", httpMethod: "POST", encoding: "json", args: [{ key: "text", value: "hi" }] }),
        fields("Read", { bindings: [{ param: "channel", step: 1, path: "channel" }] }),
      ]);
      expect(made).toMatchObject({ name: "Onboarding", ownerName: "Ada", teamId: "T1", sharedWithTeam: false, hasLink: false, requestCount: 2 });
      const read = await store.collections.get(made.id);
      expect(read?.requests.map((r) => [r.position, r.name, r.method, r.httpMethod, r.encoding])).toEqual([
        [0, "Post", "chat.postMessage", "POST", "json"],
        [1, "Read", "conversations.info", "GET", "form"],
      ]);
      expect(read?.requests[1]?.bindings).toEqual([{ param: "channel", step: 1, path: "channel" }]);
    });

    it("lists an owner's collections, their team's shared ones, and for an admin every shared one, with their counts", async () => {
      const team = unique("T");
      const other = unique("T");
      const mine = await newCollection(`${team}:U1`, team, [fields("a")]);
      const teammates = await newCollection(`${team}:U2`, team);
      const private2 = await newCollection(`${team}:U3`, team);
      const foreign = await newCollection(`${other}:U9`, other);
      await store.collections.update(teammates.id, { sharedWithTeam: true }, 2_000);
      await store.collections.update(foreign.id, { sharedWithTeam: true }, 2_000);
      const ids = async (filter: Parameters<Store["collections"]["list"]>[0]) =>
        (await store.collections.list(filter)).map((c) => c.id).filter((id) => [mine.id, teammates.id, private2.id, foreign.id].includes(id));
      expect(await ids({ owner: `${team}:U1`, sharedTeam: team, everyShared: false })).toEqual([mine.id, teammates.id]);
      expect(await ids({ owner: `${team}:U1`, sharedTeam: team, everyShared: true })).toEqual([mine.id, teammates.id, foreign.id]);
      expect((await store.collections.list({ owner: `${team}:U1`, sharedTeam: null, everyShared: false })).find((c) => c.id === mine.id)?.requestCount).toBe(1);
      expect(await store.collections.countOwned(`${team}:U1`)).toBe(1);
    });

    it("appends, renames, reorders and removes requests, keeping positions 0…n-1; refuses an order that does not name each once", async () => {
      const c = await newCollection(unique("T1:U1"), "T1");
      const a = await store.collections.addRequest(c.id, fields("a"), 2_000, 10);
      const b = await store.collections.addRequest(c.id, fields("b"), 2_001, 10);
      const d = await store.collections.addRequest(c.id, fields("c"), 2_002, 10);
      if (!a || !b || !d || a === "full" || b === "full" || d === "full") throw new Error("not added");
      expect([a.position, b.position, d.position]).toEqual([0, 1, 2]);
      expect(await store.collections.addRequest(c.id, fields("too many"), 2_003, 3)).toBe("full");
      expect(await store.collections.addRequest(unique("col-gone"), fields("x"), 2_003, 3)).toBeNull();

      const renamed = await store.collections.updateRequest(c.id, b.id, { name: "b renamed" }, 2_004);
      expect(renamed?.name).toBe("b renamed");
      expect(await store.collections.updateRequest(unique("other"), b.id, { name: "no" }, 2_004)).toBeNull();

      const reordered = await store.collections.reorder(c.id, [d.id, a.id, b.id], 2_005);
      expect(reordered !== null && reordered !== "mismatch" && reordered.map((r) => [r.name, r.position])).toEqual([
        ["c", 0],
        ["a", 1],
        ["b renamed", 2],
      ]);
      expect(await store.collections.reorder(c.id, [d.id, a.id], 2_006)).toBe("mismatch");
      expect(await store.collections.reorder(c.id, [d.id, a.id, a.id], 2_006)).toBe("mismatch");

      expect(await store.collections.removeRequest(c.id, d.id, 2_007)).toBe(true);
      expect(await store.collections.removeRequest(c.id, d.id, 2_008)).toBe(false);
      const after = await store.collections.get(c.id);
      expect(after?.requests.map((r) => [r.name, r.position])).toEqual([
        ["a", 0],
        ["b renamed", 1],
      ]);
      expect(after?.updatedAt).toBe(2_007);
    });

    it("keeps two appends at once in two places", async () => {
      const c = await newCollection(unique("T1:U1"), "T1");
      await Promise.all(Array.from({ length: 6 }, (_, i) => store.collections.addRequest(c.id, fields(`r${i}`), 3_000 + i, 50)));
      const read = await store.collections.get(c.id);
      expect(read?.requests.map((r) => r.position)).toEqual([0, 1, 2, 3, 4, 5]);
    });

    it("finds a collection by its link's hash until the link is revoked; deleting it takes its requests", async () => {
      const c = await newCollection(unique("T1:U1"), "T1", [fields("a")]);
      const hash = unique("hash");
      expect((await store.collections.update(c.id, { linkHash: hash }, 4_000))?.hasLink).toBe(true);
      expect(await store.collections.findByLinkHash(hash)).toBe(c.id);
      expect((await store.collections.update(c.id, { linkHash: null }, 4_001))?.hasLink).toBe(false);
      expect(await store.collections.findByLinkHash(hash)).toBeNull();
      expect(await store.collections.delete(c.id)).toBe(true);
      expect(await store.collections.get(c.id)).toBeNull();
      expect(await store.collections.delete(c.id)).toBe(false);
      expect(await store.collections.update(c.id, { name: "gone" }, 4_002)).toBeNull();
    });

    it("keeps the operator's collections (owner null) apart from everyone's", async () => {
      const c = await newCollection(null, null);
      const listed = await store.collections.list({ owner: null, sharedTeam: null, everyShared: false });
      expect(listed.map((x) => x.id)).toContain(c.id);
      expect(listed.every((x) => x.owner === null)).toBe(true);
    });
  });
}
