import { PAGINATED_LISTS } from "./catalog/lists.generated";

/**
 * The collection a paginated response carries, and the rows the explorer's table shows for it. The wire
 * shapes (members of users.list, channels of conversations.list, or another method's array) are reshaped
 * here into one row type, so the table and the CSV export never look at platform JSON.
 */

/** Members and channels have columns of their own, which reach into nested values (profile.email, topic.value). */
export type CollectionKind = "members" | "channels" | "items";

export interface Collection {
  /** The response field that holds the array, for example "members". */
  field: string;
  kind: CollectionKind;
  items: unknown[];
}

export type Row = Record<string, string>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function collectionOf(field: string, items: unknown[]): Collection {
  // conversations.members' members are user IDs, not user objects: plain items, shown by value.
  const objects = items.length === 0 || isRecord(items[0]);
  const kind = objects && (field === "members" || field === "channels") ? field : "items";
  return { field, kind, items };
}

/**
 * Finds the array a paginated response carries: the list the catalog names for `method` (conversations.history's
 * messages), or for a method it does not page, members, channels, or the first array field.
 */
export function findCollection(body: unknown, method?: string): Collection | null {
  // An error answer (the platform's or the console's, whose `issues` is an array) carries no collection.
  if (!isRecord(body) || body.ok === false) return null;
  const listed = method === undefined ? undefined : PAGINATED_LISTS[method];
  const list = listed === undefined ? undefined : body[listed];
  if (listed !== undefined && Array.isArray(list)) return collectionOf(listed, list);
  if (Array.isArray(body.members)) return collectionOf("members", body.members);
  if (Array.isArray(body.channels)) return collectionOf("channels", body.channels);
  for (const [field, value] of Object.entries(body)) {
    if (Array.isArray(value)) return collectionOf(field, value);
  }
  return null;
}

/** Reads a field of an item, or of an object inside it, without trusting its shape. */
const fieldOf = (v: unknown, key: string): unknown => (isRecord(v) ? v[key] : undefined);

/** Channels carry topic and purpose as objects with a `value`. */
const valueOf = (v: unknown): unknown => (isRecord(v) ? v.value : v);

/** Each column of members and channels, and where it comes from in the platform's item, in table and CSV order. */
const CELLS: Record<Exclude<CollectionKind, "items">, Readonly<Record<string, (item: unknown) => unknown>>> = {
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
};

export const MEMBER_COLUMNS: readonly string[] = Object.keys(CELLS.members);
export const CHANNEL_COLUMNS: readonly string[] = Object.keys(CELLS.channels);

/** The one column of items that are not objects (conversations.members' user IDs, admin.teams.admins.list's). */
const VALUE_COLUMN = "value";

/** Columns that say which item a row is and what it says, first whenever the items have them. */
const LEADING_COLUMNS = ["id", "ts", "name", "text"];

type Scalar = string | number | boolean | null;
const isScalar = (v: unknown): v is Scalar => v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/**
 * Another method's items: each field that holds a scalar is a cell; objects and arrays (a message's
 * blocks, a file's shares) stay in the JSON view. An item that is itself a scalar is its `value`.
 */
function itemCell(item: unknown, column: string): Scalar | undefined {
  if (!isRecord(item)) return column === VALUE_COLUMN && isScalar(item) ? item : undefined;
  const value = item[column];
  return isScalar(value) ? value : undefined;
}

/**
 * Adds the columns the items from `from` on bring to `fields` (in the order they first appear): the fields
 * where some item holds a scalar other than null, or VALUE_COLUMN for scalar items.
 */
export function addItemColumns(fields: Set<string>, items: readonly unknown[], from = 0): void {
  for (let i = from; i < items.length; i++) {
    const item = items[i];
    if (!isRecord(item)) {
      if (isScalar(item) && item !== null) fields.add(VALUE_COLUMN);
      continue;
    }
    for (const key in item) {
      const value = item[key];
      if (value !== null && isScalar(value)) fields.add(key);
    }
  }
}

/** Columns in table order: id, ts, name and text first, then the others as the items first showed them. */
export function orderItemColumns(fields: Iterable<string>): string[] {
  const all = [...fields];
  return [...LEADING_COLUMNS.filter((column) => all.includes(column)), ...all.filter((column) => !LEADING_COLUMNS.includes(column))];
}

/** The columns of a table of `items`, in table and CSV order. */
export function columnsOf(kind: CollectionKind, items: readonly unknown[]): readonly string[] {
  if (kind === "members") return MEMBER_COLUMNS;
  if (kind === "channels") return CHANNEL_COLUMNS;
  const fields = new Set<string>();
  addItemColumns(fields, items);
  return orderItemColumns(fields);
}

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
  return kind === "items" ? itemCell(item, column) : CELLS[kind][column]?.(item);
}

/** One cell as the table shows it. */
export function cellTextOf(kind: CollectionKind, column: string, item: unknown): string {
  return text(cellValueOf(kind, column, item));
}

/** Every cell of one item, by column; a column the item has nothing for is absent. */
export function toRow(kind: CollectionKind, item: unknown): Row {
  const row: Row = {};
  if (kind !== "items") {
    for (const [column, read] of Object.entries(CELLS[kind])) row[column] = text(read(item));
  } else if (!isRecord(item)) {
    if (isScalar(item)) row[VALUE_COLUMN] = text(item);
  } else {
    for (const key in item) {
      const value = item[key];
      if (isScalar(value)) row[key] = text(value);
    }
  }
  return row;
}

/** Lower-cased text of a row, so the filter is one `includes` per row. */
export function searchTextOf(row: Row): string {
  return Object.values(row).join("\u0001").toLowerCase();
}
