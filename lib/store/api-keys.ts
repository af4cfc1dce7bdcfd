import "server-only";
import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import { KEY_CHANNEL, type ApiKeyCache } from "./api-key-cache";
import type { StoreContext } from "./context";
import { apiKeys, tokenApiUses } from "./schema";
import type { StoreApiKey, StoreTokenApiUse } from "./types";

/** The token API's keys (only their hashes) and its audit of every use. */

/** The store's context with its copy of the keys (api-key-cache.ts). */
export type ApiKeyContext = StoreContext & { keys: ApiKeyCache };

type KeyRow = typeof apiKeys.$inferSelect;

function keyFromRow(row: KeyRow): StoreApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    appKey: row.appKey,
    ...(row.appId !== null ? { appId: row.appId } : {}),
    teamIds: row.teamIds ?? null,
    createdAt: row.createdAt,
    ...(row.createdBy !== null ? { createdBy: row.createdBy } : {}),
    ...(row.revokedAt !== null ? { revokedAt: row.revokedAt } : {}),
    ...(row.lastUsedAt !== null ? { lastUsedAt: row.lastUsedAt } : {}),
  };
}

export async function createApiKey(ctx: StoreContext, key: StoreApiKey & { keyHash: string }): Promise<StoreApiKey> {
  const [row] = await ctx.db
    .insert(apiKeys)
    .values({
      id: key.id,
      name: key.name,
      keyHash: key.keyHash,
      prefix: key.prefix,
      appKey: key.appKey,
      appId: key.appId ?? null,
      teamIds: key.teamIds,
      createdAt: key.createdAt,
      createdBy: key.createdBy ?? null,
    })
    .returning();
  return keyFromRow(row!);
}

/** Every key, newest first, revoked ones too (their audit stays). */
export async function listApiKeys(ctx: StoreContext): Promise<StoreApiKey[]> {
  return (await ctx.db.select().from(apiKeys).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))).map(keyFromRow);
}

/** The key whose hash this is, revoked or not (the caller says which it is), or null. From the cache once seen. */
export async function findApiKeyByHash(ctx: ApiKeyContext, keyHash: string): Promise<StoreApiKey | null> {
  const cached = ctx.keys.get(keyHash);
  if (cached) return cached;
  const ticket = ctx.keys.ticket();
  const [row] = await ctx.db.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash));
  if (!row) return null;
  const key = keyFromRow(row);
  ctx.keys.put(keyHash, key, ticket);
  return key;
}

/**
 * Revokes a key (once: a second revoke keeps the first time); null when there is none. Every instance hears
 * of it (NOTIFY, delivered at commit) and forgets what it kept of the key.
 */
export async function revokeApiKey(ctx: ApiKeyContext, id: string, at: number): Promise<StoreApiKey | null> {
  try {
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
      if (ctx.notifies) await tx.execute(sql`select pg_notify(${KEY_CHANNEL}, ${id})`);
    });
  } finally {
    ctx.keys.forget(id);
  }
  const [row] = await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return row ? keyFromRow(row) : null;
}

/**
 * Records uses of the token API (a batch, in the order they happened) and each key's last use, in one
 * transaction of two statements: the batch goes as one JSON parameter that PostgreSQL unpacks
 * (`jsonb_to_recordset`), and one UPDATE sets every key's last use. Building a multi-row insert of 9
 * parameters a use, and an UPDATE per key, was about 30 µs of each answer's server time.
 */
export async function recordTokenApiUses(ctx: StoreContext, uses: StoreTokenApiUse[]): Promise<void> {
  if (uses.length === 0) return;
  const lastUse = new Map<string, number>();
  for (const use of uses) lastUse.set(use.keyId, Math.max(lastUse.get(use.keyId) ?? 0, use.at));
  const rows = JSON.stringify(
    uses.map((use) => ({
      key_id: use.keyId,
      team_id: use.teamId,
      installation_id: use.installationId ?? null,
      kind: use.kind,
      user_id: use.userId ?? null,
      refreshed: use.refreshed,
      status: use.status,
      error: use.error ?? null,
      at: use.at,
    })),
  );
  const keys = JSON.stringify([...lastUse].map(([id, at]) => ({ id, at })));
  await ctx.db.transaction(async (tx) => {
    // Rows come out of jsonb_to_recordset in the array's order, so seq follows the order they happened in.
    await tx.execute(sql`
      insert into ${tokenApiUses} (key_id, team_id, installation_id, kind, user_id, refreshed, status, error, at)
      select key_id, team_id, installation_id, kind, user_id, refreshed, status, error, at
      from jsonb_to_recordset(${rows}::jsonb) as u(key_id text, team_id text, installation_id text, kind text,
        user_id text, refreshed boolean, status integer, error text, at bigint)`);
    // Keys locked in one order on every instance (ORDER BY before FOR UPDATE): two instances' batches that
    // touch the same keys then wait for each other instead of deadlocking (PostgreSQL aborted one in four
    // batches of a two-instance soak when each instance updated its keys in its own order).
    await tx.execute(sql`
      update ${apiKeys} set last_used_at = greatest(coalesce(${apiKeys}.last_used_at, 0), l.at)
      from (
        select k.id, u.at from ${apiKeys} k join jsonb_to_recordset(${keys}::jsonb) as u(id text, at bigint) on k.id = u.id
        order by k.id for update of k
      ) l
      where ${apiKeys}.id = l.id`);
  });
}

/** A key's uses, newest first (`before`: the last page's oldest seq). */
export async function listTokenApiUses(
  ctx: StoreContext,
  keyId: string,
  options: { limit?: number; before?: number } = {},
): Promise<Array<StoreTokenApiUse & { seq: number }>> {
  const rows = await ctx.db
    .select()
    .from(tokenApiUses)
    .where(and(eq(tokenApiUses.keyId, keyId), options.before !== undefined ? lt(tokenApiUses.seq, options.before) : undefined))
    .orderBy(desc(tokenApiUses.seq))
    .limit(Math.min(Math.max(options.limit ?? 50, 1), 200));
  return rows.map((r) => ({
    seq: r.seq,
    keyId: r.keyId,
    teamId: r.teamId,
    ...(r.installationId !== null ? { installationId: r.installationId } : {}),
    kind: r.kind as StoreTokenApiUse["kind"],
    ...(r.userId !== null ? { userId: r.userId } : {}),
    refreshed: r.refreshed,
    status: r.status,
    ...(r.error !== null ? { error: r.error } : {}),
    at: r.at,
  }));
}

/** Forgets uses audited before `before` (the audit keeps a window, not everything for ever); answers how many went. */
export async function pruneTokenApiUses(ctx: StoreContext, before: number): Promise<number> {
  const deleted = await ctx.db.delete(tokenApiUses).where(lt(tokenApiUses.at, before)).returning({ seq: tokenApiUses.seq });
  return deleted.length;
}
