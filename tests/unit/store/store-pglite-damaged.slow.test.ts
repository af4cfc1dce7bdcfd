import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { openStore } from "@/lib/store/store";
import { installation, testKeys } from "./support/contract";

/** What the server's logger writes, line by line (the real logger, with its format and redaction). */
const logLines = vi.hoisted(() => [] as string[]);
vi.mock("@/lib/log", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/log")>();
  return { ...actual, logger: actual.createLogger("info", { write: (line: string) => void logLines.push(line) }) };
});

/**
 * Issue 37.12: a damaged DATA_DIR answered "the connection failed … check that DATA_DIR is readable and
 * writable" (it was both) and logged nothing of the cause. Each damage found in the wild, made to a store that
 * was closed cleanly: the open is refused with a message that says the folder is damaged and what to do, and
 * the log says what the engine answered.
 */
const keys = testKeys("current");
const base = mkdtempSync(path.join(tmpdir(), "switchboard-damaged-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
beforeEach(() => void logLines.splice(0));

async function storeWithData(name: string): Promise<string> {
  const dir = path.join(base, name);
  const store = await openStore({ kind: "pglite", dataDir: dir, keys });
  await store.installations.put(installation());
  await store.close();
  return dir;
}

const refusal = (dir: string) =>
  openStore({ kind: "pglite", dataDir: dir, keys }).then(
    async (store) => {
      await store.close();
      throw new Error(`${dir} opened`);
    },
    (error: unknown) => error as { code?: string; message: string },
  );

const DAMAGES: Record<string, (dir: string) => void> = {
  "a garbage PG_VERSION": (dir) => writeFileSync(path.join(dir, "PG_VERSION"), "garbage\n"),
  "a missing WAL": (dir) => {
    for (const file of readdirSync(path.join(dir, "pg_wal"))) if (/^[0-9A-F]{24}$/.test(file)) unlinkSync(path.join(dir, "pg_wal", file));
  },
  "a damaged pg_control": (dir) => {
    const control = path.join(dir, "global", "pg_control");
    writeFileSync(control, Buffer.alloc(readFileSync(control).length, 0x41));
  },
  "a file where the WAL folder should be": (dir) => {
    rmSync(path.join(dir, "pg_wal"), { recursive: true });
    writeFileSync(path.join(dir, "pg_wal"), "not a folder");
  },
};

describe("a damaged DATA_DIR", () => {
  for (const [damage, make] of Object.entries(DAMAGES)) {
    it(`with ${damage}: says the folder is damaged and what to do, and logs the engine's error`, async () => {
      const dir = await storeWithData(damage.replace(/\W+/g, "-"));
      make(dir);
      const error = await refusal(dir);
      expect(error.code).toBe("store_unavailable");
      expect(error.message).toContain("the folder is damaged");
      expect(error.message).toContain("Restore DATA_DIR from a backup");
      expect(error.message).toContain(`move it aside (for example to ${dir}.damaged) to start with an empty store`);
      expect(error.message).not.toContain("readable and writable");
      const line = logLines.map((l) => JSON.parse(l) as { level: number; msg: string; err: string; dataDir: string }).find((l) => l.dataDir === dir);
      expect(line).toMatchObject({ level: 50, msg: expect.stringContaining("the folder is damaged"), err: expect.stringMatching(/\w+: \S/) });
    }, 60_000);
  }

  it("that is a file, not a folder: says so and what to do, and logs it", async () => {
    const file = path.join(base, "a-file");
    writeFileSync(file, "not a folder");
    const error = await refusal(file);
    expect(error).toMatchObject({ code: "store_unavailable", message: expect.stringContaining(`DATA_DIR (${file}) is a file, not a folder`) });
    expect(logLines.join("")).toContain("is a file, not a folder");
  });
});
