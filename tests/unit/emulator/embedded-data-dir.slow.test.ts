/**
 * The console's embedded emulator keeps its state in {DATA_DIR}/emulator, with DATABASE_URL too (the emulator is
 * this process's own), and the graceful shutdown's call writes what is pending and gives the folder back.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createEmulator } from "@/lib/emulator";
import { readSavedState } from "@/lib/emulator/persist/journal";
import { sealingKeys } from "@/lib/store/sealing";
import { openStore } from "@/lib/store/store";

const dataDir = mkdtempSync(path.join(tmpdir(), "switchboard-embedded-"));
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the embedded emulator's data directory", () => {
  it("is {DATA_DIR}/emulator with the store in PostgreSQL, and closeEmbeddedEmulator writes it and lets it go", async () => {
    vi.resetModules();
    for (const [key, value] of Object.entries({
      PLATFORM_BASE_URL: "",
      APP_ORIGIN: "http://localhost:3998",
      SESSION_PASSWORD: "x".repeat(32),
      DATABASE_URL: "postgres://switchboard:secret@127.0.0.1:1/unused",
      DATA_DIR: dataDir,
    }))
      vi.stubEnv(key, value);
    const { handleEmbeddedEmulatorRequest, closeEmbeddedEmulator } = await import("@/lib/embedded-emulator");
    const moved = await handleEmbeddedEmulatorRequest(
      new Request("http://localhost:3998/emulator/admin/clock", {
        method: "POST",
        headers: { origin: "http://localhost:3998", "content-type": "application/json" },
        body: JSON.stringify({ advance_s: 3600 }),
      }),
    );
    expect(moved.status).toBe(200);
    const folder = path.join(dataDir, "emulator");
    expect(existsSync(path.join(folder, "emulator.lock"))).toBe(true);

    await closeEmbeddedEmulator();
    expect(readSavedState(folder, () => undefined)?.clockOffsetMs).toBe(3_600_000);
    expect(existsSync(path.join(folder, "emulator.lock"))).toBe(false);
  });

  it("shares DATA_DIR with the embedded store (PGlite): the store opens on a folder whose emulator/ came first, and again after", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "switchboard-shared-"));
    try {
      const emulator = createEmulator({ users: 10, dataDir: path.join(dir, "emulator") });
      const keys = sealingKeys(["a-passphrase-of-at-least-thirty-two-characters"], []);
      const store = await openStore({ kind: "pglite", dataDir: dir, keys });
      await store.close();
      await emulator.close();
      const again = await openStore({ kind: "pglite", dataDir: dir, keys });
      await again.close();
      const reopened = createEmulator({ users: 10, dataDir: path.join(dir, "emulator") });
      expect(reopened.state.instanceId).toBe(emulator.state.instanceId);
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
