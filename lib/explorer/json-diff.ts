/**
 * A structural diff of two JSON values: the paths added, removed and changed, each with its values. Objects
 * are compared member by member (keys in the first value's order, then the second's new ones), arrays
 * element by element at the same index (an element inserted at the front shows as every later one changed
 * and one added at the end: what a person comparing two pages of the same list expects to see), and a value
 * whose type differs (an object that became an array, a number that became a string, null) is one change of
 * the whole value. Iterative, so a deeply nested answer cannot overflow the stack; pure, so the compare
 * view runs it in a Web Worker (components/history/diff.worker.ts) and the tests run it directly.
 */

export type JsonDiffChange =
  | { kind: "added"; path: string; after: unknown }
  | { kind: "removed"; path: string; before: unknown }
  | { kind: "changed"; path: string; before: unknown; after: unknown };

export interface JsonDiff {
  /** The first `limit` changes, in document order. */
  changes: JsonDiffChange[];
  /** How many of each there are in all (more than `changes` holds when the limit was reached). */
  added: number;
  removed: number;
  changed: number;
  /** Some changes were counted but not listed. */
  limited: boolean;
}

type Kind = "null" | "array" | "object" | "string" | "number" | "boolean";

function kindOf(value: unknown): Kind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value as Kind;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A member's path: `$.members[3].profile["display name"]`. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

const own = (value: object, key: string) => Object.prototype.hasOwnProperty.call(value, key);

/** Stands for a member or element one side does not have. */
const MISSING: unique symbol = Symbol("missing");

/** The difference from `before` to `after`; at most `limit` changes are listed (all are counted). */
export function diffJson(before: unknown, after: unknown, options: { limit?: number } = {}): JsonDiff {
  const limit = options.limit ?? 1000;
  const result: JsonDiff = { changes: [], added: 0, removed: 0, changed: 0, limited: false };
  const note = (change: JsonDiffChange) => {
    result[change.kind] += 1;
    if (result.changes.length < limit) result.changes.push(change);
    else result.limited = true;
  };
  // Pairs still to compare; popped from the end, so children are pushed in reverse to keep document order.
  const stack: Array<[string, unknown, unknown]> = [["$", before, after]];
  while (stack.length > 0) {
    const [path, a, b] = stack.pop()!;
    if (a === b) continue;
    if (a === MISSING) {
      note({ kind: "added", path, after: b });
      continue;
    }
    if (b === MISSING) {
      note({ kind: "removed", path, before: a });
      continue;
    }
    const kind = kindOf(a);
    if (kind !== kindOf(b)) {
      note({ kind: "changed", path, before: a, after: b });
      continue;
    }
    if (kind === "array") {
      const left = a as unknown[];
      const right = b as unknown[];
      const pending: Array<[string, unknown, unknown]> = [];
      const common = Math.min(left.length, right.length);
      for (let i = 0; i < common; i++) pending.push([childPath(path, i), left[i], right[i]]);
      for (let i = common; i < right.length; i++) pending.push([childPath(path, i), MISSING, right[i]]);
      for (let i = common; i < left.length; i++) pending.push([childPath(path, i), left[i], MISSING]);
      for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i]!);
    } else if (kind === "object") {
      const left = a as Record<string, unknown>;
      const right = b as Record<string, unknown>;
      const pending: Array<[string, unknown, unknown]> = [];
      for (const key of Object.keys(left)) pending.push([childPath(path, key), left[key], own(right, key) ? right[key] : MISSING]);
      for (const key of Object.keys(right)) if (!own(left, key)) pending.push([childPath(path, key), MISSING, right[key]]);
      for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i]!);
    } else {
      // Two primitives of one type that differ (a === b was checked above).
      note({ kind: "changed", path, before: a, after: b });
    }
  }
  return result;
}
