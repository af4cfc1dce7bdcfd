import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/http/app-error";
import { parseJsonText } from "@/lib/http/json-body";
import { assertValidMethodName, isCredentialKey, methodParams, throwIfRateLimited, type HttpMethod, type WireRequest } from "@/lib/platform";
import { callAsInstallation } from "./installation-actions";
import { InstallationIdSchema, TokenKindSchema } from "./route-schemas";

/** Query parameters that pick the installation and token; everything else goes to the platform. */
const Selector = z.object({ installation: InstallationIdSchema, token: TokenKindSchema.default("bot") });
const RESERVED = new Set(["installation", "token"]);

/**
 * A POST's parameters as it sent them: a form body's as strings, or a JSON body's with their JSON types,
 * which then travels on as JSON (blocks stay arrays, booleans booleans). Credentials are dropped from both.
 */
async function readBody(request: Request): Promise<{ form: Record<string, string> } | { json: Record<string, unknown> }> {
  const type = request.headers.get("content-type") ?? "";
  const text = await request.text();
  if (type.includes("application/json")) {
    if (!text.trim()) return { json: {} };
    const data = parseJsonText(text, new AppError("invalid_json", { message: "The request body is not valid JSON." }));
    if (!data || typeof data !== "object" || Array.isArray(data))
      throw new AppError("invalid_json", { message: "The JSON body must be an object of parameters." });
    return { json: Object.fromEntries(Object.entries(data).filter(([key, v]) => v !== undefined && !isCredentialKey(key))) };
  }
  if (!text.trim()) return { form: {} };
  if (type.includes("application/x-www-form-urlencoded") || type === "") return { form: methodParams(new URLSearchParams(text)) };
  throw new AppError("unsupported_media_type");
}

/** A wire record's body beyond this is cut in the header: headers are not the place for large bodies. */
const MAX_WIRE_BODY_IN_HEADER = 4096;

/**
 * Header values are Latin-1: the masked wire record (with its "…") travels as ASCII-only JSON, its body
 * cut to a size every proxy accepts.
 */
function wireHeader(wire: WireRequest): string {
  const body =
    wire.body !== undefined && wire.body.length > MAX_WIRE_BODY_IN_HEADER
      ? `${wire.body.slice(0, MAX_WIRE_BODY_IN_HEADER)}…(${wire.body.length} characters)`
      : wire.body;
  return JSON.stringify({ ...wire, ...(body !== undefined ? { body } : {}) }).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The platform's answer headers a developer needs to see, passed on by name: its scopes, its rate limits, its
 * request id. Any other header stays behind (set-cookie, authorization, anything this list does not name),
 * so no secret a proxy or the platform adds can reach the browser.
 */
const UPSTREAM_HEADERS = new Set(["content-type", "retry-after", "x-oauth-scopes", "x-accepted-oauth-scopes"]);
const UPSTREAM_HEADER_PREFIXES = ["x-ratelimit-", "x-slack-"];
/** Only JSON is forwarded, so the answer is never served as anything else (HTML from the console's origin above all). */
const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

function isForwardedHeader(name: string, value: string): boolean {
  if (name === "content-type") return JSON_TYPE.test(value);
  return UPSTREAM_HEADERS.has(name) || UPSTREAM_HEADER_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * GET and POST /api/call/{method}: the method called with the chosen installation's token, its parameters
 * forwarded (URL-encoded again, so a cursor's `=` travels as %3D), and the platform's JSON answered byte for
 * byte, with the platform's headers on the allowlist above (named in x-upstream-headers), the upstream
 * time, whether a refresh happened, and the masked request that went out.
 */
export async function proxyMethodCall(request: Request, method: string): Promise<Response> {
  assertValidMethodName(method);
  const url = new URL(request.url);
  const selector = Selector.parse({ installation: url.searchParams.get("installation") ?? undefined, token: url.searchParams.get("token") ?? undefined });
  const httpMethod: HttpMethod = request.method === "POST" ? "POST" : "GET";
  // Credentials in the query or the body are dropped, as for Fetch all: the session's token is the only one sent.
  const params = methodParams(url.searchParams, RESERVED);
  const body = httpMethod === "POST" ? await readBody(request) : { form: {} };
  // A JSON body goes on as JSON, with any query parameters among its arguments; a form body joins the query's.
  const args = "json" in body ? { json: { ...params, ...body.json } } : { params: { ...params, ...body.form } };

  const result = await callAsInstallation({
    installationId: selector.installation,
    tokenKind: selector.token,
    method,
    ...args,
    httpMethod,
    signal: request.signal,
    by: `${httpMethod} /api/call/${method}`,
  });
  // An ok answer is known to be the platform's JSON from its first bytes; only other answers are parsed.
  const isJson = result.ok || result.body !== undefined;
  // A 429 is passed on with its Retry-After whatever its body (a proxy in front of the platform may not send JSON).
  if (result.status === 429 && !isJson) throwIfRateLimited(method, result);
  if (!isJson) throw new AppError("upstream_bad_answer", { message: `The platform answered ${method} with HTTP ${result.status} and no JSON.` });

  const headers = new Headers({ "content-type": "application/json; charset=utf-8" });
  const forwarded: string[] = [];
  result.headers.forEach((value, name) => {
    if (!isForwardedHeader(name, value)) return;
    headers.set(name, value);
    forwarded.push(name);
  });
  // Seconds, whichever form the platform used (a date is allowed too): what the explorer waits out.
  if (result.retryAfterS !== undefined) headers.set("retry-after", String(result.retryAfterS));
  headers.set("cache-control", "no-store");
  headers.set("x-upstream-headers", forwarded.join(","));
  headers.set("x-upstream-time-ms", String(result.durationMs));
  headers.set("x-token-refreshed", result.refreshed ? "1" : "0");
  headers.set("x-upstream-request", wireHeader(result.wire));
  return new Response(result.bytes, { status: result.status, headers });
}
