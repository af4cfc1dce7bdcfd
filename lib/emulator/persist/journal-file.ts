/**
 * The journal's files in the data directory: `journal.jsonl` (a header line, then one JSON line per change)
 * and `emulator.lock` (the pid of the process that has the directory). Reading tolerates a torn last line
 * (the process died while writing it: the change it carried is lost, the rest is kept); any other line that is
 * not a record stops the start with an error naming the file, rather than starting from a guess.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

export const JOURNAL_FILE = "journal.jsonl";
export const LOCK_FILE = "emulator.lock";
const HEADER = { journal: "switchboard-emulator", version: 1 };
export const HEADER_LINE = `${JSON.stringify(HEADER)}\n`;

/** One change: the record at key `k` of the container at path `p` is now `v`, or is gone (`d`). */
export interface JournalLine {
  p: string[];
  k: string;
  v?: unknown;
  d?: 1;
  /** Open records: their containers beyond those the shape names (persist/state-shape.ts). */
  m?: string[];
  /** The state's own record: the clock's offset (ms) from the clock it follows. */
  clock?: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function inUse(dir: string, pid: number): Error {
  return new Error(
    `The emulator's data directory ${dir} is in use by process ${pid} (lock file ${path.join(dir, LOCK_FILE)}): one emulator keeps its state there. ` +
      `Stop that process, or give this emulator another data directory. If no such process runs, delete the lock file.`,
  );
}

/** Takes the data directory for this process (creating it); the returned function gives it back. A dead process's lock is taken over. */
export function lockDirectory(dir: string): () => void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, LOCK_FILE);
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
      let holder = Number.NaN;
      try {
        holder = Number.parseInt(readFileSync(file, "utf8").trim(), 10);
      } catch {
        // Removed meanwhile: try again.
      }
      // This process counts as a holder too: a second emulator of the same process on one directory would write over the first.
      if (Number.isInteger(holder) && holder > 0 && alive(holder)) throw inUse(dir, holder);
      try {
        unlinkSync(file);
      } catch {
        // Another opener took it over first: the next attempt sees its lock.
      }
    }
  }
  throw inUse(dir, Number.NaN);
}

export function journalDamaged(file: string, line: number, why: string): Error {
  return new Error(
    `The emulator's journal ${file} is damaged${line > 0 ? ` at line ${line}` : ""} (${why}). Move it aside (or restore a copy) and start again: without it the emulator starts from a fresh state.`,
  );
}

function isJournalLine(value: unknown): value is JournalLine {
  if (typeof value !== "object" || value === null) return false;
  const line = value as Partial<JournalLine>;
  return Array.isArray(line.p) && line.p.every((s) => typeof s === "string") && typeof line.k === "string" && ("v" in line || line.d === 1);
}

/**
 * The journal's lines, oldest first; none when there is no journal yet. A torn last line is dropped with a
 * warning; any other damage throws.
 */
export function readJournal(file: string, warn: (message: string) => void): JournalLine[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, "utf8");
  if (text === "") return [];
  const parts = text.split("\n");
  // The text after the last newline: empty when the last write ended whole.
  const tail = parts.pop() as string;
  if (tail !== "")
    warn(`The emulator's journal ${file} ends with a torn line (${tail.length} bytes, the process stopped while writing it): its change is dropped.`);
  if (parts.length === 0) return [];
  let header: unknown;
  try {
    header = JSON.parse(parts[0] as string);
  } catch {
    header = undefined;
  }
  const h = header as Partial<typeof HEADER> | undefined;
  if (h?.journal !== HEADER.journal) throw journalDamaged(file, 1, "not an emulator journal");
  if (h.version !== HEADER.version) throw journalDamaged(file, 1, `version ${String(h.version)}, this emulator reads version ${HEADER.version}`);
  return parts.slice(1).map((raw, i) => {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw journalDamaged(file, i + 2, "not JSON");
    }
    if (!isJournalLine(value)) throw journalDamaged(file, i + 2, "not a journal record");
    return value;
  });
}

/** Replaces the journal with `text` at once: written beside it, flushed to disk, then renamed over it. */
export function replaceJournal(file: string, text: string): void {
  const temporary = `${file}.tmp`;
  const fd = openSync(temporary, "w", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}
