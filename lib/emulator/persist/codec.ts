/**
 * The journal's value encoding: JSON, with the types the state holds that JSON has not (Map, Set, Buffer,
 * Uint8Array) as tagged objects `{ "$t": tag, "v": … }`. A plain object that happens to have a `$t` key (an
 * app's blocks may hold anything) is tagged too, so decoding never mistakes it for one of ours. A Promise (an
 * app's request URL verification keeps one for whoever waits on it) is saved as settled: nobody waits across
 * a restart. A leaf module.
 */

type Tagged =
  | { $t: "map"; v: [unknown, unknown][] }
  | { $t: "set"; v: unknown[] }
  | { $t: "buf" | "u8"; v: string }
  | { $t: "promise" }
  | { $t: "obj"; v: Record<string, unknown> };

const isTagged = (value: object): value is Tagged => "$t" in value && typeof (value as { $t: unknown }).$t === "string";

/** A JSON-safe copy of `value`. Fields holding undefined are left out, as JSON.stringify does. */
export function encodeValue(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(encodeValue);
  if (value instanceof Map) return { $t: "map", v: [...value].map(([k, v]) => [encodeValue(k), encodeValue(v)]) };
  if (value instanceof Set) return { $t: "set", v: [...value].map(encodeValue) };
  if (Buffer.isBuffer(value)) return { $t: "buf", v: value.toString("base64") };
  if (value instanceof Uint8Array) return { $t: "u8", v: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64") };
  if (value instanceof Promise) return { $t: "promise" };
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== undefined) out[key] = encodeValue(field);
  return "$t" in out ? { $t: "obj", v: out } : out;
}

/** The value `encodeValue` was given. Throws on a tag it does not know (a damaged or foreign journal). */
export function decodeValue(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(decodeValue);
  if (isTagged(value)) {
    switch (value.$t) {
      case "map":
        return new Map(value.v.map(([k, v]) => [decodeValue(k), decodeValue(v)]));
      case "set":
        return new Set(value.v.map(decodeValue));
      case "buf":
        return Buffer.from(value.v, "base64");
      case "u8":
        return new Uint8Array(Buffer.from(value.v, "base64"));
      case "promise":
        return Promise.resolve();
      case "obj":
        return decodeFields(value.v);
      default:
        throw new Error(`unknown tag ${JSON.stringify((value as { $t: unknown }).$t)}`);
    }
  }
  return decodeFields(value as Record<string, unknown>);
}

function decodeFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields)) out[key] = decodeValue(field);
  return out;
}
