import "server-only";
import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull, lt, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { StoreContext } from "./context";
import { PURPOSE } from "./installations";
import { pastedWebhooks, webhookSends } from "./schema";
import { secretHash } from "./sealing";
import type { StorePastedWebhook, WebhookSend } from "./types";

/** Pasted incoming webhooks (the URL sealed) and the webhook proxy's send history, per owner (null: the operator). */

/** Names no owner in particular: an admin's lookup of pasted webhooks, whoever pasted them. */
export const EVERY_OWNER: unique symbol = Symbol("every owner");
export type OwnerFilter = string | null | typeof EVERY_OWNER;

/** Rows of this owner: null (the operator) is a value here, not "unknown"; EVERY_OWNER filters nothing. */
export function ownedBy(column: PgColumn, owner: OwnerFilter | undefined): SQL | undefined {
  if (owner === EVERY_OWNER) return undefined;
  return owner === null || owner === undefined ? isNull(column) : eq(column, owner);
}

type PastedRow = typeof pastedWebhooks.$inferSelect;

function pastedFromRow(ctx: StoreContext, row: PastedRow): StorePastedWebhook {
  return {
    id: row.id,
    ...(row.owner !== null ? { owner: row.owner } : {}),
    label: row.label,
    url: ctx.sealer.unseal(row.urlSealed, PURPOSE.pastedUrl),
    maskedUrl: row.maskedUrl,
    createdAt: row.createdAt,
  };
}

export async function listPastedWebhooks(ctx: StoreContext, owner: OwnerFilter): Promise<StorePastedWebhook[]> {
  const rows = await ctx.db
    .select()
    .from(pastedWebhooks)
    .where(ownedBy(pastedWebhooks.owner, owner))
    .orderBy(asc(pastedWebhooks.createdAt), asc(pastedWebhooks.id));
  return rows.map((row) => pastedFromRow(ctx, row));
}

export async function getPastedWebhook(ctx: StoreContext, owner: OwnerFilter, id: string): Promise<StorePastedWebhook | null> {
  const [row] = await ctx.db
    .select()
    .from(pastedWebhooks)
    .where(and(eq(pastedWebhooks.id, id), ownedBy(pastedWebhooks.owner, owner)));
  return row ? pastedFromRow(ctx, row) : null;
}

/**
 * Keeps a pasted webhook (the caller has checked the URL and made its masked form and label). Pasting a URL
 * this owner already has answers the one kept, unchanged.
 */
export async function addPastedWebhook(
  ctx: StoreContext,
  hook: { owner: string | null; url: string; label: string; maskedUrl: string; createdAt: number; id?: string },
): Promise<StorePastedWebhook> {
  const urlHash = secretHash(hook.url);
  const id = hook.id ?? `wh_${randomBytes(9).toString("base64url")}`;
  const inserted = await ctx.db
    .insert(pastedWebhooks)
    .values({
      id,
      owner: hook.owner,
      label: hook.label,
      urlSealed: ctx.sealer.seal(hook.url, PURPOSE.pastedUrl),
      urlHash,
      maskedUrl: hook.maskedUrl,
      createdAt: hook.createdAt,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted[0]) return pastedFromRow(ctx, inserted[0]);
  const [existing] = await ctx.db
    .select()
    .from(pastedWebhooks)
    .where(and(eq(pastedWebhooks.urlHash, urlHash), ownedBy(pastedWebhooks.owner, hook.owner)));
  if (!existing) throw new Error(`pasted webhook id ${id} is taken`);
  return pastedFromRow(ctx, existing);
}

/** Renames a pasted webhook; null when this owner has none with that id. Its URL is re-sealed with the newest key. */
export async function renamePastedWebhook(ctx: StoreContext, owner: OwnerFilter, id: string, label: string): Promise<StorePastedWebhook | null> {
  const current = await getPastedWebhook(ctx, owner, id);
  if (!current) return null;
  const [row] = await ctx.db
    .update(pastedWebhooks)
    .set({ label, urlSealed: ctx.sealer.seal(current.url, PURPOSE.pastedUrl) })
    .where(and(eq(pastedWebhooks.id, id), ownedBy(pastedWebhooks.owner, owner)))
    .returning();
  return row ? pastedFromRow(ctx, row) : null;
}

export async function removePastedWebhook(ctx: StoreContext, owner: OwnerFilter, id: string): Promise<boolean> {
  const deleted = await ctx.db
    .delete(pastedWebhooks)
    .where(and(eq(pastedWebhooks.id, id), ownedBy(pastedWebhooks.owner, owner)))
    .returning({ id: pastedWebhooks.id });
  return deleted.length > 0;
}

/** How many sends an owner's history keeps by default. */
export const DEFAULT_SENDS_KEPT = 200;

type SendRow = typeof webhookSends.$inferSelect;

function sendFromRow(row: SendRow): WebhookSend {
  return {
    id: row.id,
    webhookId: row.webhookId,
    webhookLabel: row.webhookLabel,
    sentAt: row.sentAt,
    preview: row.preview,
    status: row.status,
    ok: row.ok,
    result: row.result,
    durationMs: row.durationMs,
  };
}

/** Records a send and drops the owner's oldest beyond `keep` (default 200), in one transaction. */
export async function recordWebhookSend(ctx: StoreContext, owner: string | null, send: WebhookSend, options: { keep?: number } = {}): Promise<void> {
  const keep = Math.max(1, options.keep ?? DEFAULT_SENDS_KEPT);
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookSends)
      .values({ ...send, owner })
      .returning({ seq: webhookSends.seq });
    const old = await tx
      .select({ seq: webhookSends.seq })
      .from(webhookSends)
      .where(and(ownedBy(webhookSends.owner, owner), lt(webhookSends.seq, row!.seq)))
      .orderBy(desc(webhookSends.seq))
      .offset(keep - 1);
    if (old.length > 0) {
      await tx.delete(webhookSends).where(
        inArray(
          webhookSends.seq,
          old.map((o) => o.seq),
        ),
      );
    }
  });
}

/** The owner's sends, newest first (at most `limit`, default 50). */
export async function listWebhookSends(ctx: StoreContext, owner: string | null, limit = 50): Promise<WebhookSend[]> {
  const rows = await ctx.db.select().from(webhookSends).where(ownedBy(webhookSends.owner, owner)).orderBy(desc(webhookSends.seq)).limit(Math.max(1, limit));
  return rows.map(sendFromRow);
}
