/**
 * What the history keeps of an answer: its JSON, at most 64 KB, with every secret masked (an
 * oauth.v2.access answer carries tokens, a webhook URL and an id_token: the history never holds one).
 * Masking works on the parsed value, not on the text: a JSON escape (`"\u0078oxb-…"`) or an unusual member
 * name cannot hide a secret from it. A longer answer is cut structurally, so what is kept is still JSON that
 * reads and compares: arrays and objects keep their first members that fit, and the entry says it was
 * truncated.
 */
import { maskToken, maskWebhookUrl } from "@/lib/platform/mask";

export const HISTORY_ANSWER_BYTES = 64 * 1024;

/** Token-shaped strings (bot, user, refresh, app-level and configuration tokens), wherever they appear. */
const TOKEN_SHAPE = /(?:xoxe\.)?xox[a-z]-[A-Za-z0-9-]{6,}|xoxe-[A-Za-z0-9-]{6,}|xapp-[A-Za-z0-9-]{6,}/g;
/** An incoming webhook's secret URL: `…/services/{team}/{hook}/{secret}`. */
const WEBHOOK_SHAPE = /https?:\/\/[^\s"'<>]*\/services\/[A-Za-z0-9]+\/[A-Za-z0-9]+\/[A-Za-z0-9]+/g;
/** A JSON Web Token (an OpenID id_token): three base64url parts, the first a JSON header. */
const JWT_SHAPE = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
/** Members whose value is a secret whatever its shape (`token_type` only names a kind). */
const SECRET_NAME = /token|secret|password|webhook_?url/i;
const NOT_SECRET_NAME = /^token_type$/i;

const has = (shape: RegExp, value: string) => {
  shape.lastIndex = 0;
  return shape.test(value);
};

export function isTokenShaped(value: string): boolean {
  return has(TOKEN_SHAPE, value) || has(WEBHOOK_SHAPE, value) || has(JWT_SHAPE, value);
}

/**
 * Whether masking the value of the JSON `text` could change it. In JSON without a backslash every string
 * (member names too) is written as it is, so a secret-shaped string or a secret-named member of the value
 * shows in the text; with an escape anywhere (`\u0078oxb-`, `https:\/\/…`) the text cannot tell, and the
 * value is masked member by member. The text test errs one way only: on a false alarm (a shape spanning two
 * strings, `token` in a value) the value is masked as before. Most answers (a users.list page) hold no
 * secret, and walking a 100 KB one string by string was a tenth of a busy console's time (docs/benchmarks.md).
 */
function mayHoldSecrets(text: string): boolean {
  return text.includes("\\") || isTokenShaped(text) || SECRET_NAME.test(text);
}

/** A string with every secret inside it masked: tokens keep their kind and last 4 characters, as everywhere in the console. */
function maskString(value: string): string {
  return value
    .replace(WEBHOOK_SHAPE, (url) => maskWebhookUrl(url))
    .replace(JWT_SHAPE, (jwt) => maskToken(jwt))
    .replace(TOKEN_SHAPE, (token) => maskToken(token));
}

/** The value with every secret masked: secret-shaped strings anywhere, and every string under a secret-named member. */
export function maskValue(value: unknown, secret = false): unknown {
  if (typeof value === "string") return secret ? maskToken(value) : maskString(value);
  if (Array.isArray(value)) return value.map((item) => maskValue(item, secret));
  if (value === null || typeof value !== "object") return value;
  const masked: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    const named = secret || (SECRET_NAME.test(key) && !NOT_SECRET_NAME.test(key));
    // defineProperty: a member named __proto__ stays a plain member.
    Object.defineProperty(masked, maskString(key), { value: maskValue(member, named), enumerable: true, writable: true, configurable: true });
  }
  return masked;
}

const bytesOf = (text: string) => Buffer.byteLength(text, "utf8");

/** The longest JSON of `value` within `room` bytes: whole when it fits, else its first members; null when nothing fits. */
function fitWithin(value: unknown, room: number): { text: string; whole: boolean } | null {
  const whole = JSON.stringify(value) ?? "null";
  if (bytesOf(whole) <= room) return { text: whole, whole: true };
  if (room < 2 || value === null || typeof value !== "object") return null;
  const array = Array.isArray(value);
  const entries: Array<[string, unknown]> = array ? value.map((v, i) => [String(i), v]) : Object.entries(value as Record<string, unknown>);
  let text = array ? "[" : "{";
  let used = 2;
  for (const [key, member] of entries) {
    const head = (text.length > 1 ? "," : "") + (array ? "" : `${JSON.stringify(key)}:`);
    const left = room - used - bytesOf(head);
    if (left <= 0) break;
    const part = fitWithin(member, left);
    if (part === null) break;
    text += head + part.text;
    used += bytesOf(head) + bytesOf(part.text);
    // A member that was itself cut is the last one kept.
    if (!part.whole) break;
  }
  return { text: text + (array ? "]" : "}"), whole: false };
}

export interface KeptAnswer {
  answer: string | null;
  /** The answer's whole size, in bytes. */
  answerBytes: number;
  truncated: boolean;
}

/**
 * An answer as the history keeps it. `text` is the answer as it came; `parse` reads it (the proxy has
 * already parsed it: this costs nothing more). An answer that is not JSON is kept as masked text when it
 * fits, else not at all.
 */
export function keptAnswer(text: string, parse: () => unknown, limit = HISTORY_ANSWER_BYTES): KeptAnswer {
  const answerBytes = bytesOf(text);
  let value: unknown;
  try {
    value = parse();
  } catch {
    value = undefined;
  }
  if (value === undefined) {
    if (answerBytes > limit) return { answer: null, answerBytes, truncated: true };
    // Not JSON: masked as text, by the shapes only (there are no members to go by).
    const masked = maskString(text);
    return { answer: bytesOf(masked) <= limit ? masked : null, answerBytes, truncated: false };
  }
  // Masking only shortens: the cut is made on the masked value so that it fills the room.
  const kept = fitWithin(mayHoldSecrets(text) ? maskValue(value) : value, limit);
  return { answer: kept?.text ?? null, answerBytes, truncated: kept?.whole !== true };
}
