/**
 * What the history keeps of an answer: its JSON text, at most 64 KB, with every token-shaped string masked
 * (an oauth.v2.access answer carries tokens: the history never holds one). A longer answer is cut
 * structurally, so what is kept is still JSON that reads and compares: arrays and objects keep their first
 * members that fit, and the entry says it was truncated.
 */
import { maskToken } from "@/lib/platform/mask";

export const HISTORY_ANSWER_BYTES = 64 * 1024;

/** Token-shaped strings (bot, user, refresh, app-level and configuration tokens), wherever they appear. */
const TOKEN_SHAPE = /(?:xoxe\.)?xox[a-z]-[A-Za-z0-9-]{6,}|xoxe-[A-Za-z0-9-]{6,}|xapp-[A-Za-z0-9-]{6,}/g;
/** Members whose value is a secret whatever its shape. */
const SECRET_MEMBER = /("(?:access_token|refresh_token|client_secret|signing_secret|verification_token|token)"\s*:\s*)"((?:[^"\\]|\\.)*)"/g;

export function isTokenShaped(value: string): boolean {
  TOKEN_SHAPE.lastIndex = 0;
  return TOKEN_SHAPE.test(value);
}

/** The text with secrets masked: tokens keep their kind and last 4 characters, as everywhere in the console. */
export function maskSecrets(text: string): string {
  return text.replace(SECRET_MEMBER, (_all, head: string, value: string) => `${head}"${maskToken(value)}"`).replace(TOKEN_SHAPE, (token) => maskToken(token));
}

const bytesOf = (text: string) => Buffer.byteLength(text, "utf8");

/** The longest JSON of `value` within `room` bytes: whole when it fits, else its first members; null when nothing fits. */
function fit(value: unknown, room: number): { text: string; whole: boolean } | null {
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
    const part = fit(member, left);
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
 * An answer as the history keeps it. `text` is the answer as it came; `parse` reads it (only called when it
 * is too long to keep whole).
 */
export function keptAnswer(text: string, parse: () => unknown, limit = HISTORY_ANSWER_BYTES): KeptAnswer {
  const answerBytes = bytesOf(text);
  if (answerBytes <= limit) return { answer: maskSecrets(text), answerBytes, truncated: false };
  let value: unknown;
  try {
    value = parse();
  } catch {
    return { answer: null, answerBytes, truncated: true };
  }
  // Masking only shortens: the cut is made on the masked value so that it fills the room.
  const masked = JSON.parse(maskSecrets(JSON.stringify(value))) as unknown;
  return { answer: fit(masked, limit)?.text ?? null, answerBytes, truncated: true };
}
