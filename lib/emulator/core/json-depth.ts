/**
 * How deep the JSON the emulator takes in may nest. Whatever it stores it must be able to serialise again
 * (conversations.history, the admin state, apps.manifest.export), and JSON.stringify fails with a stack
 * overflow past about 4,000 levels; a Block Kit view needs about 10. Depth is checked on the text, before
 * JSON.parse, which would otherwise spend close to a second on a megabyte of brackets.
 */

/** The deepest a JSON value (a parameter's blocks, a manifest, an admin body's field) may nest. */
export const MAX_JSON_DEPTH = 32;

export interface TooDeep {
  /** The key of the top-level object under which the nesting went too deep, when there is one. */
  topLevelKey: string | undefined;
}

/**
 * Whether a JSON text nests its arrays and objects deeper than `limit` (`[]` is 1, `{"a":[]}` 2), read
 * without parsing: brackets inside strings do not count. Malformed text is left for JSON.parse to refuse.
 */
export function findTooDeep(text: string, limit: number = MAX_JSON_DEPTH): TooDeep | null {
  let depth = 0;
  /** The last string seen directly inside the top-level value: the key of what opens next at depth 2. */
  let lastTopLevelString: [number, number] | undefined;
  let openedUnder: [number, number] | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
      if (depth === 1) lastTopLevelString = [start, i + 1];
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      if (depth === 2) openedUnder = lastTopLevelString;
      if (depth > limit) return { topLevelKey: decodeKey(text, openedUnder) };
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return null;
}

function decodeKey(text: string, span: [number, number] | undefined): string | undefined {
  if (!span) return undefined;
  try {
    const key: unknown = JSON.parse(text.slice(span[0], span[1]));
    return typeof key === "string" ? key : undefined;
  } catch {
    return undefined;
  }
}

export type BoundedJson = { ok: true; value: unknown } | { ok: false; problem: "malformed" | "too_deep" };

/** JSON.parse for text from outside: refuses nesting deeper than `limit` before parsing. */
export function parseJsonWithin(text: string, limit: number = MAX_JSON_DEPTH): BoundedJson {
  if (findTooDeep(text, limit)) return { ok: false, problem: "too_deep" };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, problem: "malformed" };
  }
}

/** Whether an already parsed value nests deeper than `limit`, walked without recursion. */
export function exceedsDepth(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== "object") continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}
