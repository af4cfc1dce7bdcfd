// npm run conformance - Rewrites docs/emulator.md's conformance tables: methods from the catalog and the emulator's
// method registry, events and Socket Mode's messages and interactions from the emulator's own lists
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { METHODS } from "../lib/emulator/web-api/methods";
import { METHOD_CATALOG } from "../lib/explorer/catalog/methods.generated";
import { EVENT_CATALOG } from "../lib/emulator/events/event-catalog";
import { INTERACTION_TYPES } from "../lib/emulator/interactivity/catalog";
import { SOCKET_MODE_MESSAGES } from "../lib/emulator/socket-mode/protocol";
import { withConformanceTable } from "./method-catalog/conformance";
import { withEventsConformanceTable } from "./method-catalog/events-conformance";
import { withInteractionTable } from "./method-catalog/interactions";

const DOC = path.resolve(__dirname, "../docs/emulator.md");

async function main(): Promise<void> {
  const doc = await readFile(DOC, "utf8");
  const methods = withConformanceTable(doc, METHOD_CATALOG, new Set(METHODS.keys()));
  const interactions = withInteractionTable(methods, INTERACTION_TYPES);
  await writeFile(DOC, withEventsConformanceTable(interactions, EVENT_CATALOG, SOCKET_MODE_MESSAGES));
  process.stdout.write(`Wrote the conformance tables of ${path.relative(process.cwd(), DOC)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`The conformance table could not be written: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
