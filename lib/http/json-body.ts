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

/**
 * Where a parsed JSON value (or a query's parameters) holds a NUL character, in a key or a string: its path
 * ("name", "teamIds.1"; "" for the value itself), or undefined when none does. Walked without recursion.
 */
export function nulPath(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, ""]];
  while (stack.length > 0) {
    const [current, path] = stack.pop() as [unknown, string];
    if (typeof current === "string") {
      if (current.includes("\0")) return path;
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    for (const [key, child] of Object.entries(current)) {
      const childPath = path ? `${path}.${key}` : key;
      if (key.includes("\0")) return childPath;
      stack.push([child, childPath]);
    }
  }
  return undefined;
}

/**
 * PostgreSQL's text cannot hold a NUL character (an insert fails, a 500 or a lost row), and no text a person
 * means to keep has one: every body and query the console's routes parse with a schema is refused here with
 * 400 nul_character naming the field, before any route can store it.
 */
function refuseNul(value: unknown, where: "body" | "query" | "path"): void {
  const path = nulPath(value);
  if (path === undefined) return;
  const what = { body: "field", query: "query parameter", path: "part of the address" }[where];
  throw new AppError("nul_character", {
    message: `The ${what} "${path || "(the whole body)"}" holds a NUL character (\\u0000), which the console does not keep: remove it and send again.`,
  });
}

/** A route's path parameters (`/api/api-keys/%00`): refused as a body's fields are, by the route wrapper for every route. */
export function refuseNulInPath(params: Record<string, string | string[] | undefined>): void {
  refuseNul(params, "path");
}

/** Parses a JSON request body with a zod schema: 400 when it is not JSON, nests too deep or holds a NUL character, 422 (via ZodError) when it does not fit. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const value = parseJsonText(await request.text());
  refuseNul(value, "body");
  return schema.parse(value);
}

/** Parses a request's query parameters (each name once, the first value) with a zod schema: 400 nul_character as for a body, 422 when they do not fit. */
export function parseQuery<S extends z.ZodType>(request: Request, schema: S): z.infer<S> {
  const params: Record<string, string> = {};
  for (const [name, value] of new URL(request.url).searchParams) params[name] ??= value;
  refuseNul(params, "query");
  return schema.parse(params);
}
