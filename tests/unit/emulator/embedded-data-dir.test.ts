/**
 * The console's embedded emulator keeps its state in {DATA_DIR}/emulator, with DATABASE_URL too (the emulator is
 * this process's own), and the graceful shutdown's call writes what is pending and gives the folder back.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { readSavedState } from "@/lib/emulator/persist/journal";

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
});
