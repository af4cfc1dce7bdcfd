/**
 * The request the console sent, as code for the platform's official clients: `@slack/web-api` in
 * JavaScript and `slack_sdk` in Python. As with Copy as curl, the token is read from the environment
 * (TOKEN) and never written, and the base URL is given only when it is not the platform's own.
 */
import { isJsonBody, type WireRequest } from "./curl";

const PLATFORM_API_URL = "https://slack.com/api/";

/** The method's name, base URL and arguments, read back from the wire record. */
function readWire(wire: WireRequest): { method: string; apiUrl: string; args: Record<string, unknown>; verb: string; encoding: "query" | "form" | "json" } {
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
      // A body cut short in the wire record: the arguments shown are those that parse (none).
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

function jsLiteral(value: unknown, indent: string): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${jsLiteral(v, inner)}`).join(",\n")},\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${inner}${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${jsLiteral(v, inner)}`).join(",\n")},\n${indent}}`;
}

function pyLiteral(value: unknown, indent: string): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
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

/** `@slack/web-api`: the method by its name on the client when it is a catalog method, else apiCall. */
export function buildJavaScriptSnippet(wire: WireRequest, options: { knownMethod: boolean }): string {
  const { method, apiUrl, args } = readWire(wire);
  const clientOptions = apiUrl === PLATFORM_API_URL ? "" : `, { slackApiUrl: ${JSON.stringify(apiUrl)} }`;
  const argText = Object.keys(args).length > 0 ? jsLiteral(args, "") : "";
  const call =
    options.knownMethod && method.split(".").every((part) => IDENTIFIER.test(part))
      ? `client.${method}(${argText})`
      : `client.apiCall(${JSON.stringify(method)}${argText ? `, ${argText}` : ""})`;
  return [
    `import { WebClient } from "@slack/web-api";`,
    ``,
    `const client = new WebClient(process.env.TOKEN${clientOptions});`,
    `const result = await ${call};`,
    `console.log(result);`,
  ].join("\n");
}

/** `slack_sdk`: api_call with the same verb and encoding the console used. */
export function buildPythonSnippet(wire: WireRequest): string {
  const { method, apiUrl, args, verb, encoding } = readWire(wire);
  const baseUrl = apiUrl === PLATFORM_API_URL ? "" : `, base_url=${JSON.stringify(apiUrl)}`;
  const keyword = encoding === "json" ? "json" : encoding === "form" ? "data" : "params";
  const argText = Object.keys(args).length > 0 ? `, ${keyword}=${pyLiteral(args, "")}` : "";
  return [
    `import os`,
    `from slack_sdk import WebClient`,
    ``,
    `client = WebClient(token=os.environ["TOKEN"]${baseUrl})`,
    `response = client.api_call(${JSON.stringify(method)}, http_verb=${JSON.stringify(verb)}${argText})`,
    `print(response.data)`,
  ].join("\n");
}
