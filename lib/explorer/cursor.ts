/**
 * Cursor display. A next_cursor is opaque to clients (spec 2.3), but a developer learning pagination wants to
 * see three things: the value as the platform returned it, the value as it must travel on the wire (form or
 * URL encoding, so the trailing `=` becomes %3D: spec 4.4), and, when it happens to be base64 of readable
 * text (the platform's cursors look like base64 of `user:U061NFTT2`), what it says.
 */

import { encodeCursorParam } from "@/lib/platform/cursor";

export interface CursorView {
  /** As received in response_metadata.next_cursor. */
  received: string;
  /** As sent in a query string or form body: encoded as the console encodes it (lib/platform/cursor.ts). */
  wire: string;
  /**
   * The readable text the cursor encodes: all of it when it is base64 of printable text, or its readable
   * head when binary follows (a signature, an issue time). Null when nothing readable leads.
   */
  decoded: string | null;
  /** Bytes of binary data after the readable head (0 when the whole cursor is text). */
  opaqueBytes: number;
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const PRINTABLE = /^[\x20-\x7e\u00a0-\uffff]+$/u;

function decodeBase64(text: string): Uint8Array | null {
  const normalized = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = normalized + "=".repeat((4 - (normalized.length % 4)) % 4);
  try {
    const binary = atob(padded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** Shortest readable head worth showing: fewer printable bytes than this before binary is chance. */
const MIN_READABLE_HEAD = 3;

/** The readable text a cursor encodes (see CursorView.decoded), and how many binary bytes follow it. */
function decodeCursorText(cursor: string): { text: string; opaqueBytes: number } | null {
  const trimmed = cursor.trim();
  if (trimmed.length < 4 || !BASE64.test(trimmed)) return null;
  const bytes = decodeBase64(trimmed);
  if (!bytes || bytes.length === 0) return null;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    const text = decoder.decode(bytes);
    if (PRINTABLE.test(text)) return { text, opaqueBytes: 0 };
  } catch {
    // Not text throughout: look for a readable head below.
  }
  let end = 0;
  while (end < bytes.length && bytes[end]! >= 0x20 && bytes[end]! < 0x7f) end++;
  if (end < MIN_READABLE_HEAD) return null;
  return { text: decoder.decode(bytes.subarray(0, end)), opaqueBytes: bytes.length - end };
}

export function describeCursor(cursor: string): CursorView {
  const decoded = decodeCursorText(cursor);
  return { received: cursor, wire: encodeCursorParam(cursor).slice("cursor=".length), decoded: decoded?.text ?? null, opaqueBytes: decoded?.opaqueBytes ?? 0 };
}
