/**
 * What the explorer asks of the method catalog. Pure functions over the array they are given (the lazily
 * loaded catalog, or a part of it such as the methods an emulator implements), so importing this module
 * never pulls the catalog itself into a bundle.
 */

import type { TokenKind } from "@/lib/installations/universal/token-kind";
import type { CatalogMethod, CatalogPagination } from "./types";

export function findMethod(catalog: readonly CatalogMethod[], name: string): CatalogMethod | undefined {
  return catalog.find((method) => method.name === name);
}

export function isPaginated(method: CatalogMethod): method is CatalogMethod & { pagination: CatalogPagination } {
  return method.pagination !== undefined;
}

export interface MethodFamily {
  family: string;
  methods: readonly CatalogMethod[];
}

/** Families in the order their first method comes, so grouped search results keep the best match first. */
export function groupByFamily(methods: readonly CatalogMethod[]): MethodFamily[] {
  const families = new Map<string, CatalogMethod[]>();
  for (const method of methods) {
    const members = families.get(method.family);
    if (members) members.push(method);
    else families.set(method.family, [method]);
  }
  return [...families].map(([family, members]) => ({ family, methods: members }));
}

export interface ScopeCheck {
  /** The scopes the method names for this kind of token: any one of them is enough. Empty when it needs none. */
  needed: readonly string[];
  /** Empty when the token has one of the needed scopes; otherwise all of them, since any one would do. */
  missing: readonly string[];
  ok: boolean;
}

/**
 * Whether a token with these scopes may call the method. The platform's scope lists are alternatives: a
 * conversation method takes channels:history for a channel, im:history for a DM, and so on, so which one a
 * call needs depends on its arguments; the platform's own `missing_scope` answer names it.
 */
export function scopeCheck(method: CatalogMethod, tokenKind: TokenKind, grantedScopes: readonly string[]): ScopeCheck {
  const needed = method.scopes[tokenKind];
  const granted = new Set(grantedScopes);
  const ok = needed.length === 0 || needed.some((scope) => granted.has(scope));
  return { needed, missing: ok ? [] : needed, ok };
}

interface SearchKey {
  name: string;
  /** Dot-separated segments and the camelCase words inside them: `chat.postMessage` → chat, postmessage, post, message. */
  words: readonly string[];
  text: string;
}

const searchKeys = new WeakMap<CatalogMethod, SearchKey>();

function searchKey(method: CatalogMethod): SearchKey {
  let key = searchKeys.get(method);
  if (!key) {
    const segments = method.name.split(".");
    const camelWords = segments.flatMap((segment) => segment.match(/[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])/g) ?? []);
    const name = method.name.toLowerCase();
    key = {
      name,
      words: [...new Set([...segments, ...camelWords].map((word) => word.toLowerCase()))],
      text: `${name} ${method.summary.toLowerCase()}`,
    };
    searchKeys.set(method, key);
  }
  return key;
}

/** Where the query's characters fall in order within the text, as the length of the stretch they span; -1 if they do not. */
function subsequenceSpan(query: string, text: string): number {
  let first = -1;
  let at = -1;
  for (const char of query) {
    at = text.indexOf(char, at + 1);
    if (at === -1) return -1;
    if (first === -1) first = at;
  }
  return at - first + 1;
}

// Match kinds, best first.
const EXACT_NAME = 0;
const NAME_PREFIX = 1;
const WHOLE_WORDS = 2;
const WORD_PREFIXES = 3;
const IN_NAME_OR_SUMMARY = 4;
const SUBSEQUENCE = 5;

// Letters strewn across a long name (t…o…k…e…n in admin.conversations.ekm.listOriginalConnectedChannelInfo)
// are chance, not a match: a subsequence may span at most this many times the word's length.
const MAX_SPREAD = 3;

interface Ranked {
  method: CatalogMethod;
  kind: number;
  /** For a subsequence, the stretch of the name it spans (smaller is better); 0 for the other kinds. */
  spread: number;
}

