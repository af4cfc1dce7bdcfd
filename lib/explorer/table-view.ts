import { addItemColumns, cellTextOf, cellValueOf, columnsOf, orderItemColumns, searchTextOf, toRow, type CollectionKind } from "./items";

/**
 * Which rows the explorer's results table shows, and in what order: filtered (in every column or in one),
 * then sorted by one column. A table can hold a whole workspace (100,000 members), so the view is an array
 * of item indices over keys read once per item, and a walk that appends items extends what it has already
 * sorted instead of sorting again.
 */

export type SortDirection = "ascending" | "descending";

export interface TableSort {
  column: string;
  direction: SortDirection;
}

export interface TableQuery {
  /** Text to find, in any case; blank shows every row. */
  filter: string;
  /** The one column the filter looks in, or null for all of them. */
  filterColumn: string | null;
  /** Null keeps the order the platform sent. */
  sort: TableSort | null;
}

/** A click on a column's header: ascending, then descending, then back to the order the platform sent. */
export function nextSort(sort: TableSort | null, column: string): TableSort | null {
  if (sort?.column !== column) return { column, direction: "ascending" };
  return sort.direction === "ascending" ? { column, direction: "descending" } : null;
}

/** What a cell sorts by; null for a missing or empty value, which sorts last in either direction. */
export type SortKey = number | boolean | string | null;

export function toSortKey(value: unknown): SortKey {
  if (typeof value === "number") return Number.isNaN(value) ? null : value;
  if (typeof value === "boolean") return value;
  if (typeof value === "string") return value === "" ? null : value;
  if (value === undefined || value === null) return null;
  return JSON.stringify(value);
}

/** Text in the reader's language, with runs of digits compared as numbers ("user2" before "user10"). */
const TEXT_COLLATOR = new Intl.Collator(undefined, { numeric: true });

/**
 * Sorts `rows` (item indices, in item order) by their keys. Ties keep item order. A column that mixes
 * types sorts as a spreadsheet does: numbers, then text, then false and true, reversed when descending;
 * missing values come last either way.
 */
export function sortRows(rows: readonly number[], keys: readonly SortKey[], direction: SortDirection, collator: Intl.Collator = TEXT_COLLATOR): number[] {
  const numbers: number[] = [];
  const texts: number[] = [];
  const falses: number[] = [];
  const trues: number[] = [];
  const missing: number[] = [];
  for (const row of rows) {
    const key = keys[row] ?? null;
    if (key === null) missing.push(row);
    else if (typeof key === "number") numbers.push(row);
    else if (typeof key === "string") texts.push(row);
    else (key ? trues : falses).push(row);
  }
  const sign = direction === "ascending" ? 1 : -1;
  const byNumber = sortByNumber(numbers, keys, sign);
  const byText = sortByText(texts, keys, sign, collator);
  return sign === 1 ? [...byNumber, ...byText, ...falses, ...trues, ...missing] : [...trues, ...falses, ...byText, ...byNumber, ...missing];
}

/** The order `sortRows` makes, as a comparator: used to place a few new rows among many sorted ones. */
function compareRows(keys: readonly SortKey[], direction: SortDirection, collator: Intl.Collator) {
  const sign = direction === "ascending" ? 1 : -1;
  return (a: number, b: number): number => {
    const ka = keys[a] ?? null;
    const kb = keys[b] ?? null;
    const ra = typeRank(ka);
    const rb = typeRank(kb);
    if (ra !== rb) return ka === null || kb === null ? ra - rb : sign * (ra - rb);
    let order = 0;
    if (typeof ka === "number") order = ka - (kb as number);
    else if (typeof ka === "string") order = collator.compare(ka, kb as string);
    else if (typeof ka === "boolean") order = Number(ka) - Number(kb);
    return sign * order || a - b;
  };
}

const typeRank = (key: SortKey): number => (key === null ? 3 : typeof key === "number" ? 0 : typeof key === "string" ? 1 : 2);

