import { describe, expect, it } from "vitest";
import { ApiKeyCache, MAX_ENTRIES as MAX_KEYS } from "@/lib/store/api-key-cache";
import { InstallationCache, MAX_ENTRIES as MAX_INSTALLATIONS } from "@/lib/store/installation-cache";
import type { StoreApiKey, StoredInstallation } from "@/lib/store";

// The token API's warm path (issue 43) reads keys, workspaces' installations and installations from these
// caches (PGlite's shape here: no LISTEN, every write is this process's). What they keep is bounded and
// dropped by exactly the changes that make it wrong.

const installation = (id: string, version = 1): StoredInstallation =>
  ({ id, appKey: "console", team: { id: id.split("-")[0]!, name: "Acme" }, state: "active", installedAt: 1, updatedAt: 1, version }) as StoredInstallation;
const key = (id: string, revokedAt?: number): StoreApiKey => ({
  id,
  name: id,
  prefix: "sbk_abcd",
  appKey: "console",
  teamIds: null,
  createdAt: 1,
  ...(revokedAt ? { revokedAt } : {}),
});

describe("the installation cache", () => {
  it(`keeps at most ${MAX_INSTALLATIONS.toLocaleString("en-US")} installations, dropping the least recently read`, () => {
    const cache = new InstallationCache();
    for (let i = 0; i < MAX_INSTALLATIONS; i++) cache.put(`T${i}-A1`, installation(`T${i}-A1`), cache.ticket(`T${i}-A1`));
    // The oldest one put is read again: the next oldest is the one that goes.
    expect(cache.get("T0-A1")?.id).toBe("T0-A1");
    cache.put("TNEW-A1", installation("TNEW-A1"), cache.ticket("TNEW-A1"));
    expect(cache.get("T0-A1")?.id).toBe("T0-A1");
    expect(cache.get("T1-A1")).toBeUndefined();
    expect(cache.get("TNEW-A1")?.id).toBe("TNEW-A1");
    expect(cache.get(`T${MAX_INSTALLATIONS - 1}-A1`)?.id).toBe(`T${MAX_INSTALLATIONS - 1}-A1`);
  });

  it(`tracks at most ${MAX_INSTALLATIONS.toLocaleString("en-US")} written ids, and a read in flight when it starts over is not kept`, () => {
    const cache = new InstallationCache();
    const inFlight = cache.ticket("T0-A1");
    for (let i = 0; i <= MAX_INSTALLATIONS + 10; i++) cache.invalidate(`T${i + 1}-A1`);
    const generations = (cache as unknown as { generations: Map<string, number> }).generations;
    expect(generations.size).toBeLessThanOrEqual(MAX_INSTALLATIONS);
    // Read before: overtaken by the start over, so not stored.
    cache.put("T0-A1", installation("T0-A1"), inFlight);
    expect(cache.get("T0-A1")).toBeUndefined();
    cache.put("T0-A1", installation("T0-A1"), cache.ticket("T0-A1"));
    expect(cache.get("T0-A1")?.id).toBe("T0-A1");
  });

  it("hands the token API its own record frozen, which a caller cannot change for the next one, and others a copy", () => {
    const cache = new InstallationCache();
    const record = { ...installation("T1-A1"), bot: { value: "xoxb-1", scopes: ["chat:write"], issuedAt: 1 } } as StoredInstallation;
    cache.put("T1-A1", record, cache.ticket("T1-A1"));
    // What was put is the caller's: changing it afterwards changes nothing kept.
    record.bot!.value = "xoxb-changed";
    const shared = cache.get("T1-A1", { shared: true })!;
    expect(shared.bot!.value).toBe("xoxb-1");
    expect(() => {
      shared.bot!.value = "xoxb-stolen";
    }).toThrow(TypeError);
    expect(() => shared.bot!.scopes.push("admin")).toThrow(TypeError);
    expect(() => {
      shared.team.name = "Evil";
    }).toThrow(TypeError);
    // No copy per read: the same record each time.
    expect(cache.get("T1-A1", { shared: true })).toBe(shared);
    // Without `shared`, a copy the caller may change, and the cache's record stays as it was.
    const copy = cache.get("T1-A1")!;
    copy.bot!.value = "xoxb-mine";
    copy.bot!.scopes.push("admin");
    expect(cache.get("T1-A1", { shared: true })!.bot).toEqual({ value: "xoxb-1", scopes: ["chat:write"], issuedAt: 1 });
  });

  it("hands the token API's warm path a workspace's installations frozen (no copy per read), and others a copy", () => {
    const cache = new InstallationCache();
    const refs = [{ id: "T1-A1", appKey: "console", appId: "A1" }];
    cache.putTeam("T1", refs, cache.teamTicket());
    refs[0]!.id = "T1-EVIL";
    const shared = cache.getTeam("T1", { shared: true })!;
    expect(shared).toEqual([{ id: "T1-A1", appKey: "console", appId: "A1" }]);
    expect(() => shared.push({ id: "T1-A2", appKey: "console" })).toThrow(TypeError);
    expect(() => {
      shared[0]!.appKey = "legacy";
    }).toThrow(TypeError);
    expect(cache.getTeam("T1", { shared: true })).toBe(shared);
    const copy = cache.getTeam("T1")!;
    copy[0]!.id = "T1-MINE";
    expect(cache.getTeam("T1", { shared: true })![0]!.id).toBe("T1-A1");
  });

  it("keeps a workspace's installations until one is made or deleted, not while they change", () => {
    const cache = new InstallationCache();
    cache.putTeam("T1", [{ id: "T1-A1", appKey: "console", appId: "A1" }], cache.teamTicket());
    // A refresh (a write to an installation that exists) leaves the list as it is.
    cache.invalidate("T1-A1");
    cache.heard("7 T1-A1");
    expect(cache.getTeam("T1")).toEqual([{ id: "T1-A1", appKey: "console", appId: "A1" }]);
    // A new installation, made here or announced by another instance (version 1), or one deleted: read again.
    cache.invalidate("T1-A2", { made: true });
    expect(cache.getTeam("T1")).toBeUndefined();
    cache.putTeam("T1", [{ id: "T1-A1", appKey: "console" }], cache.teamTicket());
    cache.heard("1 T1-A2");
    expect(cache.getTeam("T1")).toBeUndefined();
    cache.putTeam("T1", [{ id: "T1-A1", appKey: "console" }], cache.teamTicket());
    cache.heard("deleted T1-A1");
    expect(cache.getTeam("T1")).toBeUndefined();
  });

  it("does not keep a workspace's list read before an installation was made (a read overtaken by the change)", () => {
    const cache = new InstallationCache();
    const ticket = cache.teamTicket();
    cache.heard("1 T1-A2");
    cache.putTeam("T1", [], ticket);
    expect(cache.getTeam("T1")).toBeUndefined();
  });
});

