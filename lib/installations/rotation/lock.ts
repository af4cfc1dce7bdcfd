import type { StoreTokenKind } from "@/lib/store";

/**
 * The refresh lock's key: one refresher per token across every instance, a token being an installation's
 * bot token, or one person's user token (userId; none for a user token that names nobody).
 */
export function refreshLockKey(installationId: string, kind: StoreTokenKind, userId?: string): string {
  return userId ? `refresh:${installationId}:${kind}:${userId}` : `refresh:${installationId}:${kind}`;
}