function sortByNumber(rows: readonly number[], keys: readonly SortKey[], sign: number): number[] {
  // `+ 0` turns -0 into 0, which it equals.
  const values = Float64Array.from(rows, (row) => (keys[row] as number) + 0);
  // A typed array sorts numerically, natively: far faster than a comparator.
  const sorted = values.slice().sort();
  const ranks = values.map((value) => firstIndexOf(sorted, value));
  return orderByRank(rows, ranks, rows.length, sign);
}

/** Where a value first appears in an ascending array that holds it. */
function firstIndexOf(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Puts rows in order of their ranks (each below `rankCount`) in linear time; rows of equal rank keep their order. */
function orderByRank(rows: readonly number[], ranks: Float64Array, rankCount: number, sign: number): number[] {
  const slot = (rank: number) => (sign === 1 ? rank : rankCount - 1 - rank);
  const starts = new Uint32Array(rankCount + 1);
  for (const rank of ranks) starts[slot(rank) + 1]!++;
  for (let r = 1; r <= rankCount; r++) starts[r]! += starts[r - 1]!;
  const ordered = new Array<number>(rows.length);
  for (let i = 0; i < rows.length; i++) ordered[starts[slot(ranks[i]!)]!++] = rows[i]!;
  return ordered;
}

/**
 * Collator comparisons cost a quarter to half a microsecond each, too slow for the 1.7 million a sort of
 * 100,000 rows makes. So the texts are first put in order by keys that order them as the collator does
 * nearly always (`collationKeysOf`), with a radix sort and no comparisons at all, then sorted again with
 * the collator: that sort meets runs already in order and settles them in about one comparison per row,
 * fixing whatever the keys got wrong (case, accents that only break ties, characters that collate as
 * several, texts alike beyond the keys' length), so the order is exactly the collator's.
 */
function sortByText(rows: readonly number[], keys: readonly SortKey[], sign: number, collator: Intl.Collator): number[] {
  const texts = rows.map((row) => keys[row] as string);
  const presorted = Array.from(radixSort(collationKeysOf(texts, collator)));
  // Backwards, runs of equal texts come in reverse item order: the sort below turns each such run round whole.
  const order = sign === 1 ? presorted : presorted.reverse();
  // Positions follow item order, so ordering ties by position keeps them in item order.
  order.sort((a, b) => sign * collator.compare(texts[a]!, texts[b]!) || a - b);
  return order.map((position) => rows[position]!);
}

const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const isDigit = (code: number) => code >= DIGIT_0 && code <= DIGIT_9;
/** Keys need only a prefix: texts that share it are put in order by the collator afterwards. */
const KEY_LENGTH = 24;
/** Every ASCII character but the digits, which collate as numbers: ranked whether or not the texts hold them. */
const ASCII = Array.from({ length: 0x80 }, (_, code) => String.fromCharCode(code)).filter((c) => !isDigit(c.charCodeAt(0)));
const IGNORABLE = 0;
const UNRANKED = 0xffff;

/**
 * The first KEY_LENGTH code units of each text's key, 0 past its end: `codes[i * count + position]` is
 * code unit i of the key of text `position` (stored by code unit, so that each radix pass reads one
 * compact stretch). Every code unit is below `alphabet`.
 */
interface CollationKeys {
  codes: Uint16Array;
  count: number;
  alphabet: number;
}

/**
 * Keys whose order is the collator's primary order for nearly all text: each character is replaced by
 * its rank among the characters of the texts, ranked by the collator at base strength (case and accents
 * aside, ignorable characters dropped), and each run of digits by a marker, its length without leading
 * zeros, and its digits, so that numbers compare by value.
 */
function collationKeysOf(texts: readonly string[], collator: Intl.Collator): CollationKeys {
  const locale = collator.resolvedOptions().locale;
  const characters = ["0", ...ASCII]; // "0" stands for every run of digits
  // Most keys are ASCII: rank it alone first, and again with the other characters the keys turn out to hold.
  const unranked = new Set<string>();
  const keys = encodeKeys(texts, rankCharacters(characters, locale), unranked);
  return unranked.size === 0 ? keys : encodeKeys(texts, rankCharacters([...characters, ...unranked], locale), unranked);
}

/** Each character's weight (its rank, IGNORABLE, or UNRANKED for one not among `characters`), and the highest rank. */
interface CharacterWeights {
  weights: Uint16Array;
  top: number;
}

function rankCharacters(characters: string[], locale: string): CharacterWeights {
  const base = new Intl.Collator(locale, { sensitivity: "base", numeric: true });
  characters.sort(base.compare);
  const weights = new Uint16Array(0x10000).fill(UNRANKED);
  let top = 0;
  let previous: string | null = null;
  for (const character of characters) {
    if (base.compare(character, "") === 0) {
      weights[character.charCodeAt(0)] = IGNORABLE;
      continue;
    }
    if (previous === null || base.compare(previous, character) !== 0) top++;
    weights[character.charCodeAt(0)] = top;
    previous = character;
  }
  return { weights, top };
}

/** The keys, given the characters' weights; characters without one are added to `unranked`. */
function encodeKeys(texts: readonly string[], { weights, top }: CharacterWeights, unranked: Set<string>): CollationKeys {
  const digitWeight = weights[DIGIT_0]!;
  // Weights, digits and run lengths (from 1, so that only an ended key holds 0) are all below this.
  const alphabet = Math.max(top, DIGIT_9, KEY_LENGTH + 1) + 1;
  const count = texts.length;
  const codes = new Uint16Array(count * KEY_LENGTH);
  const end = codes.length;
  for (let position = 0; position < count; position++) {
    const text = texts[position]!;
    // `at` steps by `count`: the next code unit of this text's key.
    let at = position;
    for (let i = 0; i < text.length && at < end;) {
      const code = text.charCodeAt(i);
      if (!isDigit(code)) {
        const w = weights[code]!;
        if (w === UNRANKED) {
          unranked.add(text[i]!);
          weights[code] = IGNORABLE; // for the rest of this pass, which is done again
        } else if (w !== IGNORABLE) {
          codes[at] = w;
          at += count;
        }
        i++;
        continue;
      }
      let start = i;
      while (text.charCodeAt(start) === DIGIT_0) start++;
      let stop = start;
      while (stop < text.length && isDigit(text.charCodeAt(stop))) stop++;
      codes[at] = digitWeight;
      at += count;
      if (at < end) codes[at] = Math.min(stop - start + 1, KEY_LENGTH + 1);
      at += count;
      for (let d = start; d < stop && at < end; d++, at += count) codes[at] = text.charCodeAt(d);
      i = stop;
    }
  }
  return { codes, count, alphabet };
}

/** Text positions in the order of their keys, ties in position order (least significant digit radix sort). */
function radixSort({ codes, count, alphabet }: CollationKeys): Uint32Array {
  let order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  let next = new Uint32Array(count);
  const starts = new Uint32Array(alphabet + 1);
  for (let unit = KEY_LENGTH - 1; unit >= 0; unit--) {
    const offset = unit * count;
    starts.fill(0);
    for (let position = 0; position < count; position++) starts[codes[offset + position]! + 1]!++;
    // A code unit all the keys share (0 past the end of every key) changes nothing.
    if (starts.includes(count)) continue;
    for (let c = 1; c <= alphabet; c++) starts[c]! += starts[c - 1]!;
    for (let i = 0; i < count; i++) {
      const position = order[i]!;
      next[starts[codes[offset + position]!]!++] = position;
    }
    [order, next] = [next, order];
  }
  return order;
}

/** Merges rows sorted by `compare` into rows sorted by it; `compare` never answers 0 for two rows. */
function mergeRows(sorted: readonly number[], added: readonly number[], compare: (a: number, b: number) => number): number[] {
  const merged: number[] = [];
  let from = 0;
  for (const row of added) {
    // Binary search for the first sorted row that goes after this one.
    let lo = from;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(sorted[mid]!, row) < 0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = from; i < lo; i++) merged.push(sorted[i]!);
    merged.push(row);
    from = lo;
  }
  for (let i = from; i < sorted.length; i++) merged.push(sorted[i]!);
  return merged;
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

/**
 * The rows of one table's items: keeps each column's sort keys and lower-cased texts, and the last sort,
 * for as long as the table shows the same array. The array may grow in place (a walk streaming in);
 * each call covers every item it holds by then.
 */
export class TableView {
  private readonly keys = new Map<string, SortKey[]>();
  private readonly texts = new Map<string | null, string[]>();
  private sorted: { sort: TableSort; rows: number[] } | null = null;
  /** The fields seen in the first `columnsSeen` items, and the columns they make. */
  private readonly fields = new Set<string>();
  private columnsSeen = 0;
  private columnList: readonly string[];

  constructor(
    readonly kind: CollectionKind,
    readonly items: readonly unknown[],
    private readonly collator: Intl.Collator = TEXT_COLLATOR,
  ) {
    this.columnList = columnsOf(kind, []);
  }

  /**
   * The table's columns: fixed for members and channels; for other items, their scalar fields, read from
   * the items added since the last call only. The same array while no column is added, so a header that
   * depends on it does not render again.
   */
  columns(): readonly string[] {
    if (this.kind !== "items" || this.columnsSeen === this.items.length) return this.columnList;
    const before = this.fields.size;
    addItemColumns(this.fields, this.items, this.columnsSeen);
    this.columnsSeen = this.items.length;
    if (this.fields.size !== before) this.columnList = orderItemColumns(this.fields);
    return this.columnList;
  }

  /**
   * The indices of the items to show, in order, or null to show every item as it came. The same rows as
   * filtering and then sorting; sorting every row and keeping that order lets each keystroke in the filter
   * be one pass over the rows, with no sort.
   */
  rows(query: TableQuery): readonly number[] | null {
    const order = query.sort ? this.sortedRows(query.sort) : null;
    const needle = query.filter.trim().toLowerCase();
    if (needle === "") return order;
    const texts = this.textsOf(query.filterColumn);
    const found: number[] = [];
    if (order) {
      for (const row of order) if (texts[row]!.includes(needle)) found.push(row);
    } else {
      for (let row = 0; row < texts.length; row++) if (texts[row]!.includes(needle)) found.push(row);
    }
    return found;
  }

  private sortedRows(sort: TableSort): number[] {
    const keys = this.keysOf(sort.column);
    const last = this.sorted;
    let rows: number[];
    if (last && last.sort.column === sort.column && last.sort.direction === sort.direction) {
      if (last.rows.length === keys.length) return last.rows;
      const added = sortRows(range(last.rows.length, keys.length), keys, sort.direction, this.collator);
      // Placing each new row costs a binary search; past a point, one sort of everything is cheaper.
      rows =
        added.length * 16 < last.rows.length
          ? mergeRows(last.rows, added, compareRows(keys, sort.direction, this.collator))
          : sortRows(range(0, keys.length), keys, sort.direction, this.collator);
    } else {
      rows = sortRows(range(0, keys.length), keys, sort.direction, this.collator);
    }
    this.sorted = { sort, rows };
    return rows;
  }

  private keysOf(column: string): SortKey[] {
    let keys = this.keys.get(column);
    if (!keys) this.keys.set(column, (keys = []));
    for (let i = keys.length; i < this.items.length; i++) keys.push(toSortKey(cellValueOf(this.kind, column, this.items[i])));
    return keys;
  }

  private textsOf(column: string | null): string[] {
    let texts = this.texts.get(column);
    if (!texts) this.texts.set(column, (texts = []));
    for (let i = texts.length; i < this.items.length; i++) {
      const item = this.items[i];
      texts.push(column === null ? searchTextOf(toRow(this.kind, item)) : cellTextOf(this.kind, column, item).toLowerCase());
    }
    return texts;
  }
}
