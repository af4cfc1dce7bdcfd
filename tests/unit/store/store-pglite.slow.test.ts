import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { openBackend } from "@/lib/store/backend";
import { storeContract } from "./support/contract";

// On disk, as a console keeps it by default (DATA_DIR), in a directory of its own.
const dataDir = mkdtempSync(path.join(tmpdir(), "switchboard-store-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

storeContract("PGlite", () => ({ openBackend: () => openBackend({ kind: "pglite", dataDir }) }));
