import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/lib/store";
import { MEMORY, openBackend } from "@/lib/store/backend";
import { openStore } from "@/lib/store/store";
import { installation, storeContract, testKeys, token } from "./support/contract";

// On disk, as a console keeps it by default (DATA_DIR), in a directory of its own.
const dataDir = mkdtempSync(path.join(tmpdir(), "switchboard-store-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

storeContract("PGlite", () => ({ openBackend: () => openBackend({ kind: "pglite", dataDir }) }));

describe("a settlement on PGlite whose installation is deleted the moment it commits", () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ kind: "pglite", dataDir: MEMORY, keys: testKeys("current") });
  }, 120_000);
  afterAll(() => store?.close());

  it("answers the refresh with what it wrote, not unknown_installation", async () => {
    const record = installation();
    await store.installations.put(record);
    const intent = await store.intents.record({ installationId: record.id, kind: "bot", refreshToken: record.bot!.refreshToken!, startedAt: 1 });
    const fresh = token({ issuedAt: record.bot!.issuedAt + 1 });
    // The delete waits for PGlite's one connection behind the settlement's transaction, and runs the moment it commits.
    const [settled, deleted] = await Promise.all([
      store.intents.settle({ intentId: intent.id, settledAt: 2, token: fresh }),
      store.installations.delete(record.id),
    ]);
    expect(deleted).toBe(true);
    expect(settled.outcome).toBe("refreshed");
    expect(settled.installation).toMatchObject({ id: record.id, version: 2, bot: fresh, user: record.user });
  });
});
