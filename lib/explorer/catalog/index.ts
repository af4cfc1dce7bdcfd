/**
 * The Web API method catalog. The catalog itself is a module of its own, imported on demand, so the
 * bundler gives it a chunk that only the pages which ask for it load.
 */

import type { CatalogMethod } from "./types";

export function loadMethodCatalog(): Promise<readonly CatalogMethod[]> {
  return import("./methods.generated").then((module) => module.METHOD_CATALOG);
}

export * from "./query";
export type * from "./types";
