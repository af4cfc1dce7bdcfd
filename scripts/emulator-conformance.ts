// npm run conformance - Rewrites docs/emulator.md's conformance table from the catalog and the emulator's method registry
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { METHODS } from "../lib/emulator/web-api/methods";
import { METHOD_CATALOG } from "../lib/explorer/catalog/methods.generated";
import { withConformanceTable } from "./method-catalog/conformance";

const DOC = path.resolve(__dirname, "../docs/emulator.md");

async function main(): Promise<void> {
  const doc = await readFile(DOC, "utf8");
  await writeFile(DOC, withConformanceTable(doc, METHOD_CATALOG, new Set(METHODS.keys())));
  process.stdout.write(`Wrote the conformance table of ${path.relative(process.cwd(), DOC)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`The conformance table could not be written: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
