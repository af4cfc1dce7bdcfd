"use client";

import useSWRImmutable from "swr/immutable";
import { loadMethodCatalog, type CatalogMethod } from "@/lib/explorer/catalog";

/** The platform's method catalog, loaded (its own chunk) the first time a page asks for it. */
export function useMethodCatalog() {
  return useSWRImmutable<readonly CatalogMethod[]>("method-catalog", loadMethodCatalog);
}
