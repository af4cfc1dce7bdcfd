import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Pagination cursors: opaque to clients, tamper-evident and short-lived (spec 2.3, 7 and 8,
 * docs/spec/web-api.md: `invalid_cursor` for gibberish, a wrong encoding or an old one).
 *
 * Like the platform's (`dXNlcjpVMDYxTkZUVDI=` is base64 of `user:U061NFTT2`), a cursor is standard base64
 * of `<kind>:<id of the next item>`, followed by NUL padding, its issue time and an HMAC tag; the padding
 * makes the encoded string always end in a single `=`. The tag covers the method and the team, so a cursor
 * only works for the method and workspace that issued it, and nobody can forge or edit one.
 */

const TAG_BYTES = 12;
const TIME_BYTES = 4;
/** Longer strings are not ours; decoding them would only cost time. */
const MAX_CURSOR_LENGTH = 256;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export interface CursorScope {
  /** The method that issued it, for example users.list. */
  method: string;
  teamId: string;
  /** What the id names, the prefix of the payload: "user", "channel". */
  kind: string;
}

/** The tag covers every byte before it (payload, padding, issue time) and the scope. */
function tag(secret: Buffer, scope: CursorScope, signed: Buffer): Buffer {
  return createHmac("sha256", secret).update(`${scope.method}\0${scope.teamId}\0`).update(signed).digest().subarray(0, TAG_BYTES);
}

/** A cursor pointing at the item `id`, issued at `nowMs`. */
export function encodeCursor(secret: Buffer, scope: CursorScope, id: string, nowMs: number): string {
  const payload = Buffer.from(`${scope.kind}:${id}`, "utf8");
  const issuedAt = Math.floor(nowMs / 1000);
  // 1 to 3 NUL bytes so that the byte length is 2 mod 3: base64 then ends in exactly one "=".
  let nulls = 1;
  while ((payload.length + nulls + TIME_BYTES + TAG_BYTES) % 3 !== 2) nulls++;
  const time = Buffer.alloc(TIME_BYTES);
  time.writeUInt32BE(issuedAt >>> 0);
  const signed = Buffer.concat([payload, Buffer.alloc(nulls), time]);
  return Buffer.concat([signed, tag(secret, scope, signed)]).toString("base64");
}

export type CursorProblem = "malformed" | "forged" | "expired";

export type DecodedCursor = { ok: true; id: string; issuedAt: number } | { ok: false; problem: CursorProblem };

/**
 * The id a cursor points at, if the cursor is well-formed, was issued by this emulator for this method and
 * team, and is younger than `ttlSeconds`. Every failure is the same error to the client (invalid_cursor);
 * the problem is kept for tests and logs.
 */
export function decodeCursor(secret: Buffer, scope: CursorScope, cursor: string, nowMs: number, ttlSeconds: number): DecodedCursor {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || cursor.length % 4 !== 0 || !BASE64.test(cursor)) {
    return { ok: false, problem: "malformed" };
  }
  const bytes = Buffer.from(cursor, "base64");
  // Node's decoder is lenient; a string that does not survive a round trip was not produced by us.
  if (bytes.toString("base64") !== cursor || bytes.length < TAG_BYTES + TIME_BYTES + 2) {
    return { ok: false, problem: "malformed" };
  }
  const signed = bytes.subarray(0, bytes.length - TAG_BYTES);
  if (!timingSafeEqual(bytes.subarray(bytes.length - TAG_BYTES), tag(secret, scope, signed))) {
    return { ok: false, problem: "forged" };
  }
  const issuedAt = signed.readUInt32BE(signed.length - TIME_BYTES);
  let end = signed.length - TIME_BYTES;
  while (end > 0 && signed[end - 1] === 0) end--;
  const text = signed.subarray(0, end).toString("utf8");
  const prefix = `${scope.kind}:`;
  if (!text.startsWith(prefix)) return { ok: false, problem: "forged" };
  const ageSeconds = Math.floor(nowMs / 1000) - issuedAt;
  if (ageSeconds >= ttlSeconds || ageSeconds < -60) return { ok: false, problem: "expired" };
  return { ok: true, id: text.slice(prefix.length), issuedAt };
}
