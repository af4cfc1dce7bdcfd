/**
 * Reads a Web API request the way the platform does (spec 4 and 5, docs/spec/web-api.md): parameters from the query string, a
 * form-encoded (or multipart) body, or a JSON body (only for methods that accept JSON); the token from
 * `Authorization: Bearer` or the `token` parameter of the query or form (never of a JSON body); app
 * credentials from the form or HTTP Basic.
 */
import { findAppByClientId, MANIFEST_TOO_DEEP } from "../apps/registry";
import { WebApiError } from "../core/errors";
import { findTooDeep, MAX_JSON_DEPTH } from "../core/json-depth";
import type { App, EmulatorState } from "../types";

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export interface ReadParamsOptions {
  /** Whether the method reads a JSON body (MethodDefinition.json); otherwise the body is ignored. */
  acceptsJson: boolean;
}

/** Every parameter of the request; body values win over query values of the same name. */
export async function readParams(request: Request, options: ReadParamsOptions): Promise<Record<string, string>> {
  const params: Record<string, string> = {};
  for (const [key, value] of new URL(request.url).searchParams) params[key] = value;
  if (request.method === "GET" || request.method === "HEAD") return params;

  const contentType = (request.headers.get("content-type") ?? "").toLowerCase();
  if (contentType.includes("application/json")) {
    // The platform reads JSON bodies only for the methods documented to accept them; the others
    // answer as if the parameters were missing.
    if (!options.acceptsJson) return params;
    // An empty body is no parameters, whatever its type: official clients send one for parameterless
    // calls (the Python client posts auth.test as application/json with nothing in it).
    const text = await request.text();
    if (text.trim() === "") return params;
    // A JSON body is an object of parameters: one level above the deepest value a parameter may hold.
    const tooDeep = findTooDeep(text, MAX_JSON_DEPTH + 1);
    if (tooDeep) throw tooDeepParameter(tooDeep.topLevelKey);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // The platform answers a malformed JSON body with invalid_json.
      throw new WebApiError("invalid_json");
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw new WebApiError("invalid_json");
    for (const [key, value] of Object.entries(body)) {
      // A JSON body's token is not read: with JSON the token goes in the Authorization header.
      if (key !== "token") params[key] = stringify(value);
    }
  } else if (contentType.includes("application/x-www-form-urlencoded") || contentType.includes("multipart/form-data")) {
    const form = await request.formData();
    for (const [key, value] of form) {
      if (typeof value === "string") params[key] = value;
    }
  } else {
    // Without a content type the platform still reads a form-encoded body.
    const text = await request.text();
    for (const [key, value] of new URLSearchParams(text)) params[key] = value;
  }
  return params;
}

/**
 * What a method answers for a JSON body whose parameter nests deeper than MAX_JSON_DEPTH: the error its
 * documentation gives for a malformed value of that parameter (the same one a form-encoded value gets).
 */
function tooDeepParameter(name: string | undefined): WebApiError {
  if (name === "blocks") return new WebApiError("invalid_blocks");
  if (name === "attachments") return new WebApiError("invalid_attachments");
  if (name === "manifest") return new WebApiError("invalid_manifest", { errors: [MANIFEST_TOO_DEEP] });
  return new WebApiError("invalid_arguments", {
    response_metadata: { messages: [`[ERROR] ${name ?? "the body"} nests deeper than ${MAX_JSON_DEPTH} levels`] },
  });
}

/** The token of a call: the Bearer header first, then the token parameter. */
export function readToken(request: Request, params: Record<string, string>): string | undefined {
  const header = request.headers.get("authorization") ?? "";
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  return bearer ?? (params.token || undefined);
}

export interface ClientCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
}

/** OAuth 2.0 Basic credentials are form-encoded; a malformed escape is taken literally. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return value;
  }
}

/** client_id and client_secret from HTTP Basic, else from the parameters. */
export function readClientCredentials(request: Request, params: Record<string, string>): ClientCredentials {
  const header = request.headers.get("authorization") ?? "";
  const basic = /^Basic\s+(\S+)\s*$/i.exec(header)?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon >= 0) {
      return {
        clientId: safeDecode(decoded.slice(0, colon)),
        clientSecret: safeDecode(decoded.slice(colon + 1)),
      };
    }
  }
  return { clientId: params.client_id || undefined, clientSecret: params.client_secret || undefined };
}

/**
 * The app whose credentials were given: unknown or missing client_id → invalid_client_id, a wrong
 * secret → bad_client_secret.
 */
export function requireClientApp(state: EmulatorState, credentials: ClientCredentials): App {
  const app = findAppByClientId(state, credentials.clientId);
  if (!app) throw new WebApiError("invalid_client_id");
  if (credentials.clientSecret !== app.clientSecret) throw new WebApiError("bad_client_secret");
  return app;
}
