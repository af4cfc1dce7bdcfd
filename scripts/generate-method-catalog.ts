// npm run catalog - Regenerates lib/explorer/catalog/methods.generated.ts and lists.generated.ts from docs/reference
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { generateCatalogSource, generateListsSource, readMethodReference } from "./method-catalog/generate";

const ROOT = path.resolve(__dirname, "..");
const CATALOG = path.join(ROOT, "lib/explorer/catalog/methods.generated.ts");
const LISTS = path.join(ROOT, "lib/explorer/catalog/lists.generated.ts");

async function main(): Promise<void> {
  const { openapi, platformMethods } = await readMethodReference(path.resolve(ROOT, "docs/reference"));
  for (const [target, source] of [
    [CATALOG, generateCatalogSource(openapi, platformMethods)],
    [LISTS, generateListsSource(openapi, platformMethods)],
  ] as const) {
    await writeFile(target, source);
    process.stdout.write(`Wrote ${path.relative(ROOT, target)}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`The method catalog could not be generated: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
