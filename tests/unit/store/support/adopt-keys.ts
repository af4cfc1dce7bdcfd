import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { OpenStoreOptions } from "@/lib/store/store";
import { openStore } from "@/lib/store/store";
import { sealingKeys, type SealingKey } from "@/lib/store/sealing";
import { installation, secret, token } from "./contract";

/**
 * Issue 37.6, on both engines: a store sealed with the keys SESSION_PASSWORD derives, restarted with
 * ENCRYPTION_KEYS. Each test opens the store with one set of keys at a time (one process per DATA_DIR), as
 * a console restarted with another environment does.
 */
export function adoptKeysSuite(engine: string, where: () => Promise<Omit<OpenStoreOptions, "keys">>): void {
  const sessionPassword = randomBytes(32).toString("base64url");
  const k1 = randomBytes(32).toString("base64");

  async function withStore<T>(keys: SealingKey[], fn: (store: Awaited<ReturnType<typeof openStore>>) => Promise<T>): Promise<T> {
    const store = await openStore({ ...(await where()), keys } as OpenStoreOptions);
    try {
      return await fn(store);
    } finally {
      await store.close();
    }
  }

  describe(`adopting ENCRYPTION_KEYS on a store sealed with SESSION_PASSWORD's keys (${engine})`, () => {
    const record = installation({ bot: token(), people: { U0002: token({ value: secret("xoxe.xoxp-1-") }) } });
    const pastedUrl = `https://hooks.example.test/services/T0001/B0002/${secret("")}`;
    const config = { token: secret("xoxe.xoxp-1-"), refreshToken: secret("xoxe-1-"), expiresAt: 1_900_000_000_000, rotatedAt: 1_800_000_000_000 };

    it("keeps opening what SESSION_PASSWORD's key sealed, re-seals it all with the new key, then no longer needs the old one", async () => {
      await withStore(sealingKeys([], [sessionPassword]), async (store) => {
        await store.installations.put(record);
        await store.webhooks.add({ owner: null, url: pastedUrl, label: "idle", maskedUrl: "…", createdAt: 1 });
        await store.configTokens.put(null, config);
        expect((await store.sealingStatus()).summary).toMatch(/^Every secret in the store is sealed with SESSION_PASSWORD \(derived\)/);
      });

      // Restarted with ENCRYPTION_KEYS=K1 (SESSION_PASSWORD unchanged, as the cookies need it).
      await withStore(sealingKeys([k1], [sessionPassword]), async (store) => {
        expect((await store.installations.get(record.id))?.bot?.value).toBe(record.bot!.value);
        const before = await store.sealingStatus();
        expect(before.missing).toEqual([]);
        expect(before.older).toEqual([{ keyId: expect.any(String), source: "SESSION_PASSWORD (derived)", secrets: 10 }]);
        expect(before.summary).toContain("keep those keys until this says none is left");

        expect(await store.resealOlderSecrets()).toEqual({ resealed: 10, unreadable: 0 });
        const after = await store.sealingStatus();
        expect(after.older).toEqual([]);
        expect(after.unused).toEqual(["SESSION_PASSWORD (derived)"]);
        expect(after.summary).toMatch(/^Every secret in the store is sealed with ENCRYPTION_KEYS .*The store no longer needs SESSION_PASSWORD \(derived\)/);
        expect(await store.resealOlderSecrets()).toEqual({ resealed: 0, unreadable: 0 });
      });

      // The old key gone for good (another SESSION_PASSWORD): every secret still opens, idle ones included.
      await withStore(sealingKeys([k1], [randomBytes(32).toString("base64url")]), async (store) => {
        const read = await store.installations.get(record.id);
        expect([read?.bot?.value, read?.user?.value, read?.people?.U0002?.value, read?.incomingWebhook?.url]).toEqual([
          record.bot!.value,
          record.user!.value,
          record.people!.U0002!.value,
          record.incomingWebhook!.url,
        ]);
        expect((await store.webhooks.list(null)).map((h) => h.url)).toContain(pastedUrl);
        expect(await store.configTokens.get(null)).toMatchObject({ token: config.token, refreshToken: config.refreshToken });
        expect((await store.sealingStatus()).missing).toEqual([]);
      });
      // Three opens, as three restarts: PGlite compiles its WebAssembly at each.
    }, 120_000);

    it("follows the old advice too: a SESSION_PASSWORD put into ENCRYPTION_KEYS opens what it sealed", async () => {
      const password = `${randomBytes(24).toString("base64url")}-a-session-password`;
      const other = installation();
      await withStore(sealingKeys([], [password]), (store) => store.installations.put(other));
      await withStore(sealingKeys([k1, password], [randomBytes(32).toString("base64url")]), async (store) => {
        expect((await store.installations.get(other.id))?.bot?.value).toBe(other.bot!.value);
        await store.installations.delete(other.id);
      });
    }, 60_000);

    it("says which secrets cannot be opened and with which key, and leaves them as they are", async () => {
      const stranger = installation();
      const strangerKeys = sealingKeys([], [randomBytes(32).toString("base64url")]);
      await withStore(strangerKeys, (store) => store.installations.put(stranger));
      await withStore(sealingKeys([k1], [sessionPassword]), async (store) => {
        const status = await store.sealingStatus();
        expect(status.missing).toEqual([{ keyId: strangerKeys[0]!.id, source: null, secrets: 5 }]);
        expect(status.summary).toContain(`cannot be opened`);
        expect(status.summary).toContain(strangerKeys[0]!.id);
        expect((await store.resealOlderSecrets()).unreadable).toBe(5);
        await expect(store.installations.get(stranger.id)).rejects.toMatchObject({ code: "store_unavailable", keyId: strangerKeys[0]!.id });
        await store.installations.delete(stranger.id);
        expect((await store.sealingStatus()).missing).toEqual([]);
      });
    }, 60_000);
  });
}
