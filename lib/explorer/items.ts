/**
 * The collection a paginated response carries, and the rows the explorer's table shows for it. The wire
 * shapes (members of users.list, channels of conversations.list, or another method's array) are reshaped
 * here into one row type, so the table and the CSV export never look at platform JSON.
 */

export type CollectionKind = "members" | "channels" | "items";

export interface Collection {
  /** The response field that holds the array, for example "members". */
  field: string;
  kind: CollectionKind;
  items: unknown[];
}

export type Row = Record<string, string>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Finds the array a paginated response carries: members, channels, or the first array field. */
export function findCollection(body: unknown): Collection | null {
  // An error answer (the platform's or the console's, whose `issues` is an array) carries no collection.
  if (!isRecord(body) || body.ok === false) return null;
  if (Array.isArray(body.members)) return { field: "members", kind: "members", items: body.members };
  if (Array.isArray(body.channels)) return { field: "channels", kind: "channels", items: body.channels };
  for (const [field, value] of Object.entries(body)) {
    if (Array.isArray(value)) return { field, kind: "items", items: value };
  }
  return null;
}

/** Reads a field of an item, or of an object inside it, without trusting its shape. */
const fieldOf = (v: unknown, key: string): unknown => (isRecord(v) ? v[key] : undefined);

/** Channels carry topic and purpose as objects with a `value`. */
const valueOf = (v: unknown): unknown => (isRecord(v) ? v.value : v);

/** Each column of each kind of row, and where it comes from in the platform's item, in table and CSV order. */
const CELLS: Record<CollectionKind, Readonly<Record<string, (item: unknown) => unknown>>> = {
  members: {
    id: (m) => fieldOf(m, "id"),
    name: (m) => fieldOf(m, "name"),
    real_name: (m) => fieldOf(m, "real_name") ?? fieldOf(fieldOf(m, "profile"), "real_name"),
    email: (m) => fieldOf(fieldOf(m, "profile"), "email"),
    title: (m) => fieldOf(fieldOf(m, "profile"), "title"),
    tz: (m) => fieldOf(m, "tz"),
    is_admin: (m) => fieldOf(m, "is_admin"),
    is_bot: (m) => fieldOf(m, "is_bot"),
    deleted: (m) => fieldOf(m, "deleted"),
  },
  channels: {
    id: (c) => fieldOf(c, "id"),
    name: (c) => fieldOf(c, "name"),
    is_private: (c) => fieldOf(c, "is_private"),
    is_archived: (c) => fieldOf(c, "is_archived"),
    num_members: (c) => fieldOf(c, "num_members"),
    topic: (c) => valueOf(fieldOf(c, "topic")),
    purpose: (c) => valueOf(fieldOf(c, "purpose")),
    created: (c) => fieldOf(c, "created"),
  },
  // Another method's array: objects show their id and name, anything else (strings, numbers) its value.
  items: {
    id: (i) => fieldOf(i, "id"),
    name: (i) => fieldOf(i, "name"),
    value: (i) => (isRecord(i) ? undefined : i),
  },
};

export const COLUMNS: Record<CollectionKind, readonly string[]> = {
  members: Object.keys(CELLS.members),
  channels: Object.keys(CELLS.channels),
  items: Object.keys(CELLS.items),
};

const text = (v: unknown): string => {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
};

/**
 * One cell as the platform sent it, numbers and booleans still typed, so the table can sort by value; an
 * unknown column reads as missing.
 */
export function cellValueOf(kind: CollectionKind, column: string, item: unknown): unknown {
  return CELLS[kind][column]?.(item);
}

/** One cell as the table shows it. */
export function cellTextOf(kind: CollectionKind, column: string, item: unknown): string {
  return text(cellValueOf(kind, column, item));
}

export function toRow(kind: CollectionKind, item: unknown): Row {
  const row: Row = {};
  for (const [column, read] of Object.entries(CELLS[kind])) row[column] = text(read(item));
  return row;
}

/** Lower-cased text of a row, so the filter is one `includes` per row. */
export function searchTextOf(row: Row): string {
  return Object.values(row).join("\u0001").toLowerCase();
}
