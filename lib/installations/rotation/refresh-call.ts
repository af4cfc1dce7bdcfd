import "server-only";
import { AppError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import { refreshAccessToken } from "@/lib/platform";
import type { StoreToken, StoreTokenKind } from "@/lib/store";
import { storedTokenFrom, type InstallationRecord, type StoredToken } from "../record";
import type { RotationRuntime } from "./runtime";

/**
 * The refresh call itself: a refresh token spent at the platform (oauth.v2.access), and the pair it answers.
 * Everything around it (the lock, the intent recorded before it, the settle after it) is freshness.ts's and
 * replay.ts's.
 */

/** oauth.v2.access with a refresh token: the pair the platform issued for it (its time as issuedAt). */
export async function refreshAtPlatform(
  installation: Pick<InstallationRecord, "id" | "appKey">,
  kind: StoreTokenKind,
  refreshToken: string,
  scopes: string[],
  runtime: RotationRuntime,
  timeoutMs: number,
): Promise<StoredToken> {
  // With the embedded emulator, its own fetch (runtime.ts): a refresh storm after a clock jump otherwise sends
  // every refresh through Next.js a second time, back into this process (the soak's profile, docs/benchmarks.md).
  const { grant } = await refreshAccessToken({
    baseUrl: runtime.baseUrl,
    credentials: runtime.credentialsFor(installation.appKey),
    refreshToken,
    timeoutMs,
    ...(runtime.transport ? { transport: runtime.transport } : {}),
  });
  const issued = grant[kind] ?? grant.bot ?? grant.user;
  if (!issued) throw new AppError("upstream_bad_answer", { message: "The platform's refresh answer carried no access token." });
  logger.info({ installation: installation.id, kind }, "token refreshed");
  return storedTokenFrom({ ...issued, scopes: issued.scopes.length > 0 ? issued.scopes : scopes }, runtime.now());
}

/** The store's token for a pair the platform issued. */
export function toIssuedStoreToken(token: StoredToken, nowMs: number): StoreToken {
  return {
    value: token.value,
    ...(token.refreshToken ? { refreshToken: token.refreshToken } : {}),
    ...(token.expiresAt !== undefined ? { expiresAt: token.expiresAt } : {}),
    scopes: token.scopes,
    issuedAt: token.issuedAt ?? nowMs,
  };
}
