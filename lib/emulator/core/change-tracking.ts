/**
 * How the state tells the journal what changed, without the code that changes it saying so. The persistence
 * layer adopts every container of the state (persist/state-shape.ts): a Map's set, delete and clear, an array's
 * push, splice, shift, unshift and pop report the key they touched, and a record stored in a container is
 * adopted with it (its own containers too). The objects keep their identity (their prototype is swapped),
 * so whoever holds one, before or after, goes on using it; reads cost what they did.
 *
 * What no container sees is a change made inside a stored record (`channel.topic = …`, a reaction pushed
 * onto a message's list): the code says so with `touch(record)`, the one call to remember. Nor does a list
 * see `sort`, `reverse`, `fill` or an assignment to an index or its length: the state's lists change by push
 * and splice. The persistence test (tests/unit/emulator/persistence.slow.test.ts) runs the Web API's writes and
 * checks after every request that the journal read back is the live state, so a change not reported fails it.
 */
import { containersOf, type ContainerShape, type GroupShape, type ListShape, type RecordShape } from "./record-shapes";

/** Where the reports go: the journal (persist/journal.ts). */
export interface ChangeSink {
  changed(container: Container, key: string): void;
  /** `key` now holds another value than before: what was saved under the old one is to be forgotten. */
  replaced(container: Container, key: string): void;
}

/** One adopted Map or array, at its path in the state. */
export interface Container {
  readonly path: readonly string[];
  readonly shape: ContainerShape;
  readonly sink: ChangeSink;
  /** The value stored under `key` now (undefined: none), what the journal writes when it flushes. */
  valueAt(key: string): unknown;
}

/** The containers adopted, by the object adopted. */
const CONTAINERS = new WeakMap<object, Container>();
/** Where each adopted record lives: what touch() reports. */
const SLOTS = new WeakMap<object, { container: Container; key: string }>();

/**
 * Reports that `record` (a value stored in the state: a token, a message, a channel, the state itself) was
 * changed in place. Costs a lookup when nothing is saved (no data directory).
 */
export function touch(record: object): void {
  const slot = SLOTS.get(record);
  if (slot) slot.container.sink.changed(slot.container, slot.key);
}

function stored(container: Container, key: string, value: unknown, fresh: boolean): void {
  const of = container.shape.of;
  const path = [...container.path, key];
  // A record may be a plain value (a ticket's file id): nothing in it can change in place.
  if (of.kind === "record") {
    if (typeof value === "object" && value !== null) adoptRecord(value, of, path, { container, key }, container.sink, fresh);
  } else adoptContainer(value as object, of, path, container.sink, fresh);
  if (fresh) container.sink.changed(container, key);
}

class JournaledMap<K, V> extends Map<K, V> {
  override set(key: K, value: V): this {
    const previous = super.get(key);
    super.set(key, value);
    const container = CONTAINERS.get(this);
    if (container) {
      // Another object under the same key (a channel's message list made anew): the old one's records go.
      if (previous !== undefined && previous !== value && typeof previous === "object") container.sink.replaced(container, String(key));
      stored(container, String(key), value, true);
    }
    return this;
  }

  override delete(key: K): boolean {
    const had = super.delete(key);
    const container = CONTAINERS.get(this);
    if (had && container) container.sink.changed(container, String(key));
    return had;
  }

  override clear(): void {
    const container = CONTAINERS.get(this);
    if (container) for (const key of this.keys()) container.sink.changed(container, String(key));
    super.clear();
  }
}

/** An adopted list keeps an index by key, so that the journal finds an element without a scan. */
const INDEXES = new WeakMap<object, Map<string, unknown>>();

class JournaledList<T> extends Array<T> {
  // filter, map, slice … make plain arrays: only the state's own list reports.
  static override get [Symbol.species]() {
    return Array;
  }

  override push(...items: T[]): number {
    const length = super.push(...items);
    this.entered(items);
    return length;
  }

  override unshift(...items: T[]): number {
    const length = super.unshift(...items);
    this.entered(items);
    return length;
  }

  override pop(): T | undefined {
    const had = this.length > 0;
    const item = super.pop();
    if (had) this.left([item as T]);
    return item;
  }

  override shift(): T | undefined {
    const had = this.length > 0;
    const item = super.shift();
    if (had) this.left([item as T]);
    return item;
  }

  override splice(start: number, deleteCount?: number, ...items: T[]): T[] {
    const removed = deleteCount === undefined && items.length === 0 ? super.splice(start) : super.splice(start, deleteCount ?? 0, ...items);
    this.left(removed);
    this.entered(items);
    return removed;
  }

  private entered(items: T[]): void {
    const container = CONTAINERS.get(this);
    if (!container) return;
    const shape = container.shape as ListShape;
    for (const item of items) {
      const key = shape.key(item);
      INDEXES.get(this)?.set(key, item);
      stored(container, key, item, true);
    }
  }

  private left(items: T[]): void {
    const container = CONTAINERS.get(this);
    if (!container) return;
    const shape = container.shape as ListShape;
    const index = INDEXES.get(this);
    for (const item of items) {
      const key = shape.key(item);
      if (index?.get(key) === item) index.delete(key);
      container.sink.changed(container, key);
    }
  }
}

/**
 * Adopts a container at `path`: from now on it reports its changes to `sink`. `fresh`: it and everything in it
 * are new to the journal (stored at run time, not read back from it), so every entry is reported.
 */
export function adoptContainer(target: object, shape: ContainerShape | GroupShape, path: readonly string[], sink: ChangeSink, fresh: boolean): void {
  if (shape.kind === "group") {
    for (const [field, sub] of Object.entries(shape.containers)) {
      const value = (target as Record<string, unknown>)[field];
      if (value) adoptContainer(value as object, sub, [...path, field], sink, fresh);
    }
    return;
  }
  if (shape.kind === "map") {
    const map = target as Map<unknown, unknown>;
    const container: Container = { path, shape, sink, valueAt: (key) => map.get(key) };
    Object.setPrototypeOf(map, JournaledMap.prototype);
    CONTAINERS.set(map, container);
    for (const [key, value] of map) stored(container, String(key), value, fresh);
    return;
  }
  const list = target as unknown[];
  const index = new Map<string, unknown>();
  const container: Container = { path, shape, sink, valueAt: (key) => index.get(key) };
  Object.setPrototypeOf(list, JournaledList.prototype);
  CONTAINERS.set(list, container);
  INDEXES.set(list, index);
  for (const item of list) {
    const key = shape.key(item);
    index.set(key, item);
    stored(container, key, item, fresh);
  }
}

/** Adopts a record (stored at `slot`) and its containers, which live under `path`. */
export function adoptRecord(
  record: object,
  shape: RecordShape,
  path: readonly string[],
  slot: { container: Container; key: string },
  sink: ChangeSink,
  fresh: boolean,
): void {
  SLOTS.set(record, slot);
  for (const [field, sub] of containersOf(shape, record)) {
    const value = (record as Record<string, unknown>)[field];
    if (value) adoptContainer(value as object, sub, [...path, field], sink, fresh);
  }
}
