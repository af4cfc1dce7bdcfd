import "server-only";
import { getConfig } from "@/lib/config";
import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process-singleton";
import { openStore, type Store } from "./store";
import { passwordsNewestFirst, sealingKeys } from "./sealing";

/**
 * The store of this process: one per process (PGlite is one connection, and a second opener of its
 * DATA_DIR is refused), opened on first use from the configuration (DATABASE_URL, else DATA_DIR;
 * ENCRYPTION_KEYS, else keys derived from SESSION_PASSWORD). An open that failed (a database not up yet)
 * is tried again by the next caller rather than remembered.
 */
interface StoreHolder {
  opening: Promise<Store> | undefined;
  /** The store once `opening` resolved: what peekStore answers without a promise. */
  opened: Store | undefined;
}

const storeHolder = () => processSingleton("store", (): StoreHolder => ({ opening: undefined, opened: undefined }));

export function getStore(): Promise<Store> {
  const holder = storeHolder();
  if (!holder.opening) {
    const config = getConfig();
    const keys = sealingKeys(config.encryptionKeys, passwordsNewestFirst(config.sessionPasswords));
    const opening = openStore(
      config.store.kind === "postgres" ? { kind: "postgres", url: config.store.url, keys } : { kind: "pglite", dataDir: config.store.dataDir, keys },
    );
    holder.opening = opening;
    opening.then(
      (store) => {
        if (holder.opening === opening) holder.opened = store;
      },
      () => {},
    );
    opening.then(resealInBackground, () => {
      if (holder.opening === opening) holder.opening = undefined;
    });
  }
  return holder.opening;
}

/**
 * The process's store if it is open, without a promise (the token API's warm path); undefined before the
 * first open completes (getStore opens it) or after closeStore.
 */
export function peekStore(): Store | undefined {
  return storeHolder().opened;
}

/**
 * Once the store is open, re-seals with the current key whatever older keys sealed (idle secrets included),
 * then says in the log which keys the store still needs: the line an operator waits for before removing an
 * old key (GET /api/ready's `secrets` check says the same at any time).
 */
async function resealInBackground(store: Store): Promise<void> {
  try {
    const { resealed, unreadable } = await store.resealOlderSecrets();
    const status = await store.sealingStatus();
    const fields = { resealed, unreadable, currentKey: status.current.keyId, missingKeys: status.missing.map((m) => m.keyId) };
    if (status.missing.length > 0 || unreadable > 0) logger.error(fields, `store secrets: ${status.summary}`);
    else logger.info(fields, `store secrets: ${status.summary}`);
  } catch (error) {
    logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      "store secrets: re-sealing with the current key failed; the next start tries again",
    );
  }
}

/** Closes the process's store if it was opened (graceful shutdown: PGlite releases its DATA_DIR, PostgreSQL its connections). */
export async function closeStore(): Promise<void> {
  const holder = storeHolder();
  const opening = holder.opening;
  holder.opening = undefined;
  holder.opened = undefined;
  const store = await opening?.catch(() => undefined);
  await store?.close();
}

export type { Store } from "./store";
export { RefreshLockTimeoutError, UnreadableSecretError, VersionConflictError } from "./errors";
export { EVERY_OWNER, type OwnerFilter } from "./webhooks";
export * from "./types";
export type { NewHistoryEntry, StoreHistoryEntry, StoreHistorySummary } from "./history";
