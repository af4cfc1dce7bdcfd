import "server-only";
import { processSingleton } from "@/lib/process-singleton";
import { getStore } from "@/lib/store";
import type { StoreApiKey } from "@/lib/store";

/**
 * How long this process trusts what it read of a key (its scope, whether it is revoked): a revoke made on
 * this instance applies at once (forgetApiKey), one made on another within this long.
 */
const KEY_CACHE_MS = 2_000;

const keyCache = () => processSingleton("tokenApiKeys", () => new Map<string, { key: StoreApiKey | null; readAt: number }>());

/** The key with this hash (revoked or not), as read at most KEY_CACHE_MS ago; null for none. */
export async function findKey(hash: string): Promise<StoreApiKey | null> {
  const cache = keyCache();
  const cached = cache.get(hash);
  if (cached && Date.now() - cached.readAt < KEY_CACHE_MS) return cached.key;
  const key = await (await getStore()).apiKeys.findByHash(hash);
  if (cache.size > 10_000) cache.clear();
  // Unknown keys are not kept: a guesser must not fill the cache.
  if (key) cache.set(hash, { key, readAt: Date.now() });
  return key;
}

/** Forgets what this process read of keys (after a revoke here: it applies to the next request). */
export function forgetApiKeys(): void {
  keyCache().clear();
}
