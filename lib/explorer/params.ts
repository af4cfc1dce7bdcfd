/**
 * The explorer's request as data: which method, which token, which parameters. It lives in the page's URL
 * (so a view can be shared and reloaded) and in the session's request history, and so it must never hold a
 * credential: parameters named like one are dropped on the way in.
 */

import { CALL_SELECTOR_KEYS } from "@/lib/platform/call-arguments";
import { isCredentialKey } from "@/lib/platform/credential-params";
import { isValidMethodName } from "@/lib/platform/method-name";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import type { HttpMethod } from "@/lib/platform/call-method";
import type { ArgumentType, BodyEncoding } from "./catalog/types";

export interface ParamPair {
  key: string;
  value: string;
  /** Added as a free parameter row: it stays one even when its name is one of the method's arguments. */
  free?: boolean;
}

export interface ExplorerRequest {
  method: string;
  installation: string;
  tokenKind: TokenKind;
  httpMethod: HttpMethod;
  /** The body's encoding when httpMethod is POST. */
  encoding: BodyEncoding;
  cursor: string;
  limit: string;
  /** Free key/value pairs, in the order the user wrote them. */
  extra: ParamPair[];
}

/** The platform's rule for a method's name (lib/platform/method-name.ts), checked before anything is sent. */
export const isValidMethod = isValidMethodName;

/** The page size the console asks a method that pages for, unless told another. */
export const DEFAULT_PAGE_LIMIT = "50";

export const EMPTY_REQUEST: ExplorerRequest = {
  method: "users.list",
  installation: "",
  tokenKind: "bot",
  httpMethod: "GET",
  encoding: "form",
  cursor: "",
  limit: DEFAULT_PAGE_LIMIT,
  extra: [],
};

/**
 * The parameters the explorer sends for a request: limit when set, the other pairs (credentials and the
 * keys of /api/call itself dropped, as the server drops them), then the cursor. The limit and cursor fields
 * of a paginated method win over pairs of the same name.
 */
export function requestParams(request: Pick<ExplorerRequest, "cursor" | "limit" | "extra">): Record<string, string> {
  const params: Record<string, string> = {};
  if (request.limit.trim() !== "") params.limit = request.limit.trim();
  for (const { key, value } of request.extra) {
    const k = key.trim();
    if (k === "" || isCredentialKey(k) || CALL_SELECTOR_KEYS.has(k)) continue;
    if ((k === "limit" && "limit" in params) || (k === "cursor" && request.cursor !== "")) continue;
    params[k] = value;
  }
  if (request.cursor !== "") params.cursor = request.cursor;
  return params;
}

/**
 * A method that does not page has no cursor or limit fields: values there (from a shared URL, or left by a
 * paginated method) become ordinary parameters, shown where the form shows its arguments.
 */
export function withoutPagingFields(request: ExplorerRequest): ExplorerRequest {
  if (request.cursor === "" && request.limit === "") return request;
  let next: ExplorerRequest = { ...request, cursor: "", limit: "" };
  if (request.limit !== "") next = withParam(next, "limit", request.limit);
  if (request.cursor !== "") next = withParam(next, "cursor", request.cursor);
  return next;
}

const PARAM_PREFIX = "p.";

const VERBS = { GET: "GET", POST: "POST", "POST-json": "POST-json" } as const;

/**
 * The page URL's search parameters for a request: method, installation, token kind, verb and parameters.
 * The verb is always written, so that a link reopens the call as it was sent even where the catalog
 * suggests another (chat.postMessage sent as a GET).
 */
export function toSearchParams(request: ExplorerRequest): URLSearchParams {
  const search = new URLSearchParams();
  search.set("method", request.method);
  if (request.installation) search.set("installation", request.installation);
  search.set("as", request.tokenKind);
  search.set("verb", request.httpMethod === "GET" ? VERBS.GET : request.encoding === "json" ? VERBS["POST-json"] : VERBS.POST);
  for (const [key, value] of Object.entries(requestParams(request))) search.append(PARAM_PREFIX + key, value);
  return search;
}

/**
 * The request a page URL describes. A method name the platform could not take is kept as it is, so that
 * the form shows it as invalid (and nothing sends it) instead of calling another method in its place. What
 * the URL does not state (its verb, a limit) is left for the method's catalog entry to fill: see
 * statedInLink and method-defaults.ts.
 */
