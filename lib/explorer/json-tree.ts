/**
 * What the JSON viewer needs to show a node without rendering, or even stringifying, what lies under it:
 * a multi-megabyte response stays a collapsed tree whose nodes are expanded one at a time, and whose large
 * arrays open in slices.
 */

export type JsonKind = "object" | "array" | "string" | "number" | "boolean" | "null";

/** Children shown per slice of a large array or object. */
export const SLICE = 100;
/** Characters of a string shown before "more". */
export const STRING_PREVIEW = 300;

export function kindOf(value: unknown): JsonKind {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "object":
      return "object";
    case "string":
      return "string";
    case "number":
    case "bigint":
      return "number";
    case "boolean":
      return "boolean";
    default:
      return "null";
  }
}

export function childCount(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (value && typeof value === "object") return Object.keys(value).length;
  return 0;
}

/** Children [start, end) as [key, value] pairs. */
export function childSlice(value: unknown, start: number, end: number): Array<[string, unknown]> {
  if (Array.isArray(value)) {
    const out: Array<[string, unknown]> = [];
    for (let i = start; i < Math.min(end, value.length); i++) out.push([String(i), value[i]]);
    return out;
  }
  if (value && typeof value === "object") return Object.entries(value).slice(start, end);
  return [];
}

/** A one-line summary of a collapsed node: `{ 12 keys }`, `[ 200 items ]`, or a short preview of a scalar. */
export function summarize(value: unknown): string {
  const kind = kindOf(value);
  if (kind === "array") {
    const n = childCount(value);
    return `[ ${n.toLocaleString("en-US")} ${n === 1 ? "item" : "items"} ]`;
  }
  if (kind === "object") {
    const n = childCount(value);
    return `{ ${n.toLocaleString("en-US")} ${n === 1 ? "key" : "keys"} }`;
  }
  if (kind === "string") return JSON.stringify(value);
  return String(value ?? null);
}
