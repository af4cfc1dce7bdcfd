import "server-only";
import { sql } from "drizzle-orm";
import type { StoreContext } from "./context";
import { PURPOSE } from "./installations";
import { configTokens } from "./schema";
import type { StoreConfigToken } from "./types";
import { ownedBy } from "./webhooks";

/** App configuration token pairs, one per owner (null: the operator), both tokens sealed. */

export async function getConfigToken(ctx: StoreContext, owner: string | null): Promise<StoreConfigToken | null> {
  const [row] = await ctx.db.select().from(configTokens).where(ownedBy(configTokens.owner, owner));
  if (!row) return null;
  return {
    token: ctx.sealer.unseal(row.tokenSealed, PURPOSE.configToken),
    refreshToken: ctx.sealer.unseal(row.refreshTokenSealed, PURPOSE.configRefreshToken),
    expiresAt: row.expiresAt,
    rotatedAt: row.rotatedAt,
    ...(row.teamId !== null ? { teamId: row.teamId } : {}),
    ...(row.userId !== null ? { userId: row.userId } : {}),
  };
}

/** Stores (or replaces) the owner's pair, sealed with the newest key. */
export async function putConfigToken(ctx: StoreContext, owner: string | null, value: StoreConfigToken): Promise<void> {
  const sealed = {
    tokenSealed: ctx.sealer.seal(value.token, PURPOSE.configToken),
    refreshTokenSealed: ctx.sealer.seal(value.refreshToken, PURPOSE.configRefreshToken),
    expiresAt: value.expiresAt,
    rotatedAt: value.rotatedAt,
    teamId: value.teamId ?? null,
    userId: value.userId ?? null,
  };
  // The owner's row is found by the unique index on coalesce(owner, ''), which drizzle's builder cannot name as a target.
  await ctx.db.execute(sql`
    insert into ${configTokens} (owner, token_sealed, refresh_token_sealed, expires_at, rotated_at, team_id, user_id)
    values (${owner}, ${sealed.tokenSealed}, ${sealed.refreshTokenSealed}, ${sealed.expiresAt}, ${sealed.rotatedAt}, ${sealed.teamId}, ${sealed.userId})
    on conflict ((coalesce(owner, ''))) do update set
      token_sealed = excluded.token_sealed, refresh_token_sealed = excluded.refresh_token_sealed, expires_at = excluded.expires_at,
      rotated_at = excluded.rotated_at, team_id = excluded.team_id, user_id = excluded.user_id`);
}

export async function deleteConfigToken(ctx: StoreContext, owner: string | null): Promise<boolean> {
  const deleted = await ctx.db.delete(configTokens).where(ownedBy(configTokens.owner, owner)).returning({ id: configTokens.id });
  return deleted.length > 0;
}
