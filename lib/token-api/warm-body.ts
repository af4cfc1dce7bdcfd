import "server-only";
import type { StoreToken } from "@/lib/store";
import { expiryAt, tokenAnswer, type AnsweredInstallation } from "./token-for";

/**
 * A warm answer's JSON (issue 43): what `JSON.stringify(tokenAnswer(…))` gives for the bot's token, built once
 * per token and installation record rather than once per answer. Only the expiry's two fields change from one
 * answer to the next (the seconds left); the rest, the token and the installation, is the same text until the
 * token is refreshed or the record changes, and both then come as new objects from the installation cache
 * (its records are deeply frozen: a change is a new record), so the text is kept beside the token object it
 * was made from and made again for any other. The answer object and its serialisation were the largest part of
 * the token API's own time left per warm answer (docs/benchmarks.md).
 */

interface Parts {
  record: AnsweredInstallation;
  marginS: number;
  /** The JSON up to the expiry (`{"ok":true,…,"access_token":"…"`) and from the scopes on (`,"scopes":[…],…}`). */
  head: string;
  tail: string;
}

const made = new WeakMap<Pick<StoreToken, "value">, Parts>();

/** The JSON answer for the bot's `token` of `record` at `at` (the platform's time), as tokenAnswer's object serialised. */
export function botAnswerJson(record: AnsweredInstallation, token: Pick<StoreToken, "value" | "expiresAt" | "scopes">, marginS: number, at: number): string {
  const answer = { kind: "bot", userId: null, refreshed: false, marginS, at } as const;
  // Kept only for what cannot change under it: the installation cache's frozen objects.
  if (!Object.isFrozen(token) || !Object.isFrozen(record)) return JSON.stringify(tokenAnswer(record, token, answer));
  let parts = made.get(token);
  if (parts?.record !== record || parts.marginS !== marginS) {
    const json = JSON.stringify(tokenAnswer(record, token, answer));
    // `,"` never occurs inside a JSON string (every quote in one is escaped), so these are the keys themselves.
    parts = { record, marginS, head: json.slice(0, json.indexOf(',"expires_at":')), tail: json.slice(json.indexOf(',"scopes":')) };
    made.set(token, parts);
  }
  const { expires_at: expiresAt, expires_in: expiresIn } = expiryAt(token, at);
  return `${parts.head},"expires_at":${expiresAt},"expires_in":${expiresIn}${parts.tail}`;
}
