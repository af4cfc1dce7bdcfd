import "server-only";
import { and, asc, count, eq, inArray, isNull, or, type SQL } from "drizzle-orm";
import type { StoreContext } from "./context";
import type { Tx } from "./backend";
import { collections, savedRequests } from "./schema";

/**
 * Collections of saved requests (lib/collections decides who may do what; this module only keeps them).
 * A collection's requests keep positions 0…n-1: every write that moves or removes one renumbers them in
 * the same transaction, so a reader never sees a gap or two requests in one place.
 */

export interface StoreRequestArg {
  key: string;
  value: string;
}

/** A value of a step's answer given to a later step's argument: `param` ← step `step`'s (1-based) `path`. */
export interface StoreBinding {
  param: string;
  step: number;
  path: string;
}

/** What a saved request is, without where it sits. */
export interface StoreRequestFields {
  name: string;
  method: string;
  httpMethod: "GET" | "POST";
  encoding: "form" | "json";
  tokenKind: "bot" | "user";
  args: StoreRequestArg[];
  bindings: StoreBinding[];
}

export interface StoreSavedRequest extends StoreRequestFields {
  id: string;
  position: number;
  createdAt: number;
  updatedAt: number;
}

export interface StoreCollection {
  id: string;
  owner: string | null;
  ownerName: string;
  teamId: string | null;
  name: string;
  sharedWithTeam: boolean;
  /** A share link is live (the link itself is not kept). */
  hasLink: boolean;
  createdAt: number;
  updatedAt: number;
  requestCount: number;
}

export interface StoreCollectionWithRequests extends StoreCollection {
  requests: StoreSavedRequest[];
}

export interface NewCollection {
  id: string;
  owner: string | null;
  ownerName: string;
  teamId: string | null;
  name: string;
  at: number;
  requests: Array<StoreRequestFields & { id: string }>;
}

/** Which collections a list shows: the owner's, those shared with a team, or (an admin's list) every shared one. */
export interface CollectionListFilter {
  owner: string | null;
  sharedTeam: string | null;
  everyShared: boolean;
}

type CollectionRow = typeof collections.$inferSelect;
type RequestRow = typeof savedRequests.$inferSelect;

const ownerIs = (owner: string | null): SQL => (owner === null ? isNull(collections.owner) : eq(collections.owner, owner));

function collectionFromRow(row: CollectionRow, requestCount: number): StoreCollection {
  return {
    id: row.id,
    owner: row.owner,
    ownerName: row.ownerName,
    teamId: row.teamId,
    name: row.name,
    sharedWithTeam: row.sharedWithTeam,
    hasLink: row.linkHash !== null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    requestCount,
  };
}

