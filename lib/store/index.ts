import "server-only";
import { getConfig } from "@/lib/config";
import { processSingleton } from "@/lib/process-singleton";
import { openStore, type Store } from "./store";
import { passwordsNewestFirst, sealingKeys } from "./sealing";

/**
 * The store of this process: one per process (PGlite is one connection, and a second opener of its
 * DATA_DIR is refused), opened on first use from the configuration (DATABASE_URL, else DATA_DIR;
 * ENCRYPTION_KEYS, else keys derived from SESSION_PASSWORD). An open that failed (a database not up yet)
 * is tried again by the next caller rather than remembered.
 */
export function getStore(): Promise<Store> {
  const holder = processSingleton("store", () => ({ opening: undefined as Promise<Store> | undefined }));
  if (!holder.opening) {
    const config = getConfig();
    const keys = sealingKeys(config.encryptionKeys, passwordsNewestFirst(config.sessionPasswords));
    const opening = openStore(
      config.store.kind === "postgres" ? { kind: "postgres", url: config.store.url, keys } : { kind: "pglite", dataDir: config.store.dataDir, keys },
    );
    holder.opening = opening;
    opening.catch(() => {
      if (holder.opening === opening) holder.opening = undefined;
    });
  }
  return holder.opening;
}

/** Closes the process's store if it was opened (graceful shutdown: PGlite releases its DATA_DIR, PostgreSQL its connections). */
export async function closeStore(): Promise<void> {
  const holder = processSingleton("store", () => ({ opening: undefined as Promise<Store> | undefined }));
  const opening = holder.opening;
  holder.opening = undefined;
  const store = await opening?.catch(() => undefined);
  await store?.close();
}

export type { Store } from "./store";
export { RefreshLockTimeoutError, VersionConflictError } from "./errors";
export { EVERY_OWNER, type OwnerFilter } from "./webhooks";
export * from "./types";
