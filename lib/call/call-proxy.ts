import "server-only";
import { AppError } from "@/lib/http/app-error";
import { MAX_JSON_BODY_DEPTH, nestsDeeperThan } from "@/lib/http/json-body";
import { assertValidMethodName, callArguments, parseCallBody, throwIfRateLimited, type CallBody, type HttpMethod } from "@/lib/platform";
import type { Viewer } from "@/lib/viewer";
import { callAsInstallation } from "@/lib/installations/actions/call-as-installation";
import { requireCallableInstallation } from "./call-rights";
import { carriedCredentials, parseCallQuery } from "./call-query";
import { wireHeader } from "@/lib/platform/wire-header";
import { isCredentialKey } from "@/lib/platform/credential-params";
import { CALL_SELECTOR_KEYS } from "@/lib/platform/call-arguments";
import { recordCallAfterAnswer } from "./call-history";
import { HISTORY_OFF_HEADER } from "@/lib/explorer/history";
import { readSavedRequestId, SAVED_REQUEST_KEY } from "./saved-request";

/**
 * A POST's parameters as it sent them: a form body's as strings, or a JSON body's with their JSON types,
 * which then travels on as JSON (blocks stay arrays, booleans booleans). Credentials are dropped from both.
 */
async function readBody(request: Request): Promise<CallBody & { dropped: string[] }> {
  const type = request.headers.get("content-type") ?? "";
  const text = await request.text();
  // The names of credentials the body carried, which the history says it left out.
  const dropped = credentialNames(type, text);
  // Checked before parsing: a body nested deeper than any the platform takes would overflow JSON.stringify when forwarded.
  if (type.includes("application/json") && nestsDeeperThan(text, MAX_JSON_BODY_DEPTH)) throw new AppError("json_too_deep");
  const body = parseCallBody(type, text);
  if (!("problem" in body)) return { ...body, dropped };
  if (body.problem === "invalid_json") throw new AppError("invalid_json", { message: "The request body is not valid JSON." });
  if (body.problem === "not_an_object") throw new AppError("invalid_json", { message: "The JSON body must be an object of parameters." });
  throw new AppError("unsupported_media_type");
}

/** Credential keys a body names (a JSON body is read again only when it mentions one). */
function credentialNames(type: string, text: string): string[] {
  if (type.includes("application/json")) {
    if (!/"(token|client_secret|refresh_token|code|client_id)"/i.test(text)) return [];
    try {
      return Object.keys(JSON.parse(text) as object).filter(isCredentialKey);
    } catch {
      return [];
    }
  }
  return [...new URLSearchParams(text).keys()].filter(isCredentialKey);
}

/** The saved request a body names, taken out of the arguments: the console's own member, never the platform's. */
function takeSavedRequestId(body: CallBody): unknown {
  const members: Record<string, unknown> = "json" in body ? body.json : body.form;
  if (!Object.hasOwn(members, SAVED_REQUEST_KEY)) return undefined;
  const value = members[SAVED_REQUEST_KEY];
  delete members[SAVED_REQUEST_KEY];
  return value;
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
export async function proxyMethodCall(request: Request, method: string, viewer: Viewer): Promise<Response> {
  assertValidMethodName(method);
  const url = new URL(request.url);
  const { installationId, tokenKind } = parseCallQuery(url.searchParams);
  const httpMethod: HttpMethod = request.method === "POST" ? "POST" : "GET";
  // Credentials in the query or the body are dropped, as for Fetch all: the session's token is the only one sent.
  const { dropped: bodyDropped, ...body } = httpMethod === "POST" ? await readBody(request) : { form: {}, dropped: [] };
  const savedRequestId = readSavedRequestId(takeSavedRequestId(body), url.searchParams.get(SAVED_REQUEST_KEY) ?? undefined);
  const args = callArguments(url.searchParams, body);
  // The installation read once, as this viewer may see it (404 for a foreign or unknown one), for the rights and the call.
  const installation = await requireCallableInstallation(viewer, installationId, tokenKind, method);

  const result = await callAsInstallation({
    viewer,
    installation,
    tokenKind,
    method,
    ...args,
    httpMethod,
    signal: request.signal,
    by: `${httpMethod} /api/call/${method}`,
  });
  const dropped = [...new Set([...carriedCredentials(url.searchParams, CALL_SELECTOR_KEYS), ...bodyDropped])];
  if (request.headers.get(HISTORY_OFF_HEADER) !== "off")
    recordCallAfterAnswer(
      {
        viewer,
        method,
        installationId,
        tokenKind,
        httpMethod,
        encoding: "json" in args ? "json" : "form",
        args: "json" in args ? args.json : args.params,
        dropped,
        ...(savedRequestId ? { savedRequestId } : {}),
      },
      result,
      Date.now(),
    );
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
