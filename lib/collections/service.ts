import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { AppError } from "@/lib/http/app-error";
import { findMethod, loadMethodCatalog } from "@/lib/explorer/catalog";
import { getStore } from "@/lib/store";
import type { StoreCollection, StoreCollectionWithRequests, StoreSavedRequest } from "@/lib/store/collections";
import type { Viewer } from "@/lib/viewer";
import type { ImportedCollection } from "./universal/import-result";
import { LIMITS, RequestFieldsSchema, type CollectionSummary, type CollectionView, type RequestFields, type SavedRequestView } from "./universal/model";
import { CollectionFileError, fromNdjson, toNdjson } from "./universal/ndjson";
import { fromPostman, looksLikePostman } from "./universal/postman";
import { collectionOwnerOf, mayEditCollection, mayReadCollection, ownsCollection } from "./universal/rights";

/**
 * Saved requests and their collections, for the routes under /api/collections: each function is handed who
 * asks and checks what they may do (universal/rights.ts) before the store is asked to change anything. A
 * collection the viewer may not read answers 404 (its existence is not told); one they may read but not
 * change answers 403.
 */

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("base64url")}`;
/** A share link's secret part: 192 random bits, kept only as its SHA-256. */
const linkHashOf = (link: string) => createHash("sha256").update(link).digest("base64url");

function summaryOf(viewer: Viewer, c: StoreCollection): CollectionSummary {
  return {
    id: c.id,
    name: c.name,
    ownerName: c.ownerName,
    mine: ownsCollection(viewer, c),
    editable: mayEditCollection(viewer, c),
    sharedWithTeam: c.sharedWithTeam,
    hasLink: c.hasLink,
    requestCount: c.requestCount,
    updatedAt: c.updatedAt,
  };
}

const requestView = (r: StoreSavedRequest): SavedRequestView => ({
  id: r.id,
  position: r.position,
  name: r.name,
  method: r.method,
  httpMethod: r.httpMethod,
  encoding: r.encoding,
  tokenKind: r.tokenKind,
  args: r.args,
  bindings: r.bindings,
  updatedAt: r.updatedAt,
});

const viewOf = (viewer: Viewer, c: StoreCollectionWithRequests): CollectionView => ({ ...summaryOf(viewer, c), requests: c.requests.map(requestView) });

const unknownCollection = () => new AppError("unknown_collection");
const readOnly = () => new AppError("not_allowed", { message: "This collection is shared with you read-only: only its owner or an admin may change it." });

async function readable(viewer: Viewer, id: string): Promise<StoreCollectionWithRequests> {
  const collection = await (await getStore()).collections.get(id);
  if (!collection || !mayReadCollection(viewer, collection)) throw unknownCollection();
  return collection;
}

async function editable(viewer: Viewer, id: string): Promise<StoreCollectionWithRequests> {
  const collection = await readable(viewer, id);
  if (!mayEditCollection(viewer, collection)) throw readOnly();
  return collection;
}

/** The viewer's collections, those their team shares, and (for an admin) every shared one. */
export async function listCollections(viewer: Viewer): Promise<CollectionSummary[]> {
  const store = await getStore();
  const list = await store.collections.list({
    owner: collectionOwnerOf(viewer),
    sharedTeam: viewer.kind === "member" ? viewer.teamId : null,
    everyShared: viewer.admin,
  });
  return list.map((c) => summaryOf(viewer, c));
}

export async function getCollection(viewer: Viewer, id: string): Promise<CollectionView> {
  return viewOf(viewer, await readable(viewer, id));
}

async function create(viewer: Viewer, name: string, requests: RequestFields[]): Promise<StoreCollectionWithRequests> {
  const store = await getStore();
  const owner = collectionOwnerOf(viewer);
  if ((await store.collections.countOwned(owner)) >= LIMITS.collectionsPerOwner) throw new AppError("too_many_collections");
  return store.collections.create({
    id: newId("col"),
    owner,
    ownerName: viewer.kind === "member" ? viewer.name : "Operator",
    teamId: viewer.kind === "member" ? viewer.teamId : null,
    name,
    at: Date.now(),
    requests: requests.map((r) => ({ ...r, id: newId("req") })),
  });
}

export async function createCollection(viewer: Viewer, name: string): Promise<CollectionView> {
  return viewOf(viewer, await create(viewer, name, []));
}

export async function updateCollection(viewer: Viewer, id: string, patch: { name?: string; sharedWithTeam?: boolean }): Promise<CollectionView> {
  await editable(viewer, id);
  const updated = await (await getStore()).collections.update(id, patch, Date.now());
  if (!updated) throw unknownCollection();
  return viewOf(viewer, updated);
}

export async function deleteCollection(viewer: Viewer, id: string): Promise<void> {
  await editable(viewer, id);
  if (!(await (await getStore()).collections.delete(id))) throw unknownCollection();
}

/** A new share link (any earlier one stops working): its path, shown once; only its hash is kept. */
export async function createShareLink(viewer: Viewer, id: string): Promise<{ path: string; collection: CollectionView }> {
  await editable(viewer, id);
  const link = randomBytes(24).toString("base64url");
  const updated = await (await getStore()).collections.update(id, { linkHash: linkHashOf(link) }, Date.now());
  if (!updated) throw unknownCollection();
  return { path: `/explorer?shared=${link}`, collection: viewOf(viewer, updated) };
}

export async function revokeShareLink(viewer: Viewer, id: string): Promise<CollectionView> {
  await editable(viewer, id);
  const updated = await (await getStore()).collections.update(id, { linkHash: null }, Date.now());
  if (!updated) throw unknownCollection();
  return viewOf(viewer, updated);
}

/** The collection a share link opens, for a signed-in member of its owner's workspace (or its owner, or an admin). */
export async function openShareLink(viewer: Viewer, link: string): Promise<CollectionView> {
  const store = await getStore();
  const id = await store.collections.findByLinkHash(linkHashOf(link));
  const collection = id ? await store.collections.get(id) : null;
  if (!collection || !mayReadCollection(viewer, collection, true)) {
    throw new AppError("unknown_collection", { message: "This link opens no collection: it was revoked, or the collection is another workspace's." });
  }
  return viewOf(viewer, collection);
}

export async function addSavedRequest(viewer: Viewer, collectionId: string, fields: RequestFields): Promise<SavedRequestView> {
  await editable(viewer, collectionId);
  const added = await (await getStore()).collections.addRequest(collectionId, { ...fields, id: newId("req") }, Date.now(), LIMITS.requestsPerCollection);
  if (added === null) throw unknownCollection();
  if (added === "full") throw new AppError("collection_full");
  return requestView(added);
}

/** Changes some of a saved request's fields; the request they make with the rest is checked whole (a token refused as on saving). */
export async function updateSavedRequest(viewer: Viewer, collectionId: string, requestId: string, patch: Record<string, unknown>): Promise<SavedRequestView> {
  const collection = await editable(viewer, collectionId);
  const current = collection.requests.find((r) => r.id === requestId);
  if (!current) throw new AppError("unknown_saved_request");
  const { name, method, httpMethod, encoding, tokenKind, args, bindings } = current;
  const fields = RequestFieldsSchema.parse({ name, method, httpMethod, encoding, tokenKind, args, bindings, ...patch });
  const updated = await (await getStore()).collections.updateRequest(collectionId, requestId, fields, Date.now());
  if (!updated) throw new AppError("unknown_saved_request");
  return requestView(updated);
}

export async function removeSavedRequest(viewer: Viewer, collectionId: string, requestId: string): Promise<void> {
  await editable(viewer, collectionId);
  if (!(await (await getStore()).collections.removeRequest(collectionId, requestId, Date.now()))) throw new AppError("unknown_saved_request");
}

export async function reorderSavedRequests(viewer: Viewer, collectionId: string, ids: string[]): Promise<SavedRequestView[]> {
  await editable(viewer, collectionId);
  const reordered = await (await getStore()).collections.reorder(collectionId, ids, Date.now());
  if (reordered === null) throw unknownCollection();
  if (reordered === "mismatch") throw new AppError("order_mismatch");
  return reordered.map(requestView);
}

/** The collection as the console's NDJSON file (anyone who may read it may export it). */
export async function exportCollection(viewer: Viewer, id: string): Promise<{ name: string; text: string }> {
  const collection = await readable(viewer, id);
  return { name: collection.name, text: toNdjson(collection.name, collection.requests) };
}

export interface ImportAnswer {
  collection: CollectionView;
  skipped: ImportedCollection["skipped"];
  notes: string[];
}

/**
 * A collection file made into a new collection of the viewer's: the console's NDJSON or a Postman
 * collection v2.1 (told apart by its content). Methods the catalog does not know are skipped and listed,
 * tokens dropped with a note; a file that is neither format is refused whole (400 invalid_collection_file).
 */
export async function importCollection(viewer: Viewer, text: string, name?: string): Promise<ImportAnswer> {
  const catalog = await loadMethodCatalog();
  const isKnown = (method: string) => findMethod(catalog, method) !== undefined;
  let read: ImportedCollection;
  try {
    read = looksLikePostman(text) ? fromPostman(text, isKnown) : fromNdjson(text, isKnown);
  } catch (error) {
    if (error instanceof CollectionFileError) throw new AppError("invalid_collection_file", { message: `${error.message} Nothing was imported.` });
    throw error;
  }
  const created = await create(viewer, name ?? read.name, read.requests);
  return { collection: viewOf(viewer, created), skipped: read.skipped, notes: read.notes };
}
