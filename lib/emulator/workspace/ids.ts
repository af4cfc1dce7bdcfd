/**
 * Deterministic randomness and the platform-shaped ids of the emulated workspace. Everything generated
 * draws from a stream seeded by (seed, stream, position), so the same seed gives the same workspace on every
 * run; ids (`U0…`, `C0…`, `B0…`, `T0…`, `D0…`, `G0…`) are an invertible scramble of a position, so an id leads back to
 * what it names in O(1).
 */

export interface ScrambleKeys {
  seedHash: number;
  mul: number;
  mulInverse: number;
  add: number;
}

export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A small fast PRNG (mulberry32): every member draws from its own stream, seeded by (seed, index). */
export function rng(seedHash: number, stream: number, index: number): () => number {
  let a = (seedHash ^ Math.imul(stream + 1, 0x85ebca6b) ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(list: readonly T[], r: number): T {
  return list[Math.floor(r * list.length) % list.length] as T;
}

export function hex(r: () => number, length: number): string {
  let out = "";
  while (out.length < length)
    out += Math.floor(r() * 0x10000)
      .toString(16)
      .padStart(4, "0");
  return out.slice(0, length);
}

/** The inverse of an odd number modulo 2^32 (Newton's iteration). */
export function inverseMod32(a: number): number {
  let x = a;
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(a, x));
  return x >>> 0;
}

// D: direct messages (ims), G: multi-person direct messages (mpims), as the platform prefixes them.
const ID_STREAMS = { U: 1, C: 2, B: 3, T: 4, D: 5, G: 6 } as const;
export type IdPrefix = keyof typeof ID_STREAMS;

/** An id like the platform's (`U0…`, 9 characters): a bijective scramble of a position. */
export function scrambleId(keys: ScrambleKeys, prefix: IdPrefix, index: number): string {
  const n = (Math.imul(index + ID_STREAMS[prefix] * 0x1000_0000, keys.mul) + keys.add) >>> 0;
  return `${prefix}0${n.toString(36).toUpperCase().padStart(7, "0")}`;
}

const ID_SHAPE = /^[UCBTDG]0[0-9A-Z]{7}$/;

/** The position an id was made from, or -1 when it is not one of ours. */
export function unscrambleId(keys: ScrambleKeys, prefix: IdPrefix, id: string): number {
  if (id[0] !== prefix || !ID_SHAPE.test(id)) return -1;
  const n = parseInt(id.slice(2), 36);
  if (!Number.isSafeInteger(n) || n > 0xffffffff) return -1;
  const index = (Math.imul((n - keys.add) >>> 0, keys.mulInverse) - ID_STREAMS[prefix] * 0x1000_0000) >>> 0;
  return scrambleId(keys, prefix, index) === id ? index : -1;
}
