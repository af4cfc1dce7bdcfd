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

/** The columns of each kind of row, in table and CSV order. */
export const COLUMNS: Record<CollectionKind, readonly string[]> = {
  members: ["id", "name", "real_name", "email", "title", "tz", "is_admin", "is_bot", "deleted"],
  channels: ["id", "name", "is_private", "is_archived", "num_members", "topic", "purpose", "created"],
  items: ["id", "name", "value"],
};

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

const text = (v: unknown): string => {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
};

/** Channels carry topic and purpose as objects with a `value`. */
const valueOf = (v: unknown): string => (isRecord(v) ? text(v.value) : text(v));

export function toRow(kind: CollectionKind, item: unknown): Row {
  const r = isRecord(item) ? item : { value: item };
  if (kind === "members") {
    const profile = isRecord(r.profile) ? r.profile : {};
    return {
      id: text(r.id),
      name: text(r.name),
      real_name: text(r.real_name ?? profile.real_name),
      email: text(profile.email),
      title: text(profile.title),
      tz: text(r.tz),
      is_admin: text(r.is_admin),
      is_bot: text(r.is_bot),
      deleted: text(r.deleted),
    };
  }
  if (kind === "channels") {
    return {
      id: text(r.id),
      name: text(r.name),
      is_private: text(r.is_private),
      is_archived: text(r.is_archived),
      num_members: text(r.num_members),
      topic: valueOf(r.topic),
      purpose: valueOf(r.purpose),
      created: text(r.created),
    };
  }
  return { id: text(r.id), name: text(r.name), value: isRecord(item) ? "" : text(item) };
}

/** Lower-cased text of a row, so the filter is one `includes` per row. */
export function searchTextOf(row: Row): string {
  return Object.values(row).join("\u0001").toLowerCase();
}
