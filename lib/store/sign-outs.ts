import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Db } from "./backend";
import { SIGN_OUT_CHANNEL, type SignOutCache } from "./sign-out-cache";
import { signOuts } from "./sign-out-schema";

/** What the sign-out queries work with: the database, this process's cache, and whether other instances must hear. */
export interface SignOutContext {
  db: Db;
  cache: SignOutCache;
  notifies: boolean;
}

/** How many times the person signed out (0: never), from this process's cache when it holds it. */
export async function signOutGeneration(ctx: SignOutContext, person: string): Promise<number> {
  const cached = ctx.cache.get(person);
  if (cached !== undefined) return cached;
  const ticket = ctx.cache.ticket();
  const [row] = await ctx.db.select({ generation: signOuts.generation }).from(signOuts).where(eq(signOuts.person, person));
  const generation = row?.generation ?? 0;
  ctx.cache.put(person, generation, ticket);
  return generation;
}

/**
 * Counts a sign-out of the person, ending every sign-in sealed before it, and answers the new count. With
 * PostgreSQL, the other instances hear it (NOTIFY, delivered at commit) before they check another cookie
 * of theirs against a count they kept.
 */
export async function recordSignOut(ctx: SignOutContext, person: string, at: number): Promise<number> {
  const ticket = ctx.cache.ticket();
  const generation = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(signOuts)
      .values({ person, generation: 1, signedOutAt: at })
      .onConflictDoUpdate({ target: signOuts.person, set: { generation: sql`${signOuts.generation} + 1`, signedOutAt: at } })
      .returning({ generation: signOuts.generation });
    const next = row!.generation;
    if (ctx.notifies) await tx.execute(sql`select pg_notify(${SIGN_OUT_CHANNEL}, ${`${next} ${person}`})`);
    return next;
  });
  ctx.cache.put(person, generation, ticket);
  return generation;
}
