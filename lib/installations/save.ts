import "server-only";
import { tokenFingerprint, type InstallationRecord } from "./record";
import { saveInstallation } from "./store";

/** Every installation write goes through here: the store's conditional write, merged when another request wrote first (store.ts). */
export async function save(installation: InstallationRecord, readAs?: InstallationRecord): Promise<InstallationRecord> {
  return saveInstallation(installation, readAs ? { readAs } : {});
}

/**
 * Writes the installation only when its tokens, state or timeline differ from what this request last
 * read or wrote, so a call that changed nothing (the hot path) writes nothing.
 */
export function persistIfChanged(original: InstallationRecord) {
  let last = tokenFingerprint(original);
  // What the store holds as far as this request knows: a change that only adds timeline entries to it is appended alone.
  let base = original;
  return async (updated: InstallationRecord) => {
    const next = tokenFingerprint(updated);
    if (next === last) return;
    last = next;
    base = await save(updated, base);
  };
}
