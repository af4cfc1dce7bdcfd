/**
 * What a request takes from its method when the method arrives, whichever way it comes (picked in the
 * list, opened from a link, put back from the history): the catalog's verb and body, and a page size for a
 * method that pages. What the link or the history entry states wins; the catalog fills only what is absent,
 * so a method that does not page never gets a limit nobody gave it, and chat.postMessage opened from a link
 * without a verb is the JSON POST the catalog documents, not a GET.
 */

import type { CatalogMethod } from "./catalog/types";
import { DEFAULT_PAGE_LIMIT, withoutPagingFields, type ExplorerRequest, type StatedFields } from "./params";

export type { StatedFields };

export type Transport = Pick<ExplorerRequest, "httpMethod" | "encoding">;

/** What the explorer knows of a method: whether it pages, and the transport its catalog entry suggests. */
export interface MethodShape {
  paginated: boolean;
  /** Null for a method outside the catalog: the request keeps the transport it has. */
  transport: Transport | null;
}

export const NOTHING_STATED: StatedFields = { transport: false, limit: false };

/** The transport a method's catalog entry suggests: its documented verb, and a JSON body when it takes one. */
export function defaultTransport(method: CatalogMethod): Transport {
  const httpMethod = method.verbs[0] ?? "POST";
  return { httpMethod, encoding: httpMethod === "POST" && method.encodings.includes("json") ? "json" : "form" };
}

export function catalogShape(method: CatalogMethod): MethodShape {
  return { paginated: method.pagination !== undefined, transport: defaultTransport(method) };
}

/**
 * The request with its method's defaults in every field nobody stated. A method that pages gets the
 * console's page size when no limit was given; one that does not page has no cursor or limit fields, so a
 * limit or cursor that was given becomes an ordinary parameter (the platform decides what it means) and
 * one that was not is dropped.
 */
export function withMethodDefaults(request: ExplorerRequest, shape: MethodShape, stated: StatedFields): ExplorerRequest {
  let next = !stated.transport && shape.transport ? { ...request, ...shape.transport } : request;
  if (shape.paginated) return stated.limit ? next : { ...next, limit: DEFAULT_PAGE_LIMIT };
  if (!stated.limit) next = { ...next, limit: "" };
  return withoutPagingFields(next);
}