function requestFromRow(row: RequestRow): StoreSavedRequest {
  return {
    id: row.id,
    position: row.position,
    name: row.name,
    method: row.method,
    httpMethod: row.httpMethod as StoreSavedRequest["httpMethod"],
    encoding: row.encoding as StoreSavedRequest["encoding"],
    tokenKind: row.tokenKind as StoreSavedRequest["tokenKind"],
    args: row.args,
    bindings: row.bindings,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const requestValues = (collectionId: string, request: StoreRequestFields & { id: string }, position: number, at: number) => ({
  id: request.id,
  collectionId,
  position,
  name: request.name,
  method: request.method,
  httpMethod: request.httpMethod,
  encoding: request.encoding,
  tokenKind: request.tokenKind,
  args: request.args,
  bindings: request.bindings,
  createdAt: at,
  updatedAt: at,
});

/** The collections a filter names, oldest first, each with how many requests it holds. */
export async function listCollections(ctx: StoreContext, filter: CollectionListFilter): Promise<StoreCollection[]> {
  const shared = filter.everyShared
    ? eq(collections.sharedWithTeam, true)
    : filter.sharedTeam !== null
      ? and(eq(collections.sharedWithTeam, true), eq(collections.teamId, filter.sharedTeam))
      : undefined;
  const rows = await ctx.db
    .select({ collection: collections, requests: count(savedRequests.id) })
    .from(collections)
    .leftJoin(savedRequests, eq(savedRequests.collectionId, collections.id))
    .where(shared ? or(ownerIs(filter.owner), shared) : ownerIs(filter.owner))
    .groupBy(collections.id)
    .orderBy(asc(collections.createdAt), asc(collections.id));
  return rows.map((r) => collectionFromRow(r.collection, Number(r.requests)));
}

/** How many collections an owner keeps (the bound on creating more). */
export async function countOwnedCollections(ctx: StoreContext, owner: string | null): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(collections).where(ownerIs(owner));
  return Number(row?.n ?? 0);
}

async function readCollection(db: StoreContext["db"] | Tx, id: string): Promise<StoreCollectionWithRequests | null> {
  const [row] = await db.select().from(collections).where(eq(collections.id, id));
  if (!row) return null;
  const requests = (await db.select().from(savedRequests).where(eq(savedRequests.collectionId, id)).orderBy(asc(savedRequests.position))).map(requestFromRow);
  return { ...collectionFromRow(row, requests.length), requests };
}

/** A collection with its requests in order, or null. */
export function getCollection(ctx: StoreContext, id: string): Promise<StoreCollectionWithRequests | null> {
  return readCollection(ctx.db, id);
}

/** The id of the collection a share link's hash opens, or null (unknown or revoked). */
export async function findCollectionByLinkHash(ctx: StoreContext, linkHash: string): Promise<string | null> {
  const [row] = await ctx.db.select({ id: collections.id }).from(collections).where(eq(collections.linkHash, linkHash));
  return row?.id ?? null;
}

/** A new collection with its requests (an import's, or none), in one transaction. */
export async function createCollection(ctx: StoreContext, input: NewCollection): Promise<StoreCollectionWithRequests> {
  return ctx.db.transaction(async (tx) => {
    await tx.insert(collections).values({
      id: input.id,
      owner: input.owner,
      ownerName: input.ownerName,
      teamId: input.teamId,
      name: input.name,
      createdAt: input.at,
      updatedAt: input.at,
    });
    if (input.requests.length > 0) await tx.insert(savedRequests).values(input.requests.map((r, i) => requestValues(input.id, r, i, input.at)));
    return (await readCollection(tx, input.id))!;
  });
}

export interface CollectionPatch {
  name?: string;
  sharedWithTeam?: boolean;
  /** A new link's hash, or null to revoke the link. */
  linkHash?: string | null;
}

/** Changes a collection's name, sharing or link; null when there is none. */
export async function updateCollection(ctx: StoreContext, id: string, patch: CollectionPatch, at: number): Promise<StoreCollectionWithRequests | null> {
  return ctx.db.transaction(async (tx) => {
    const changed = await tx
      .update(collections)
      .set({ ...patch, updatedAt: at })
      .where(eq(collections.id, id))
      .returning({ id: collections.id });
    return changed.length > 0 ? readCollection(tx, id) : null;
  });
}

/** Forgets a collection with its requests; false when there was none. */
export async function deleteCollection(ctx: StoreContext, id: string): Promise<boolean> {
  const gone = await ctx.db.delete(collections).where(eq(collections.id, id)).returning({ id: collections.id });
  return gone.length > 0;
}

/** Bumps a collection's updatedAt inside a request write (what changed in it counts as a change of it). */
async function touch(tx: Tx, id: string, at: number): Promise<boolean> {
  const rows = await tx.update(collections).set({ updatedAt: at }).where(eq(collections.id, id)).returning({ id: collections.id });
  return rows.length > 0;
}

/**
 * Appends a request at the end of a collection, unless it holds `max` already ("full"); null when the
 * collection is gone. The collection's row is locked first (the update of touch), so two appends at once
 * take two places.
 */
export async function addSavedRequest(
  ctx: StoreContext,
  collectionId: string,
  request: StoreRequestFields & { id: string },
  at: number,
  max: number,
): Promise<StoreSavedRequest | "full" | null> {
  return ctx.db.transaction(async (tx) => {
    if (!(await touch(tx, collectionId, at))) return null;
    const [row] = await tx.select({ n: count() }).from(savedRequests).where(eq(savedRequests.collectionId, collectionId));
    const n = Number(row?.n ?? 0);
    if (n >= max) return "full";
    const [inserted] = await tx
      .insert(savedRequests)
      .values(requestValues(collectionId, request, n, at))
      .returning();
    return requestFromRow(inserted!);
  });
}

/** Changes a saved request's fields (its name, its arguments, its bindings…); null when there is none in this collection. */
export async function updateSavedRequest(
  ctx: StoreContext,
  collectionId: string,
  requestId: string,
  patch: Partial<StoreRequestFields>,
  at: number,
): Promise<StoreSavedRequest | null> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(savedRequests)
      .set({ ...patch, updatedAt: at })
      .where(and(eq(savedRequests.id, requestId), eq(savedRequests.collectionId, collectionId)))
      .returning();
    if (!row) return null;
    await touch(tx, collectionId, at);
    return requestFromRow(row);
  });
}

/** Writes positions 0…n-1 in the order of `ids`. */
async function renumber(tx: Tx, collectionId: string, ids: readonly string[]): Promise<void> {
  for (const [position, id] of ids.entries()) {
    await tx
      .update(savedRequests)
      .set({ position })
      .where(and(eq(savedRequests.id, id), eq(savedRequests.collectionId, collectionId)));
  }
}

async function orderedIds(tx: Tx, collectionId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: savedRequests.id })
    .from(savedRequests)
    .where(eq(savedRequests.collectionId, collectionId))
    .orderBy(asc(savedRequests.position));
  return rows.map((r) => r.id);
}

/** Removes a request and closes the gap it leaves; false when there was none in this collection. */
export async function removeSavedRequest(ctx: StoreContext, collectionId: string, requestId: string, at: number): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const gone = await tx
      .delete(savedRequests)
      .where(and(eq(savedRequests.id, requestId), eq(savedRequests.collectionId, collectionId)))
      .returning({ id: savedRequests.id });
    if (gone.length === 0) return false;
    await touch(tx, collectionId, at);
    await renumber(tx, collectionId, await orderedIds(tx, collectionId));
    return true;
  });
}

/**
 * Puts a collection's requests in the order of `ids`, which must name each of them once ("mismatch"
 * otherwise: a list reordered from a stale page changes nothing); null when the collection is gone.
 */
export async function reorderSavedRequests(
  ctx: StoreContext,
  collectionId: string,
  ids: readonly string[],
  at: number,
): Promise<StoreSavedRequest[] | "mismatch" | null> {
  return ctx.db.transaction(async (tx) => {
    if (!(await touch(tx, collectionId, at))) return null;
    const current = await orderedIds(tx, collectionId);
    const wanted = new Set(ids);
    if (wanted.size !== ids.length || ids.length !== current.length || current.some((id) => !wanted.has(id))) return "mismatch";
    await renumber(tx, collectionId, ids);
    const rows = await tx
      .select()
      .from(savedRequests)
      .where(inArray(savedRequests.id, [...ids]))
      .orderBy(asc(savedRequests.position));
    return rows.map(requestFromRow);
  });
}
