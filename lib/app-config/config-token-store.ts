import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/http/app-error";
import { deleteCookie, listCookieNames, readSealedCookie } from "@/lib/http/sealed-cookie";
import { getStore, RefreshLockTimeoutError } from "@/lib/store";

/**
 * The app configuration token pair, kept in the server's store (both tokens sealed there, lib/store) and
 * owned by whoever pasted it. It is kept apart from the installations: the pair belongs to a member of a
 * workspace, not to an installation, and it manages the apps, not a workspace's data.
 */

// Each person keeps their own pair (`owner`, runtime.ts configTokenOwner: the member signed in, or null for the operator):
// a configuration token is a person's credential for the apps they manage.

export const storedConfigTokenSchema = z.object({
  token: z.string().regex(/^xoxe\.xoxp-/),
  refreshToken: z.string().regex(/^xoxe-/),
  /** Epoch ms by the platform's clock as this server knows it. */
  expiresAt: z.number(),
  rotatedAt: z.number(),
  teamId: z.string().optional(),
  userId: z.string().optional(),
});

export type StoredConfigToken = z.infer<typeof storedConfigTokenSchema>;

/** The cookie earlier versions sealed the pair in (iron-session), imported into the store when it comes back. */
export const LEGACY_CONFIG_TOKEN_COOKIE = "sb_appcfg";

/**
 * Moves the pair an earlier version sealed in this browser's cookie into the store, then clears the cookie.
 * Of two pairs (the store's, and a cookie of another browser) the one rotated later wins: the other's
 * refresh token was spent to make it, or is older. A cookie that does not unseal (changed, or sealed with a
 * password no longer configured) is cleared, and when the store holds no pair either the person is asked
 * for a new paste (400 `config_token_unreadable`) rather than silently given another backend.
 */
async function importLegacyConfigToken(owner: string | null): Promise<void> {
  if (!(await listCookieNames(LEGACY_CONFIG_TOKEN_COOKIE)).includes(LEGACY_CONFIG_TOKEN_COOKIE)) return;
  const value = await readSealedCookie(LEGACY_CONFIG_TOKEN_COOKIE, storedConfigTokenSchema);
  const store = await getStore();
  const kept = await store.configTokens.get(owner);
  if (value && (!kept || kept.rotatedAt < value.rotatedAt)) await store.configTokens.put(owner, value);
  await deleteCookie(LEGACY_CONFIG_TOKEN_COOKIE);
  if (!value && !kept) throw new AppError("config_token_unreadable");
}

/** The kept pair, or undefined when there is none (an earlier version's cookie imported first). */
export async function readConfigToken(owner: string | null): Promise<StoredConfigToken | undefined> {
  await importLegacyConfigToken(owner);
  const kept = await (await getStore()).configTokens.get(owner);
  if (!kept) return undefined;
  const parsed = storedConfigTokenSchema.safeParse(kept);
  return parsed.success ? parsed.data : undefined;
}

/** Keeps a pair, replacing the one kept (sealed with the newest key). */
export async function writeConfigToken(owner: string | null, value: StoredConfigToken): Promise<void> {
  await (await getStore()).configTokens.put(owner, value);
}

export async function deleteConfigToken(owner: string | null): Promise<void> {
  await (await getStore()).configTokens.delete(owner);
  await deleteCookie(LEGACY_CONFIG_TOKEN_COOKIE);
}

/**
 * Runs `fn` holding the pair's refresh lock (in this process and, with PostgreSQL, across instances): a
 * configuration refresh token is single use, so one rotation at a time, each re-reading the pair under the
 * lock. 503 `refresh_in_progress` when another holds it past the wait.
 */
export async function withConfigTokenLock<T>(owner: string | null, fn: () => Promise<T>): Promise<T> {
  try {
    return await (await getStore()).withRefreshLock(`app-config:${owner ?? "operator"}`, fn);
  } catch (error) {
    if (error instanceof RefreshLockTimeoutError) throw new AppError("refresh_in_progress");
    throw error;
  }
}
