/**
 * The request the console sent, as code for the platform's official clients: `@slack/web-api` in
 * JavaScript and `slack_sdk` in Python. As with Copy as curl, the token is read from the environment
 * (TOKEN) and never written, and the base URL is given only when it is not the platform's own. A catalog
 * method is called by its own function with its arguments' values of the types the catalog gives them
 * (`limit: 50`, not `"50"`), which is what the clients' types and signatures expect.
 */
import type { CatalogMethod } from "./catalog/types";
import type { WireRecord } from "@/lib/platform/wire-header";
import { incompleteReason, isJsonBody, type RequestCode } from "./curl";
import { typedArgumentValue } from "./params";

const PLATFORM_API_URL = "https://slack.com/api/";

/** The method's name, base URL and arguments, read back from the wire record. */
function readWire(wire: WireRecord): { method: string; apiUrl: string; args: Record<string, unknown>; verb: string; encoding: "query" | "form" | "json" } {
  const url = new URL(wire.url);
  const at = url.pathname.lastIndexOf("/api/");
  const method = decodeURIComponent(url.pathname.slice(at + "/api/".length));
  const apiUrl = `${url.origin}${url.pathname.slice(0, at)}/api/`;
  let args: Record<string, unknown> = Object.fromEntries(url.searchParams);
  let encoding: "query" | "form" | "json" = "query";
  if (wire.body !== undefined && isJsonBody(wire)) {
    encoding = "json";
    try {
      const parsed = JSON.parse(wire.body) as unknown;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) args = { ...args, ...(parsed as Record<string, unknown>) };
    } catch {
      // Not JSON after all: the arguments are those of the URL.
    }
  } else if (wire.body !== undefined) {
    encoding = "form";
    args = { ...args, ...Object.fromEntries(new URLSearchParams(wire.body)) };
  }
  // Credentials never appear: the token is the client's, from the environment.
  delete args.token;
  return { method, apiUrl, args, verb: wire.method.toUpperCase(), encoding };
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function typedArgs(args: Record<string, unknown>, method: CatalogMethod | undefined): Record<string, unknown> {
  const types = new Map((method?.args ?? []).map((a) => [a.name, a.type] as const));
  return Object.fromEntries(Object.entries(args).map(([key, value]) => [key, typedArgumentValue(types.get(key), value)]));
}

/** A property name in a JS object literal; `__proto__` is computed, since written plainly it sets the prototype and the key is lost. */
function jsKey(key: string): string {
  if (key === "__proto__") return `["__proto__"]`;
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

function jsLiteral(value: unknown, indent: string): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${jsLiteral(v, inner)}`).join(",\n")},\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${inner}${jsKey(k)}: ${jsLiteral(v, inner)}`).join(",\n")},\n${indent}}`;
}

function pyLiteral(value: unknown, indent: string): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  // JSON's string and number literals are Python's too.
  if (typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${pyLiteral(v, inner)}`).join(",\n")},\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pyLiteral(v, inner)}`).join(",\n")},\n${indent}}`;
}

/**
 * `@slack/web-api`: a catalog method by its own function, `client.users.list({ limit: 50 })`. A method
 * outside the catalog, or arguments the catalog does not list for it (which the client's argument types
 * would refuse), go through apiCall, which takes any.
 */
export function buildJavaScriptSnippet(wire: WireRecord, options: { method?: CatalogMethod }): RequestCode {
  const reason = incompleteReason(wire);
  if (reason) return { complete: false, reason };
  const { method, apiUrl, args: sent } = readWire(wire);
  const catalogMethod = options.method?.name === method ? options.method : undefined;
  const args = typedArgs(sent, catalogMethod);
  const clientOptions = apiUrl === PLATFORM_API_URL ? "" : `, { slackApiUrl: ${JSON.stringify(apiUrl)} }`;
  const argText = Object.keys(args).length > 0 ? jsLiteral(args, "") : "";
  const documented = new Set(catalogMethod?.args.map((a) => a.name));
  const byName =
    catalogMethod !== undefined && method.split(".").every((part) => IDENTIFIER.test(part)) && Object.keys(args).every((key) => documented.has(key));
  const call = byName ? `client.${method}(${argText})` : `client.apiCall(${JSON.stringify(method)}${argText ? `, ${argText}` : ""})`;
  return {
    complete: true,
    code: [
      `import { WebClient } from "@slack/web-api";`,
      ``,
      `const client = new WebClient(process.env.TOKEN${clientOptions});`,
      `const result = await ${call};`,
      `console.log(result);`,
    ].join("\n"),
  };
}

const PY_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PY_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

/** Keyword arguments, one a line; a name Python cannot take as a keyword (`from`, `a-b`) goes in a `**{…}`. */
function pyKeywordArgs(args: Record<string, unknown>): string {
  const entries = Object.entries(args);
  const plain = entries.filter(([k]) => PY_IDENTIFIER.test(k) && !PY_KEYWORDS.has(k));
  const other = entries.filter(([k]) => !(PY_IDENTIFIER.test(k) && !PY_KEYWORDS.has(k)));
  const lines = plain.map(([k, v]) => `    ${k}=${pyLiteral(v, "    ")},`);
  if (other.length > 0) lines.push(`    **${pyLiteral(Object.fromEntries(other), "    ")},`);
  return lines.length > 0 ? `\n${lines.join("\n")}\n` : "";
}

/**
 * `slack_sdk`: a catalog method by its own function, `client.users_list(limit=50)` (the method's name with
 * dots as underscores), its arguments as keywords; a method outside the catalog through api_call, with the
 * verb and the encoding the console used.
 */
export function buildPythonSnippet(wire: WireRecord, options: { method?: CatalogMethod } = {}): RequestCode {
  const reason = incompleteReason(wire);
  if (reason) return { complete: false, reason };
  const { method, apiUrl, args: sent, verb, encoding } = readWire(wire);
  const catalogMethod = options.method?.name === method ? options.method : undefined;
  const baseUrl = apiUrl === PLATFORM_API_URL ? "" : `, base_url=${JSON.stringify(apiUrl)}`;
  let call: string;
  if (catalogMethod) {
    call = `client.${method.replaceAll(".", "_")}(${pyKeywordArgs(typedArgs(sent, catalogMethod))})`;
  } else {
    const keyword = encoding === "json" ? "json" : encoding === "form" ? "data" : "params";
    const argText = Object.keys(sent).length > 0 ? `, ${keyword}=${pyLiteral(sent, "")}` : "";
    call = `client.api_call(${JSON.stringify(method)}, http_verb=${JSON.stringify(verb)}${argText})`;
  }
  return {
    complete: true,
    code: [
      `import os`,
      `from slack_sdk import WebClient`,
      ``,
      `client = WebClient(token=os.environ["TOKEN"]${baseUrl})`,
      `response = ${call}`,
      `print(response.data)`,
    ].join("\n"),
  };
}
