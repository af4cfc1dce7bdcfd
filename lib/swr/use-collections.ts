"use client";

import useSWR from "swr";
import type { CollectionSummary, CollectionView, RequestFields, SavedRequestView } from "@/lib/collections/universal/model";
import type { ImportedCollection } from "@/lib/collections/universal/import-result";
import { answerError, consoleFetch, fetchJson, jsonBody, readAnswer } from "./console-fetch";

const LIST = "/api/collections";
const one = (id: string) => `${LIST}/${encodeURIComponent(id)}`;
const sendJson = (method: "PATCH" | "PUT" | "DELETE", value?: unknown): RequestInit => ({
  method,
  ...(value !== undefined ? { headers: { "content-type": "application/json" }, body: JSON.stringify(value) } : {}),
});

/** The viewer's collections, their team's shared ones, and (admins) every shared one. */
export function useCollections() {
  const { data, error, mutate } = useSWR<{ collections: CollectionSummary[] }>(LIST, (url: string) => fetchJson<{ collections: CollectionSummary[] }>(url));
  return { collections: data?.collections, error: error as Error | undefined, reload: () => mutate() };
}

/** One collection with its requests: by id, or by a share link. */
export function useCollection(open: { id: string } | { link: string } | null) {
  const key = open === null ? null : "id" in open ? one(open.id) : `${LIST}/shared/${encodeURIComponent(open.link)}`;
  const { data, error, mutate } = useSWR<{ collection: CollectionView }>(key, (url: string) => fetchJson<{ collection: CollectionView }>(url));
  return { collection: data?.collection, error: error as Error | undefined, reload: () => mutate() };
}

/** Each change a route makes, as the panel calls it; every one throws the route's error (its message says what to do). */
export const collectionActions = {
  create: (name: string) => fetchJson<{ collection: CollectionView }>(LIST, jsonBody({ name })),
  update: (id: string, patch: { name?: string; sharedWithTeam?: boolean }) => fetchJson<{ collection: CollectionView }>(one(id), sendJson("PATCH", patch)),
  remove: (id: string) => fetchJson<{ ok: true }>(one(id), sendJson("DELETE")),
  addRequest: (id: string, fields: RequestFields) => fetchJson<{ request: SavedRequestView }>(`${one(id)}/requests`, jsonBody(fields)),
  updateRequest: (id: string, requestId: string, patch: Partial<RequestFields>) =>
    fetchJson<{ request: SavedRequestView }>(`${one(id)}/requests/${encodeURIComponent(requestId)}`, sendJson("PATCH", patch)),
  removeRequest: (id: string, requestId: string) => fetchJson<{ ok: true }>(`${one(id)}/requests/${encodeURIComponent(requestId)}`, sendJson("DELETE")),
  reorder: (id: string, ids: string[]) => fetchJson<{ requests: SavedRequestView[] }>(`${one(id)}/order`, sendJson("PUT", { ids })),
  createLink: (id: string) => fetchJson<{ path: string; collection: CollectionView }>(`${one(id)}/link`, { method: "POST" }),
  revokeLink: (id: string) => fetchJson<{ collection: CollectionView }>(`${one(id)}/link`, sendJson("DELETE")),
  importFile: (text: string) => fetchJson<{ collection: CollectionView } & Pick<ImportedCollection, "skipped" | "notes">>(`${LIST}/import`, jsonBody({ text })),
};

/** The collection's NDJSON file, as the export route writes it. */
export async function exportCollectionText(id: string): Promise<string> {
  const response = await consoleFetch(`${one(id)}/export`, { headers: { accept: "application/x-ndjson" } });
  const { text } = await readAnswer(response);
  if (!response.ok) throw answerError(response.status, text);
  return text;
}
