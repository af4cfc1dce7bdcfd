/**
 * The words in which the state's shape is described (persist/state-shape.ts describes it): records, the
 * containers that hold them (a Map, a keyed array), and groups of containers. A leaf module.
 */

export interface RecordShape {
  kind: "record";
  /** Fields kept as containers of their own: each entry is a record. */
  containers?: Readonly<Record<string, ContainerShape | GroupShape>>;
  /** Fields not saved: indexes rebuilt by `restore`, or what lasts only as long as the process. */
  transient?: readonly string[];
  /** Whether an undeclared Map field is a container of plain records (persist/state-shape.ts says why). */
  open?: boolean;
  /** Rebuilds the transient fields of a record read back from the journal. */
  restore?(record: Record<string, unknown>): void;
}

/** A Map: its keys are the records' keys; its values are records or containers of their own. */
export interface MapShape {
  kind: "map";
  of: RecordShape | ContainerShape;
}

/** An array of records, each known by a key of its own (a message's ts, a channel's id); order is kept. */
export interface ListShape {
  kind: "list";
  key(item: unknown): string;
  of: RecordShape;
}

/** A plain object holding only containers (a workspace's views, its files). */
export interface GroupShape {
  kind: "group";
  containers: Readonly<Record<string, ContainerShape>>;
}

export type ContainerShape = MapShape | ListShape;

export const PLAIN_RECORD: RecordShape = { kind: "record" };
export const mapOf = (of: RecordShape | ContainerShape): MapShape => ({ kind: "map", of });
export const listOf = <T>(key: (item: T) => string): ListShape => ({ kind: "list", key: key as (item: unknown) => string, of: PLAIN_RECORD });

/** The containers of a record: those its shape names, and (open records) its other Map fields. */
export function containersOf(shape: RecordShape, record: object): [string, ContainerShape | GroupShape][] {
  const declared = Object.entries(shape.containers ?? {});
  if (!shape.open) return declared;
  const skip = new Set([...declared.map(([field]) => field), ...(shape.transient ?? [])]);
  const open = Object.entries(record)
    .filter(([field, value]) => value instanceof Map && !skip.has(field))
    .map(([field]): [string, ContainerShape] => [field, mapOf(PLAIN_RECORD)]);
  return [...declared, ...open];
}
