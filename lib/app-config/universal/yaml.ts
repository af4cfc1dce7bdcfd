import type { JsonValue } from "./types";

/**
 * A YAML document for a JSON value, block style with two-space indents, as the platform's app settings
 * page shows a manifest. A string is written plain only when every YAML reader takes it back as that same
 * string (letters, digits and a few punctuation marks, never a word YAML 1.1 reads as a boolean or null);
 * anything else is double-quoted, which YAML defines as a superset of JSON's strings, so JSON.stringify
 * writes it, with the characters YAML does not allow unescaped escaped as well. Small enough to own: a
 * manifest needs no anchors, tags, multi-document streams or parsing.
 */
export function toYaml(value: JsonValue): string {
  return `${isCollection(value) ? block(value, 0) : scalar(value)}\n`;
}

const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./+:-]*$/;
/** Words that YAML 1.1 readers (still common) take as booleans or null. */
const RESERVED = /^(y|yes|n|no|true|false|on|off|null|~)$/i;
/**
 * Characters JSON.stringify leaves as they are that YAML does not allow unescaped in a double-quoted scalar,
 * or that YAML 1.1 readers take as line breaks (NEL, LS, PS) and would fold.
 */
const NOT_PRINTABLE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

function quoted(text: string): string {
  return JSON.stringify(text).replace(NOT_PRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function text(value: string): string {
  // A colon at the end, or before a space, would start a mapping.
  if (PLAIN.test(value) && !RESERVED.test(value) && !value.endsWith(":")) return value;
  return quoted(value);
}

function scalar(value: JsonValue): string {
  if (value === null) return "null";
  if (typeof value === "string") return text(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return "[]";
  return "{}";
}

function isCollection(value: JsonValue): value is JsonValue[] | { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && (Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0);
}

function block(value: JsonValue[] | { [key: string]: JsonValue }, indent: number): string {
  const pad = " ".repeat(indent);
  if (Array.isArray(value)) {
    return value
      .map((item) => {
        if (!isCollection(item)) return `${pad}- ${scalar(item)}`;
        // A collection in a sequence starts on the dash's line, its lines indented past the dash.
        return `${pad}- ${block(item, indent + 2).slice(indent + 2)}`;
      })
      .join("\n");
  }
  return Object.entries(value)
    .map(([key, item]) => (isCollection(item) ? `${pad}${text(key)}:\n${block(item, indent + 2)}` : `${pad}${text(key)}: ${scalar(item)}`))
    .join("\n");
}
