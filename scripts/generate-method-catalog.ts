// npm run catalog - Regenerates lib/explorer/catalog/methods.generated.ts from docs/reference
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { generateCatalogSource, readMethodReference } from "../lib/explorer/catalog/generate";

const ROOT = path.resolve(__dirname, "..");
const TARGET = path.join(ROOT, "lib/explorer/catalog/methods.generated.ts");

async function main(): Promise<void> {
  const { openapi, platformMethods } = await readMethodReference(path.resolve(ROOT, "docs/reference"));
  await writeFile(TARGET, generateCatalogSource(openapi, platformMethods));
  process.stdout.write(`Wrote ${path.relative(ROOT, TARGET)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`The method catalog could not be generated: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
