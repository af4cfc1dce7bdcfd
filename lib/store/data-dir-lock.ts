import "server-only";
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { AppError } from "@/lib/http/app-error";

/**
 * PGlite is one connection in one process: two processes opening one DATA_DIR would both write its files
 * and corrupt them. So the first takes a lock file there (created exclusively, holding its pid) and removes
 * it when it closes or exits; a second answers a clear error. A lock whose pid is no longer alive (a
 * process killed with -9) is stale, and the next opener takes it over.
 */

export const LOCK_FILE = "switchboard.lock";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process with this pid exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function refuse(dataDir: string, pid: number): AppError {
  return new AppError("store_unavailable", {
    message: `The data directory ${dataDir} is in use by another process (pid ${pid}): the embedded store (PGlite) serves one process. To run several instances, give them one PostgreSQL through DATABASE_URL; to run a second console beside this one, give it another DATA_DIR. If no such process runs, delete ${path.join(dataDir, LOCK_FILE)}.`,
  });
}

/** Takes the lock of `dataDir` for this process; the returned function gives it back. */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.removeListener("exit", release);
        try {
          unlinkSync(file);
        } catch {
          // Already gone: nothing to give back.
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let holder = NaN;
      try {
        holder = Number.parseInt(readFileSync(file, "utf8").trim(), 10);
      } catch {
        // Removed meanwhile: try again.
      }
      if (Number.isInteger(holder) && holder > 0 && alive(holder)) throw refuse(dataDir, holder);
      // A stale lock (its process died, or it was never written whole): take it over.
      try {
        unlinkSync(file);
      } catch {
        // Another opener took it over first: the next attempt sees its lock.
      }
    }
  }
  throw refuse(dataDir, Number.NaN);
}
