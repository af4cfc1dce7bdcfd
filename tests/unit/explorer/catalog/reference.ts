import { fileURLToPath } from "node:url";
import { readMethodReference } from "@/scripts/method-catalog/generate";

/** The platform's reference, where scripts/generate-method-catalog.ts reads it: docs/reference in the repository. */
export const REFERENCE_DIR = fileURLToPath(new URL("../../../../docs/reference", import.meta.url));

export const GENERATED_FILE = fileURLToPath(new URL("../../../../lib/explorer/catalog/methods.generated.ts", import.meta.url));

export const GENERATED_LISTS_FILE = fileURLToPath(new URL("../../../../lib/explorer/catalog/lists.generated.ts", import.meta.url));

export const readReference = () => readMethodReference(REFERENCE_DIR);
