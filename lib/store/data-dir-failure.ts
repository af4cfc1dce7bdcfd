import "server-only";
import { accessSync, constants, existsSync, statSync } from "node:fs";
import path from "node:path";
import { AppError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import { storeUnavailable } from "./errors";

/** What an error says of itself in a line (PGlite's are terse: "Aborted()", "PGlite failed to initialize properly"). */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 200);
  const code = (error as { code?: unknown }).code;
  return `${error.name}${typeof code === "string" ? ` ${code}` : ""}: ${error.message || "(no message)"}`.slice(0, 300);
}

/**
 * Why the embedded store could not open DATA_DIR, as the operator can act on it, and logged with the engine's
 * own error (a 503 alone said "the connection failed … check that DATA_DIR is readable and writable" of a folder
 * that was both, and logged nothing). Told apart by looking at the folder: a file where the folder should be, a
 * folder this process may not read or write, or one that holds a database PGlite cannot start on (a garbage
 * PG_VERSION, a missing WAL segment, a damaged pg_control): damaged, to restore from a backup or move aside.
 */
export function dataDirFailure(where: string, dataDir: string, error: unknown): AppError {
  const reason = reasonOf(error);
  let message: string;
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory()) {
    message = `The console's store cannot be opened: DATA_DIR (${dataDir}) is a file, not a folder. Move that file aside or set DATA_DIR to a folder, then start again.`;
  } else if (!accessible(dataDir)) {
    return logged(storeUnavailable(where, error), dataDir, reason, "not readable and writable");
  } else if (existsSync(path.join(dataDir, "PG_VERSION"))) {
    message =
      `The console's store (${where}) cannot be opened: the folder is damaged (PGlite could not start on its files: ${reason}). ` +
      `Restore DATA_DIR from a backup, or move it aside (for example to ${dataDir}.damaged) to start with an empty store, then start again.`;
  } else {
    message = `The console's store (${where}) cannot be opened (${reason}). Check that DATA_DIR is a folder of this console's store, readable and writable, then try again.`;
  }
  return logged(new AppError("store_unavailable", { message }), dataDir, reason, "cannot be opened");
}

function accessible(dir: string): boolean {
  try {
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function logged(answer: AppError, dataDir: string, reason: string, what: string): AppError {
  logger.error({ dataDir, err: reason }, `the embedded store's DATA_DIR ${what}: ${answer.message}`);
  return answer;
}
