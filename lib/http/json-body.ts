import type { z } from "zod";
import { AppError } from "./app-error";

/**
 * How deep a JSON body sent to the console may nest: deeper than any payload the platform takes (a Block
 * Kit view needs about 10 levels), and far from where writing it out again fails (JSON.stringify overflows
 * its stack past about 4,000, which a forwarded body or a logged one would hit as a 500).
 */
export const MAX_JSON_BODY_DEPTH = 64;

/** Whether a JSON text nests its arrays and objects deeper than `limit`, read without parsing (brackets in strings do not count). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/** Whether a value nests its arrays and objects deeper than `limit`, walked without recursion. */
export function valueNestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== "object") continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Parses a JSON body's text: 400 json_too_deep past MAX_JSON_BODY_DEPTH (checked first), 400 invalid_json when it is not JSON. */
export function parseJsonText(text: string, notJson: AppError = new AppError("invalid_json")): unknown {
  if (nestsDeeperThan(text, MAX_JSON_BODY_DEPTH)) throw new AppError("json_too_deep");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw notJson;
  }
}

/** Parses a JSON request body with a zod schema: 400 when it is not JSON or nests too deep, 422 (via ZodError) when it does not fit. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  return schema.parse(parseJsonText(await request.text()));
}