describe("the API key cache", () => {
  it("forgets a revoked key, and does not keep a read that began before the revoke", () => {
    const cache = new ApiKeyCache();
    cache.put("hash-1", key("key_1"), cache.ticket());
    cache.put("hash-2", key("key_2"), cache.ticket());
    const before = cache.ticket();
    cache.forget("key_1");
    expect(cache.get("hash-1")).toBeUndefined();
    expect(cache.get("hash-2")?.id).toBe("key_2");
    // What a read begun before the revoke found (the key not yet revoked) is not kept.
    cache.put("hash-1", key("key_1"), before);
    expect(cache.get("hash-1")).toBeUndefined();
    cache.put("hash-1", key("key_1", 5), cache.ticket());
    expect(cache.get("hash-1")?.revokedAt).toBe(5);
  });

  it("hands out the key frozen, without a copy: a caller cannot change what the next request reads", () => {
    const cache = new ApiKeyCache();
    const put = { ...key("key_1"), teamIds: ["T1"] };
    cache.put("hash-1", put, cache.ticket());
    put.teamIds.push("T2");
    const got = cache.get("hash-1")!;
    expect(got.teamIds).toEqual(["T1"]);
    expect(() => {
      got.revokedAt = undefined;
    }).toThrow(TypeError);
    expect(() => got.teamIds!.push("T2")).toThrow(TypeError);
    expect(cache.get("hash-1")).toBe(got);
    expect(cache.get("hash-1")?.teamIds).toEqual(["T1"]);
  });

  it(`keeps at most ${MAX_KEYS.toLocaleString("en-US")} keys, dropping the least recently used`, () => {
    const cache = new ApiKeyCache();
    for (let i = 0; i < MAX_KEYS; i++) cache.put(`hash-${i}`, key(`key_${i}`), cache.ticket());
    expect(cache.get("hash-0")?.id).toBe("key_0");
    cache.put("hash-new", key("key_new"), cache.ticket());
    expect(cache.get("hash-0")?.id).toBe("key_0");
    expect(cache.get("hash-1")).toBeUndefined();
  });
});