function rank(method: CatalogMethod, words: readonly string[]): Ranked | null {
  const key = searchKey(method);
  // "users list" reads as users.list.
  const dotted = words.join(".");
  if (key.name === dotted) return { method, kind: EXACT_NAME, spread: 0 };
  if (key.name.startsWith(dotted)) return { method, kind: NAME_PREFIX, spread: 0 };
  if (words.every((word) => key.words.includes(word))) return { method, kind: WHOLE_WORDS, spread: 0 };
  if (words.every((word) => key.words.some((nameWord) => nameWord.startsWith(word)))) return { method, kind: WORD_PREFIXES, spread: 0 };
  if (words.every((word) => key.text.includes(word))) return { method, kind: IN_NAME_OR_SUMMARY, spread: 0 };
  const spans = words.map((word) => subsequenceSpan(word, key.name));
  if (spans.every((span, i) => span !== -1 && span <= MAX_SPREAD * (words[i] ?? "").length)) {
    return { method, kind: SUBSEQUENCE, spread: spans.reduce((a, b) => a + b, 0) };
  }
  return null;
}

/**
 * The methods that match a query, best first: the exact name, then names that start with it, then names
 * holding each word as a segment or camelCase word (`history`, `post message`), then as the start of one,
 * then names or summaries containing every word, then names holding each word's letters in order
 * (`cnvhist`). Within a kind, shorter names come first. Case does not matter; every word of the query
 * must match. An empty query matches every method, in catalog order.
 */
export function searchMethods(catalog: readonly CatalogMethod[], query: string, limit = Infinity): CatalogMethod[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== "");
  if (words.length === 0) return catalog.slice(0, limit);
  return catalog
    .map((method) => rank(method, words))
    .filter((ranked): ranked is Ranked => ranked !== null)
    .sort((a, b) => a.kind - b.kind || a.spread - b.spread || a.method.name.length - b.method.name.length || (a.method.name < b.method.name ? -1 : 1))
    .slice(0, limit)
    .map((ranked) => ranked.method);
}

/** Edit distance counting an insertion, a deletion, a substitution or a swap of two neighbours as one. */
function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  const table = new Array<number>((a.length + 1) * width).fill(0);
  const at = (i: number, j: number) => table[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i++) table[i * width] = i;
  for (let j = 0; j <= b.length; j++) table[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      table[i * width + j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * How far a typed name is from a method's name: its edit distance to the whole name, or to the name
 * without its leading segments plus one for each one left out (`postMessage` is 1 from chat.postMessage).
 * Anything beyond `within` is not worked out (the lengths alone rule most names out).
 */
function nameDistance(typed: string, name: string, within: number): number {
  const segments = name.toLowerCase().split(".");
  let best = Infinity;
  for (let dropped = 0; dropped < segments.length; dropped++) {
    const rest = segments.slice(dropped).join(".");
    if (Math.abs(rest.length - typed.length) + dropped > within) continue;
    best = Math.min(best, editDistance(typed, rest) + dropped);
  }
  return best;
}

/**
 * The names nearest to a name the platform did not know (`unknown_method`), among the methods given (the
 * catalog's, or those an emulator implements): `users.lst` → users.list, `conversation.history` →
 * conversations.history. Only names close enough to be a slip
 * (a distance of at most a third of the typed name, and at least 2) are offered, nearest first.
 */
export function nearestMethodNames(catalog: ReadonlyArray<Pick<CatalogMethod, "name">>, name: string, n = 3): string[] {
  const typed = name.trim().toLowerCase();
  if (typed === "") return [];
  const within = Math.max(2, Math.floor(typed.length / 3));
  return catalog
    .filter((method) => method.name !== name)
    .map((method) => ({ name: method.name, distance: nameDistance(typed, method.name, within) }))
    .filter((candidate) => candidate.distance <= within)
    .sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1))
    .slice(0, n)
    .map((candidate) => candidate.name);
}