export function fromSearchParams(search: URLSearchParams): ExplorerRequest {
  const verb = search.get("verb");
  const request: ExplorerRequest = {
    method: search.get("method") || EMPTY_REQUEST.method,
    installation: search.get("installation") ?? "",
    tokenKind: search.get("as") === "user" ? "user" : "bot",
    httpMethod: verb === VERBS.POST || verb === VERBS["POST-json"] ? "POST" : "GET",
    encoding: verb === VERBS["POST-json"] ? "json" : "form",
    cursor: "",
    limit: "",
    extra: [],
  };
  for (const [name, value] of search) {
    if (!name.startsWith(PARAM_PREFIX)) continue;
    const key = name.slice(PARAM_PREFIX.length);
    if (key === "cursor") request.cursor = value;
    else if (key === "limit") request.limit = value;
    else if (!isCredentialKey(key) && !CALL_SELECTOR_KEYS.has(key)) request.extra.push({ key, value });
  }
  return request;
}

/** Which of the fields a method's catalog entry could fill a link or a history entry states itself. */
export interface StatedFields {
  transport: boolean;
  limit: boolean;
}

/** Whether a page URL states the verb and the limit itself (the catalog fills them when it does not). */
export function statedInLink(search: URLSearchParams): StatedFields {
  const verb = search.get("verb");
  return { transport: verb !== null && Object.hasOwn(VERBS, verb), limit: search.has(`${PARAM_PREFIX}limit`) };
}

/** The query string of GET /api/call/{method} (and …/all) for a request. */
export function callQuery(request: ExplorerRequest, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ installation: request.installation, token: request.tokenKind });
  for (const [key, value] of Object.entries({ ...requestParams(request), ...extra })) query.set(key, value);
  return query.toString();
}

/** The types the catalog gives a method's arguments, by name: how a JSON body writes each value. */
export type ArgumentTypes = ReadonlyMap<string, ArgumentType>;

/**
 * A value as the catalog types its argument: a form or a query carries every value as text, while a JSON
 * body (and the clients of the code snippets) take numbers, booleans and JSON values as such. A value that
 * is not what its type says stays the text it was: the platform decides.
 */
export function typedArgumentValue(type: ArgumentType | undefined, value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  // Only a number written back as the same text: `1e3`, `007` or a timestamp past a double's digits would change.
  if ((type === "integer" || type === "number") && String(Number(text)) === text && (type === "number" || Number.isSafeInteger(Number(text))))
    return Number(text);
  if (type === "boolean" && (text === "true" || text === "1")) return true;
  if (type === "boolean" && (text === "false" || text === "0")) return false;
  if (type === "json") {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

/** What the explorer sends to /api/call/{method}: a GET with the parameters in the query, or a POST with a body. */
export interface CallRequest {
  method: string;
  httpMethod: HttpMethod;
  query: string;
  body?: string;
  contentType?: string;
}

export function buildCall(request: ExplorerRequest, types: ArgumentTypes = new Map()): CallRequest {
  if (request.httpMethod === "GET") return { method: request.method, httpMethod: "GET", query: callQuery(request) };
  const query = new URLSearchParams({ installation: request.installation, token: request.tokenKind }).toString();
  const params = requestParams(request);
  if (request.encoding === "json") {
    const body = Object.fromEntries(Object.entries(params).map(([key, value]) => [key, typedArgumentValue(types.get(key), value)]));
    return { method: request.method, httpMethod: "POST", query, body: JSON.stringify(body), contentType: "application/json; charset=utf-8" };
  }
  return { method: request.method, httpMethod: "POST", query, body: new URLSearchParams(params).toString(), contentType: "application/x-www-form-urlencoded" };
}

/** Why a value is not what its argument's type says, or null. Shown before sending; the call still goes. */
export function argumentProblem(type: ArgumentType, value: string): string | null {
  const text = value.trim();
  if (text === "") return null;
  if (type === "integer" && !/^-?\d+$/.test(text)) return "expects an integer";
  if (type === "number" && !Number.isFinite(Number(text))) return "expects a number";
  if (type === "boolean" && !["true", "false", "1", "0"].includes(text)) return "expects true or false";
  if (type === "json") {
    try {
      JSON.parse(text);
    } catch {
      return "is not valid JSON";
    }
  }
  return null;
}

/** A request with one parameter set (appended when new) or, with an empty value, removed. */
export function withParam(request: ExplorerRequest, key: string, value: string): ExplorerRequest {
  const at = request.extra.findIndex((p) => p.key === key);
  if (value === "") return at < 0 ? request : { ...request, extra: request.extra.filter((_, i) => i !== at) };
  if (at < 0) return { ...request, extra: [...request.extra, { key, value }] };
  return { ...request, extra: request.extra.map((p, i) => (i === at ? { key, value } : p)) };
}
