import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { adoptKeysSuite } from "./support/adopt-keys";

// A folder, not memory://: each step closes the store and opens it again with other keys, as a restart does.
const dataDir = mkdtempSync(path.join(tmpdir(), "switchboard-adopt-keys-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

adoptKeysSuite("PGlite", async () => ({ kind: "pglite", dataDir }));
