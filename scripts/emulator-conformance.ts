// npm run conformance - Rewrites docs/emulator.md's conformance table from the catalog and the emulator's method registry, and its interactions table from the emulator's list of interactions
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { METHODS } from "../lib/emulator/web-api/methods";
import { METHOD_CATALOG } from "../lib/explorer/catalog/methods.generated";
import { INTERACTION_TYPES } from "../lib/emulator/interactivity/catalog";
import { withConformanceTable } from "./method-catalog/conformance";
import { withInteractionTable } from "./method-catalog/interactions";

const DOC = path.resolve(__dirname, "../docs/emulator.md");

async function main(): Promise<void> {
  const doc = await readFile(DOC, "utf8");
  await writeFile(DOC, withInteractionTable(withConformanceTable(doc, METHOD_CATALOG, new Set(METHODS.keys())), INTERACTION_TYPES));
  process.stdout.write(`Wrote the conformance table of ${path.relative(process.cwd(), DOC)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`The conformance table could not be written: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
