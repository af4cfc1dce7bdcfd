/**
 * How a call types its arguments, and so whether it may leave yet. A JSON body writes each value as its
 * catalog entry types it (`"unfurl_links": false`, not `"false"`), and the catalog is a chunk of its own that
 * arrives after the page: a request opened from a link and sent before it came would carry every value as a
 * string. So a call waits for the catalog; once the catalog has said (or could not be had), it goes, typed
 * by the method's entry or, for a method outside it, as written.
 */

import { findMethod, type CatalogMethod } from "./catalog";
import type { ArgumentTypes } from "./params";

/** What the page knows of the catalog: its methods once loaded; `unavailable` once it failed or took too long. */
export interface CatalogState {
  methods: readonly CatalogMethod[] | undefined;
  unavailable: boolean;
}

export type ArgumentTyping =
  /** The catalog has not said yet: nothing is sent until it does. */
  | { status: "waiting" }
  /** The method's catalog entry types its arguments. */
  | { status: "typed"; types: ArgumentTypes }
  /** Sent as written, every value a string: the method is not in the catalog, or there is no catalog. */
  | { status: "untyped"; reason: "not_in_catalog" | "no_catalog" };

/** How long a call waits for the catalog before it goes untyped (as it would for a method outside it), said so. */
export const CATALOG_PATIENCE_MS = 10_000;

export function argumentTyping(catalog: CatalogState, method: string): ArgumentTyping {
  if (catalog.methods) {
    const entry = findMethod(catalog.methods, method);
    return entry ? { status: "typed", types: new Map(entry.args.map((a) => [a.name, a.type] as const)) } : { status: "untyped", reason: "not_in_catalog" };
  }
  return catalog.unavailable ? { status: "untyped", reason: "no_catalog" } : { status: "waiting" };
}

/** The types a call may write its arguments with, or null while it must wait for the catalog. */
export function typesForSend(typing: ArgumentTyping): ArgumentTypes | null {
  if (typing.status === "waiting") return null;
  return typing.status === "typed" ? typing.types : new Map();
}
