/**
 * The emulator's state kept in a data directory across restarts, as a local database keeps its tables: an
 * append-only journal of entity-level changes (persist/journal-file.ts), each container's entries one record
 * each (persist/state-shape.ts), reported by the containers themselves (core/change-tracking.ts). Changes are written at the
 * end of the tick they happened in, all of that tick's in one write (no record twice); nothing serializes the
 * whole state per request. Read back at start (the last record of a key wins), then rewritten whole (compacted)
 * at start, after a reset, and when the file grows past COMPACT_FACTOR times what is live.
 *
 * Written, not synced: a change survives the process (killed, crashed) once the tick it was made in ended;
 * a machine that loses power may lose the last few.
 */
import { closeSync, fstatSync, ftruncateSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import type { AdjustableClock } from "../core/clock";
import type { EmulatorState } from "../types";
import { decodeValue, encodeValue } from "./codec";
import { HEADER_LINE, JOURNAL_FILE, journalDamaged, lockDirectory, readJournal, replaceJournal, type JournalLine } from "./journal-file";
import { adoptRecord, touch, type ChangeSink, type Container } from "../core/change-tracking";
import { containersOf, PLAIN_RECORD, type ContainerShape, type GroupShape, type RecordShape } from "../core/record-shapes";
import { STATE_SHAPE } from "./state-shape";

/** The file is compacted when it holds this many times the characters of its live records (and at least COMPACT_MIN_BYTES). */
const COMPACT_FACTOR = 4;
const COMPACT_MIN_BYTES = 1 << 20;
const STATE_KEY = "state";
const STATE_PATH = [STATE_KEY];

const lineId = (p: readonly string[], k: string) => `${JSON.stringify(p)}\n${k}`;

/** The record of `value` as shape describes it: its own fields, its containers and transient fields left out. */
function recordLine(p: readonly string[], k: string, value: unknown, shape: RecordShape): JournalLine {
  // A value that is not an object of fields (a file id, a modal stack's ids) is its own record.
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { p: [...p], k, v: encodeValue(value) };
  const containers = containersOf(shape, value);
  const skip = new Set([...containers.map(([field]) => field), ...(shape.transient ?? [])]);
  const own: Record<string, unknown> = {};
  for (const [field, v] of Object.entries(value)) if (!skip.has(field)) own[field] = v;
  const line: JournalLine = { p: [...p], k, v: encodeValue(own) };
  const open = containers.filter(([field]) => !shape.containers?.[field]).map(([field]) => field);
  if (open.length > 0) line.m = open;
  return line;
}

/** The lines of a whole container, in its order (a list's order is the order its records first appear). */
function* containerLines(target: object, shape: ContainerShape | GroupShape, p: readonly string[]): Generator<JournalLine> {
  if (shape.kind === "group") {
    for (const [field, sub] of Object.entries(shape.containers)) {
      const value = (target as Record<string, unknown>)[field];
      if (value) yield* containerLines(value as object, sub, [...p, field]);
    }
    return;
  }
  const entries: [string, unknown][] =
    shape.kind === "map"
      ? [...(target as Map<unknown, unknown>)].map(([k, v]) => [String(k), v])
      : (target as unknown[]).map((item) => [shape.key(item), item]);
  for (const [k, value] of entries) {
    const of = shape.of;
    if (of.kind === "record") {
      yield recordLine(p, k, value, of);
      yield* recordContainerLines(value as object, of, [...p, k]);
    } else {
      yield { p: [...p], k, v: 0 };
      yield* containerLines(value as object, of, [...p, k]);
    }
  }
}

function* recordContainerLines(record: object, shape: RecordShape, p: readonly string[]): Generator<JournalLine> {
  for (const [field, sub] of containersOf(shape, record)) {
    const value = (record as Record<string, unknown>)[field];
    if (value) yield* containerLines(value as object, sub, [...p, field]);
  }
}

/** The records read back, by container path, then key, in the order they first appeared. */
type Records = Map<string, Map<string, JournalLine>>;

function collect(lines: JournalLine[]): Records {
  const records: Records = new Map();
  for (const line of lines) {
    const p = JSON.stringify(line.p);
    let container = records.get(p);
    if (!container) records.set(p, (container = new Map()));
    if (line.d === 1) {
      container.delete(line.k);
      dropDescendants(records, [...line.p, line.k]);
    } else container.set(line.k, line);
  }
  return records;
}

/**
 * Forgets what was saved under a key that was deleted (a channel's messages, a message's replies): without
 * this, a key used again (a channel made with the id of a deleted one) would bring back the old records.
 */
function dropDescendants(records: Records, p: readonly string[]): void {
  const own = JSON.stringify(p);
  const under = `${own.slice(0, -1)},`;
  for (const key of [...records.keys()]) if (key === own || key.startsWith(under)) records.delete(key);
}

function buildContainer(records: Records, shape: ContainerShape | GroupShape, p: readonly string[]): unknown {
  if (shape.kind === "group") {
    return Object.fromEntries(Object.entries(shape.containers).map(([field, sub]) => [field, buildContainer(records, sub, [...p, field])]));
  }
  const lines = [...(records.get(JSON.stringify(p)) ?? new Map<string, JournalLine>())];
  const of = shape.of;
  const build = (k: string, line: JournalLine) => (of.kind === "record" ? buildRecord(records, of, line, [...p, k]) : buildContainer(records, of, [...p, k]));
  return shape.kind === "map" ? new Map(lines.map(([k, line]) => [k, build(k, line)])) : lines.map(([k, line]) => build(k, line));
}

function buildRecord(records: Records, shape: RecordShape, line: JournalLine, p: readonly string[]): Record<string, unknown> {
  const record = decodeValue(line.v) as Record<string, unknown>;
  for (const [field, sub] of Object.entries(shape.containers ?? {})) record[field] = buildContainer(records, sub, [...p, field]);
  for (const field of line.m ?? []) record[field] = buildContainer(records, { kind: "map", of: PLAIN_RECORD }, [...p, field]);
  shape.restore?.(record);
  return record;
}

/**
 * Appends every byte or none: a write may take only part of what it was given (a full disk, a quota), and a
 * half line followed by the next write would leave a journal that cannot be read back. On failure the file
 * is cut back to where it was, and the changes stay pending for the next flush.
 */
function writeAll(fd: number, bytes: Buffer): void {
  const before = fstatSync(fd).size;
  try {
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
  } catch (error) {
    try {
      ftruncateSync(fd, before);
    } catch {
      // The write's own error says more; a torn last line is dropped with a warning at the next start.
    }
    throw error;
  }
}

interface SavedState {
  /** The state's saved fields: everything but its transient ones (persist/state-shape.ts). */
  state: Record<string, unknown>;
  clockOffsetMs: number;
}

/**
 * The state saved in `dir` (none when nothing was saved yet), read without taking the directory.
 * @internal exported for the tests, which compare it with the live state after every request.
 */
export function readSavedState(dir: string, warn: (message: string) => void): SavedState | undefined {
  const file = path.join(dir, JOURNAL_FILE);
  const records = collect(readJournal(file, warn));
  const root = records.get(JSON.stringify([]))?.get(STATE_KEY);
  if (!root) return undefined;
  try {
    return { state: buildRecord(records, STATE_SHAPE, root, STATE_PATH), clockOffsetMs: root.clock ?? 0 };
  } catch (error) {
    throw journalDamaged(file, 0, `its records do not make a state: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export interface JournalOptions {
  dir: string;
  /** Said when something was dropped on reading (a torn last line). */
  warn: (message: string) => void;
}

/** The journal of one emulator's state. Open it with openJournal. */
export class Journal {
  private readonly file: string;
  private fd: number | undefined;
  private readonly unlock: () => void;
  /** The reports of the current state only: a reset makes a new sink, and the old state's late reports go nowhere. */
  private sink: ChangeSink = { changed: () => undefined, replaced: () => undefined };
  private dirty = new Map<Container, Set<string>>();
  /** Deletions written before this tick's other lines: keys whose old value (and what it held) was replaced. */
  private replacements: JournalLine[] = [];
  private scheduled = false;
  private closed = false;
  /** Bytes of the latest record of each key, and their sum: what a compaction would write. */
  private live = new Map<string, number>();
  private liveBytes = 0;
  private fileBytes = 0;

  constructor(
    private readonly state: EmulatorState,
    private readonly clock: AdjustableClock,
    private readonly options: JournalOptions,
  ) {
    this.file = path.join(options.dir, JOURNAL_FILE);
    this.unlock = lockDirectory(options.dir);
    // A process that exits without closing (process.exit, the end of a script) still writes its last tick.
    process.once("exit", this.flushAtExit);
  }

  private readonly flushAtExit = () => this.flush();

  /** Reads the saved state into `state` (in place) and the clock; false when there was none. */
  load(): boolean {
    let saved: SavedState | undefined;
    try {
      saved = readSavedState(this.options.dir, this.options.warn);
    } catch (error) {
      this.unlock();
      throw error;
    }
    if (!saved) return false;
    const target = this.state as unknown as Record<string, unknown>;
    for (const [field, value] of Object.entries(saved.state)) target[field] = value;
    this.state.workspace = [...this.state.workspaces.values()][0] ?? this.state.workspace;
    this.clock.advance(saved.clockOffsetMs - this.clock.offsetMs());
    return true;
  }

  /** Starts journaling the state as it is now: adopts its containers and rewrites the file whole. */
  attach(): void {
    const sink: ChangeSink = {
      changed: (container, key) => this.sink === sink && this.changed(container, key),
      replaced: (container, key) => this.sink === sink && this.replaced(container, key),
    };
    this.sink = sink;
    this.dirty.clear();
    const root: Container = { path: [], shape: { kind: "map", of: STATE_SHAPE }, sink, valueAt: (key) => (key === STATE_KEY ? this.state : undefined) };
    adoptRecord(this.state, STATE_SHAPE, STATE_PATH, { container: root, key: STATE_KEY }, sink, false);
    this.compact();
  }

  /** The clock moved: its offset is part of the state's own record. */
  clockMoved(): void {
    touch(this.state);
  }

  private changed(container: Container, key: string): void {
    if (this.closed) return;
    let keys = this.dirty.get(container);
    if (!keys) this.dirty.set(container, (keys = new Set()));
    keys.add(key);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flushOrWarn());
    }
  }

  /** A key given another value than the one it held: what was saved under the old one goes first. */
  private replaced(container: Container, key: string): void {
    if (this.closed) return;
    this.replacements.push({ p: [...container.path], k: key, d: 1 });
    this.changed(container, key);
  }

  private lineOf(container: Container, key: string): JournalLine {
    const value = container.valueAt(key);
    if (value === undefined) return { p: [...container.path], k: key, d: 1 };
    const of = container.shape.of;
    if (of.kind !== "record") return { p: [...container.path], k: key, v: 0 };
    const line = recordLine(container.path, key, value, of);
    if (value === this.state) line.clock = this.clock.offsetMs();
    return line;
  }

  /** A write that failed (a full disk) is said, and its changes are tried again with the next ones. */
  private flushOrWarn(): void {
    try {
      this.flush();
    } catch (error) {
      this.options.warn(
        `The emulator could not write its journal ${this.file}: ${error instanceof Error ? error.message : String(error)}. It tries again at the next change.`,
      );
    }
  }

  /** Writes what changed since the last flush, one write for all of it. */
  flush(): void {
    this.scheduled = false;
    if (this.fd === undefined || this.dirty.size === 0) return;
    const dirty = this.dirty;
    let text = "";
    // The replaced keys' deletions first, so that reading back drops the old value's records and then finds the new ones.
    for (const line of this.replacements) text += `${JSON.stringify(line)}\n`;
    for (const [container, keys] of dirty) {
      for (const key of keys) {
        const line = this.lineOf(container, key);
        const json = `${JSON.stringify(line)}\n`;
        this.account(line, json.length);
        text += json;
      }
    }
    writeAll(this.fd, Buffer.from(text));
    // Only once written: a failed write leaves the changes to the next flush.
    this.dirty = new Map();
    this.replacements = [];
    this.fileBytes += text.length;
    if (this.fileBytes > COMPACT_MIN_BYTES && this.fileBytes > COMPACT_FACTOR * this.liveBytes) this.compact();
  }

  private account(line: JournalLine, bytes: number): void {
    const id = lineId(line.p, line.k);
    this.liveBytes -= this.live.get(id) ?? 0;
    if (line.d === 1) this.live.delete(id);
    else {
      this.live.set(id, bytes);
      this.liveBytes += bytes;
    }
  }

  /** Rewrites the journal as the state is now, and goes on appending to the new file. */
  compact(): void {
    this.dirty.clear();
    this.replacements = [];
    this.live.clear();
    this.liveBytes = 0;
    const parts: string[] = [HEADER_LINE];
    const root = recordLine([], STATE_KEY, this.state, STATE_SHAPE);
    root.clock = this.clock.offsetMs();
    for (const line of [root, ...recordContainerLines(this.state, STATE_SHAPE, STATE_PATH)]) {
      const json = `${JSON.stringify(line)}\n`;
      this.account(line, json.length);
      parts.push(json);
    }
    const text = parts.join("");
    if (this.fd !== undefined) closeSync(this.fd);
    replaceJournal(this.file, text);
    this.fd = openSync(this.file, "a", 0o600);
    this.fileBytes = text.length;
  }

  /** Writes what is pending and gives the directory back. Changes after this are not saved. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    process.removeListener("exit", this.flushAtExit);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.unlock();
  }
}

/**
 * Opens the journal in `options.dir` for `state`: reads back what it saved (into `state`, in place, and the
 * clock's offset), then keeps every change. Refuses a directory another emulator has, and a damaged journal.
 */
export function openJournal(state: EmulatorState, clock: AdjustableClock, options: JournalOptions): Journal {
  const journal = new Journal(state, clock, options);
  journal.load();
  journal.attach();
  return journal;
}
