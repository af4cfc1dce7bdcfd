import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { closeStore } from "@/lib/store";
import { startTestConsole, type TestConsole } from "../support/console";
import { unreadableRecordSuite } from "./support/unreadable-record";

// A folder, not memory://: the suite stops the console's store and writes into it as another console would.
const dataDir = mkdtempSync(path.join(tmpdir(), "switchboard-unreadable-"));
let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole({ DATA_DIR: dataDir, BACKGROUND_REFRESH: "false" });
});
afterAll(async () => {
  await closeStore();
  await testConsole?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

unreadableRecordSuite(
  "PGlite",
  () => testConsole.origin,
  () => ({ kind: "pglite", dataDir }),
);
