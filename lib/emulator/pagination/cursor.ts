import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Pagination cursors: opaque to clients, tamper-evident and short-lived (spec 2.3, 7 and 8,
 * docs/spec/web-api.md: `invalid_cursor` for gibberish, a wrong encoding or an old one).
 *
 * Like the platform's (`dXNlcjpVMDYxTkZUVDI=` is base64 of `user:U061NFTT2`), a cursor is standard base64
 * of ASCII text: `<kind>:<id of the next item>:<issue time>:<tag>`, the issue time in decimal seconds
 * (zero-padded to 10 to 12 digits so that the text's length is 2 mod 3: the encoded string then always ends
 * in a single `=`), the tag an HMAC in base64url. The tag covers the method, the team and the text before
 * it, so a cursor only works for the method and workspace that issued it, and nobody can forge or edit one.
 *
 * No `+` or `/`, as in the platform's: base64 puts those only where a text byte's low six bits are 62 or 63
 * (`>`, `?`, `~`, DEL, or any byte past ASCII), and the text holds none of them: the kind and the id are
 * percent-encoded (`~` too), which leaves the platform-shaped ids (`U061NFTT2`, `C0…`, a ts) as they are.
 * A client that forgets to percent-encode a `+` (which a query string reads as a space) therefore works
 * here as it does there.
 */

const TAG_BYTES = 12;
/** base64url of TAG_BYTES, unpadded. */
const TAG_CHARS = 16;
/** Longer strings are not ours; decoding them would only cost time. */
const MAX_CURSOR_LENGTH = 256;
/** What we issue: base64 without `+` or `/`, one `=`. */
const CURSOR = /^[A-Za-z0-9]+=$/;
/** The text a cursor encodes: kind, id, issue time, tag. */
const TEXT = /^([^:]+):([^:]+):([0-9]{10,12}):[A-Za-z0-9_-]{16}$/;

/** Percent-encoding, `~` included: only characters whose low six bits are below 62 remain. */
function percentEncode(text: string): string {
  return encodeURIComponent(text).replace(/~/g, "%7E");
}

export interface CursorScope {
  /** The method that issued it, for example users.list. */
  method: string;
  teamId: string;
  /** What the id names, the prefix of the payload: "user", "channel". */
  kind: string;
}

/** The tag covers the text before it (payload and issue time) and the scope. */
function tag(secret: Buffer, scope: CursorScope, signed: string): Buffer {
  return createHmac("sha256", secret).update(`${scope.method}\0${scope.teamId}\0`).update(signed, "ascii").digest().subarray(0, TAG_BYTES);
}

/** A cursor pointing at the item `id`, issued at `nowMs`. */
export function encodeCursor(secret: Buffer, scope: CursorScope, id: string, nowMs: number): string {
  const issuedAt = Math.floor(nowMs / 1000);
  const payload = `${percentEncode(scope.kind)}:${percentEncode(id)}:`;
  // 10 to 12 digits so that the text's length is 2 mod 3: base64 then ends in exactly one "=".
  let digits = 10;
  while ((payload.length + digits + 1 + TAG_CHARS) % 3 !== 2) digits++;
  const signed = payload + String(issuedAt >>> 0).padStart(digits, "0");
  const text = `${signed}:${tag(secret, scope, signed).toString("base64url")}`;
  return Buffer.from(text, "ascii").toString("base64");
}

export type CursorProblem = "malformed" | "forged" | "expired";

export type DecodedCursor = { ok: true; id: string; issuedAt: number } | { ok: false; problem: CursorProblem };

/**
 * The id a cursor points at, if the cursor is well-formed, was issued by this emulator for this method and
 * team, and is younger than `ttlSeconds`. Every failure is the same error to the client (invalid_cursor);
 * the problem is kept for tests and logs.
 */
export function decodeCursor(secret: Buffer, scope: CursorScope, cursor: string, nowMs: number, ttlSeconds: number): DecodedCursor {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || cursor.length % 4 !== 0 || !CURSOR.test(cursor)) {
    return { ok: false, problem: "malformed" };
  }
  const bytes = Buffer.from(cursor, "base64");
  // Node's decoder is lenient; a string that does not survive a round trip was not produced by us.
  if (bytes.toString("base64") !== cursor || bytes.some((b) => b < 0x20 || b > 0x7e)) return { ok: false, problem: "malformed" };
  const text = bytes.toString("ascii");
  if (text.length <= TAG_CHARS + 1) return { ok: false, problem: "malformed" };
  // The last 17 characters are ":" and the tag; whatever they are, a wrong one is a forgery.
  const signed = text.slice(0, -(TAG_CHARS + 1));
  const given = Buffer.from(text.slice(-(TAG_CHARS + 1)), "ascii");
  const expected = Buffer.from(`:${tag(secret, scope, signed).toString("base64url")}`, "ascii");
  if (!timingSafeEqual(given, expected)) return { ok: false, problem: "forged" };
  const parts = TEXT.exec(text);
  if (!parts || parts[1] !== percentEncode(scope.kind)) return { ok: false, problem: "forged" };
  const issuedAt = Number(parts[3]);
  const ageSeconds = Math.floor(nowMs / 1000) - issuedAt;
  if (ageSeconds >= ttlSeconds || ageSeconds < -60) return { ok: false, problem: "expired" };
  let id: string;
  try {
    id = decodeURIComponent(parts[2] as string);
  } catch {
    return { ok: false, problem: "forged" };
  }
  return { ok: true, id, issuedAt };
}
