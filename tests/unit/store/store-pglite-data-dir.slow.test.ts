import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "@/lib/store/store";
import { LOCK_FILE } from "@/lib/store/data-dir-lock";
import { installation, testKeys } from "./support/contract";

const keys = testKeys("current");
const HOLDER = path.join(import.meta.dirname, "support", "hold-data-dir.ts");
const dirs: string[] = [];
const children: ChildProcess[] = [];
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "switchboard-data-dir-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Another Node process holding the store open on `dir` (writing to it with `write`); resolves once `ready`
 * holds of what it printed. `output()` is what it printed so far.
 */
function holdInAnotherProcess(dir: string, mode = "hold", ready = (out: string) => out.includes("open\n")): Promise<ChildProcess & { output(): string }> {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", HOLDER, dir, mode], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const withOutput = Object.assign(child, { output: () => out });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (ready(out)) resolve(withOutput);
      if (out.includes("refused")) reject(new Error(out));
    });
    child.once("exit", (code) => reject(new Error(`the holder exited (${code}): ${out}${err}`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGKILL");
  return exited;
}

describe("the embedded store's data directory", () => {
  it("refuses a second process, saying which directory and what to do, and is taken over once that process is killed", async () => {
    const dir = dataDir();
    const holder = await holdInAnotherProcess(dir);
    expect(readFileSync(path.join(dir, LOCK_FILE), "utf8")).toBe(String(holder.pid));
    const refused = await openStore({ kind: "pglite", dataDir: dir, keys }).then(
      () => undefined,
      (e: unknown) => e as { code?: string; status?: number; message: string },
    );
    expect(refused).toMatchObject({ code: "store_unavailable", status: 503 });
    expect(refused!.message).toContain(`The data directory ${dir} is in use by another process (pid ${holder.pid})`);
    expect(refused!.message).toContain("DATABASE_URL");
    expect(refused!.message).toContain("another DATA_DIR");

    // kill -9 leaves the lock file behind; its pid is dead, so the next opener takes it over.
    await killed(holder);
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(true);
    const store = await openStore({ kind: "pglite", dataDir: dir, keys });
    try {
      expect(readFileSync(path.join(dir, LOCK_FILE), "utf8")).toBe(String(process.pid));
      const record = installation();
      await store.installations.put(record);
      expect((await store.installations.get(record.id, { fresh: true }))?.bot).toEqual(record.bot);
      // The same process opening it twice is refused too: PGlite is one connection.
      await expect(openStore({ kind: "pglite", dataDir: dir, keys })).rejects.toMatchObject({ code: "store_unavailable" });
    } finally {
      await store.close();
    }
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  }, 90_000);

  it("keeps what it stored across a close and a reopen", async () => {
    const dir = dataDir();
    const record = installation();
    const first = await openStore({ kind: "pglite", dataDir: dir, keys });
    await first.installations.put(record, { timeline: [{ at: 1, type: "installed" }] });
    await first.close();
    const second = await openStore({ kind: "pglite", dataDir: dir, keys });
    try {
      expect(await second.installations.get(record.id)).toEqual({ ...record, version: 1 });
      expect((await second.installations.pageTimeline(record.id)).entries).toHaveLength(1);
    } finally {
      await second.close();
    }
  }, 90_000);

  it("keeps every write that returned, and each whole, when its process is killed (kill -9) in the middle of writing", async () => {
    const dir = dataDir();
    const writer = await holdInAnotherProcess(dir, "write", (out) => (out.match(/committed/g) ?? []).length >= 20);
    await killed(writer);
    const committed = Math.max(...[...writer.output().matchAll(/committed (\d+)/g)].map((m) => Number(m[1])));
    const store = await openStore({ kind: "pglite", dataDir: dir, keys });
    try {
      const read = await store.installations.get("T0001-written", { fresh: true });
      // The write under way when it died either happened whole or not at all.
      expect(read!.version).toBeGreaterThanOrEqual(committed);
      expect(read!.version).toBeLessThanOrEqual(committed + 1);
      expect(read!.bot).toMatchObject({ value: "xoxb-1-written", issuedAt: read!.version, refreshToken: "xoxe-1-written" });
      expect(read!.updatedAt).toBe(read!.version);
      expect((await store.installations.pageTimeline("T0001-written", { limit: 1 })).entries[0]?.entry.at).toBe(read!.version);
    } finally {
      await store.close();
    }
  }, 120_000);

  it("answers 503 store_unavailable naming DATA_DIR when the folder cannot be made", async () => {
    const file = path.join(dataDir(), "a-file");
    writeFileSync(file, "");
    const refused = await openStore({ kind: "pglite", dataDir: path.join(file, "data"), keys }).then(
      () => undefined,
      (e: unknown) => e as { code?: string; status?: number; message: string },
    );
    expect(refused).toMatchObject({ code: "store_unavailable", status: 503 });
    expect(refused!.message).toContain(`PGlite at ${path.join(file, "data")} (DATA_DIR)`);
    expect(refused!.message).toContain("Check that DATA_DIR is readable and writable");
  });

  it("takes over a lock file left half-written (no pid in it)", async () => {
    const dir = dataDir();
    writeFileSync(path.join(dir, LOCK_FILE), "");
    const store = await openStore({ kind: "pglite", dataDir: dir, keys });
    await store.close();
  }, 90_000);
});
