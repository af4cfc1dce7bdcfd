import "server-only";
import { UnreadableSecretError, type InstallationSummary, type StoredInstallation } from "@/lib/store";
import { UNREADABLE_SECRETS } from "./universal/lifecycle";

/**
 * An installation whose stored tokens this server cannot open (sealed with a key it does not have: a console
 * started with another SESSION_PASSWORD, a key removed too early), as a list shows it: its names from the
 * store's summary, no token, needing a reinstall, its card saying why and what else to do (give the server the
 * key again). One such record must not take the list of every other installation down with it.
 */
export function readOrUnreadable(read: Promise<StoredInstallation | null>, summary: InstallationSummary): Promise<StoredInstallation | null> {
  return read.catch((error: unknown) => {
    if (!(error instanceof UnreadableSecretError)) throw error;
    const { tokens: _tokens, state: _state, ...names } = summary;
    return { ...names, state: "needs_reinstall", problem: UNREADABLE_SECRETS, updatedAt: summary.installedAt, version: 0 };
  });
}

/** A read of an installation to write over (a reinstall): one whose secrets do not open is none to merge with. */
export function noneIfUnreadable(error: unknown): undefined {
  if (error instanceof UnreadableSecretError) return undefined;
  throw error;
}
