/**
 * What GET and POST /api/call/{method} send upstream for a request: the query's parameters without the
 * console's own keys, joined by a form body's, or a JSON body with the query's among its arguments; the
 * credentials dropped from both. Free of server imports: the explorer rebuilds the request it sent with the
 * same rule (the response header that records it is cut to fit proxies' buffers), so the two cannot differ.
 */
import { isCredentialKey, methodParams } from "./credential-params";

/** Query keys of /api/call itself, which pick the installation and the token, and name the saved request it runs (the history's). */
export const CALL_SELECTOR_KEYS: ReadonlySet<string> = new Set(["installation", "token", "savedRequestId"]);

/** A POST's body as read: a form's parameters as strings, or a JSON object's with their JSON types. */
export type CallBody = { form: Record<string, string> } | { json: Record<string, unknown> };

/** Why a body cannot be read, as the console's error codes name it. */
export type CallBodyProblem = { problem: "invalid_json" | "not_an_object" | "unsupported_media_type" };

export function parseCallBody(contentType: string, text: string): CallBody | CallBodyProblem {
  if (contentType.includes("application/json")) {
    if (!text.trim()) return { json: {} };
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return { problem: "invalid_json" };
    }
    if (!data || typeof data !== "object" || Array.isArray(data)) return { problem: "not_an_object" };
    // Object.fromEntries keeps every key as the JSON had it, `__proto__` included, as an own property.
    return { json: Object.fromEntries(Object.entries(data).filter(([key, v]) => v !== undefined && !isCredentialKey(key))) };
  }
  if (!text.trim()) return { form: {} };
  if (contentType.includes("application/x-www-form-urlencoded") || contentType === "") return { form: methodParams(new URLSearchParams(text)) };
  return { problem: "unsupported_media_type" };
}

/** The method's arguments: a JSON body goes on as JSON with the query's parameters among them; a form body joins the query's. */
export function callArguments(query: URLSearchParams, body: CallBody): { params: Record<string, string> } | { json: Record<string, unknown> } {
  const params = methodParams(query, CALL_SELECTOR_KEYS);
  return "json" in body ? { json: { ...params, ...body.json } } : { params: { ...params, ...body.form } };
}
