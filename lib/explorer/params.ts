/**
 * The explorer's request as data: which method, which token, which parameters. It lives in the page's URL
 * (so a view can be shared and reloaded) and in the session's request history, and so it must never hold a
 * credential: parameters named like one are dropped on the way in.
 */

import { isCredentialKey } from "@/lib/platform/credential-params";
export type TokenKind = "bot" | "user";

export interface ParamPair {
  key: string;
  value: string;
}

export interface ExplorerRequest {
  method: string;
  installation: string;
  tokenKind: TokenKind;
  cursor: string;
  limit: string;
  /** Free key/value pairs, in the order the user wrote them. */
  extra: ParamPair[];
}

export const METHOD_NAME = /^[A-Za-z0-9.]+$/;
export const SUGGESTED_METHODS = ["users.list", "conversations.list", "auth.test", "users.info", "conversations.info"] as const;

/** Query keys of /api/call itself, which a free parameter must not shadow. */
const RESERVED_KEYS = new Set(["installation", "token", "cursor", "limit"]);

// Credentials never enter the URL, the history or a request from the page.
export { isCredentialKey };

export function isValidMethod(method: string): boolean {
  return METHOD_NAME.test(method);
}

export const EMPTY_REQUEST: ExplorerRequest = {
  method: "users.list",
  installation: "",
  tokenKind: "bot",
  cursor: "",
  limit: "50",
  extra: [],
};

/** The method's parameters as sent: cursor and limit when set, then the free pairs (credentials dropped). */
export function methodParams(request: Pick<ExplorerRequest, "cursor" | "limit" | "extra">): Record<string, string> {
  const params: Record<string, string> = {};
  if (request.limit.trim() !== "") params.limit = request.limit.trim();
  for (const { key, value } of request.extra) {
    const k = key.trim();
    if (k === "" || isCredentialKey(k) || RESERVED_KEYS.has(k)) continue;
    params[k] = value;
  }
  if (request.cursor !== "") params.cursor = request.cursor;
  return params;
}

const PARAM_PREFIX = "p.";

/** The page URL's search parameters for a request: method, installation, token kind and parameters. */
export function toSearchParams(request: ExplorerRequest): URLSearchParams {
  const search = new URLSearchParams();
  search.set("method", request.method);
  if (request.installation) search.set("installation", request.installation);
  search.set("as", request.tokenKind);
  for (const [key, value] of Object.entries(methodParams(request))) search.append(PARAM_PREFIX + key, value);
  return search;
}

export function fromSearchParams(search: URLSearchParams): ExplorerRequest {
  const method = search.get("method") ?? EMPTY_REQUEST.method;
  const request: ExplorerRequest = {
    method: isValidMethod(method) ? method : EMPTY_REQUEST.method,
    installation: search.get("installation") ?? "",
    tokenKind: search.get("as") === "user" ? "user" : "bot",
    cursor: "",
    limit: "",
    extra: [],
  };
  let sawParam = false;
  for (const [name, value] of search) {
    if (!name.startsWith(PARAM_PREFIX)) continue;
    sawParam = true;
    const key = name.slice(PARAM_PREFIX.length);
    if (key === "cursor") request.cursor = value;
    else if (key === "limit") request.limit = value;
    else if (!isCredentialKey(key) && !RESERVED_KEYS.has(key)) request.extra.push({ key, value });
  }
  if (!sawParam) request.limit = EMPTY_REQUEST.limit;
  return request;
}

/** The query string of GET /api/call/{method} (and …/all) for a request. */
export function callQuery(request: ExplorerRequest, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ installation: request.installation, token: request.tokenKind });
  for (const [key, value] of Object.entries({ ...methodParams(request), ...extra })) query.set(key, value);
  return query.toString();
}
