import type { WireRequest } from "@/lib/platform/call-method";

/**
 * The most x-upstream-request may take, in bytes. A proxy reads a response's whole header block into one
 * buffer (nginx's proxy_buffer_size is 4 KB by default, or 8 KB) and answers 502 past it, although the call
 * went through and a retry would repeat it; the platform's own headers (scopes, rate limits) need room too.
 */
export const MAX_WIRE_HEADER_BYTES = 2048;

/**
 * The record as the header carries it, and as the explorer reads it (browser-safe: this module loads nothing):
 * what was cut to fit, with each part's length before the cut, in characters.
 */
export type WireRecord = WireRequest & { cut?: { url?: number; body?: number } };

/** Header values are Latin-1, so the record travels as ASCII-only JSON: one byte a character. */
function encode(record: WireRecord): string {
  return JSON.stringify(record).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const isHex = (c: string | undefined) => c !== undefined && /^[0-9A-Fa-f]$/.test(c);

/** The byte a `%XX` at `at` stands for, or -1 when there is none. */
function escapedByte(text: string, at: number): number {
  if (at < 0 || text[at] !== "%" || !isHex(text[at + 1]) || !isHex(text[at + 2])) return -1;
  return parseInt(text.slice(at + 1, at + 3), 16);
}

/**
 * The first `length` characters of `text`, shortened so that the cut never falls inside a `%XX` escape or
 * between the escaped bytes of one character (a URL, a form body), inside a backslash escape such as `\n` or
 * `\u00e9` (a JSON body), or inside a surrogate pair: what remains reads back as a prefix of the original,
 * never as a broken escape.
 */
export function cutWhole(text: string, length: number): string {
  if (length >= text.length) return text;
  let end = Math.max(0, length);
  // Each step may only move the end back; it stops where no escape is split.
  for (let previous = -1; previous !== end;) {
    previous = end;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    // A `%` in the last two characters starts an escape that the cut would split.
    for (let i = Math.max(0, end - 2); i < end; i++) {
      if (text[i] === "%" && isHex(text[i + 1]) && isHex(text[i + 2])) {
        end = i;
        break;
      }
    }
    // Escaped UTF-8 (`%E6%BC%A2`) keeps each character's bytes together: its lead byte says how many follow.
    let continuation = 0;
    while (continuation < 3 && escapedByte(text, end - 3 * (continuation + 1)) >> 6 === 0b10) continuation++;
    const lead = escapedByte(text, end - 3 * (continuation + 1));
    const needs = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : 0;
    if (lead >= 0xc0 && continuation < needs) end -= 3 * (continuation + 1);
    // The nearest backslash within an escape's length, if it starts an escape (an odd run of them), keeps its escape whole.
    for (let i = end - 1; i >= Math.max(0, end - 5); i--) {
      if (text[i] !== "\\") continue;
      let run = 1;
      while (i - run >= 0 && text[i - run] === "\\") run++;
      if (run % 2 === 1 && i + (text[i + 1] === "u" ? 6 : 2) > end) end = i;
      break;
    }
  }
  return text.slice(0, end);
}

/** The largest n in [0, max] for which fits(n), given that fits is true up to some n and false after; -1 when fits(0) is false. */
function largestFitting(max: number, fits: (n: number) => boolean): number {
  if (!fits(0)) return -1;
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * The masked wire record as x-upstream-request carries it, at most MAX_WIRE_HEADER_BYTES once encoded: the
 * body is cut first, then the URL, each at a whole escape, and `cut` says so. The explorer does not build
 * commands from it (it rebuilds the request it sent, see lib/explorer/sent-request.ts), so nothing is lost.
 */
export function wireHeader(wire: WireRequest, maxBytes = MAX_WIRE_HEADER_BYTES): string {
  const whole = encode(wire);
  if (whole.length <= maxBytes) return whole;
  const body = wire.body ?? "";
  const withBody = (n: number): WireRecord => ({ ...wire, body: cutWhole(body, n), cut: { body: body.length } });
  const bodyLength = largestFitting(body.length, (n) => encode(withBody(n)).length <= maxBytes);
  if (bodyLength >= 0) return encode(withBody(bodyLength));
  const withUrl = (n: number): WireRecord => ({
    ...wire,
    url: cutWhole(wire.url, n),
    ...(wire.body !== undefined ? { body: "" } : {}),
    cut: { url: wire.url.length, ...(wire.body !== undefined ? { body: body.length } : {}) },
  });
  const urlLength = largestFitting(wire.url.length, (n) => encode(withUrl(n)).length <= maxBytes);
  if (urlLength >= 0) return encode(withUrl(urlLength));
  // Headers that alone do not fit (the console sends two short ones): the verb and what was cut, nothing else.
  return encode({ method: wire.method, url: "", headers: {}, cut: { url: wire.url.length, ...(wire.body !== undefined ? { body: body.length } : {}) } });
}
