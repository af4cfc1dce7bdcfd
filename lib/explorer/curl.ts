/**
 * "Copy as curl": the upstream request the console made, as a command a developer can paste. The token is
 * written as the shell variable $TOKEN and never as a value: the wire record the server returns is already
 * masked, and this replaces the masked value too, so the command is runnable once TOKEN is exported.
 * Other credentials a form body may carry (client_secret, refresh_token, code) become variables as well.
 * A request known only in part (a record cut to fit a response header) gives no command, and says why.
 */

import type { WireRecord } from "@/lib/platform/wire-header";

/** Code for a request, or why there is none: a command built from part of a request would send something else. */
export type RequestCode = { complete: true; code: string } | { complete: false; reason: string };

/** Why no code can be written for a request, or null when it is whole. */
export function incompleteReason(wire: WireRecord): string | null {
  if (!wire.cut) return null;
  const parts = [
    wire.cut.url !== undefined ? `its URL (${wire.cut.url.toLocaleString("en-US")} characters)` : null,
    wire.cut.body !== undefined ? `its body (${wire.cut.body.toLocaleString("en-US")} characters)` : null,
  ].filter((part): part is string => part !== null);
  return `Only part of this request is known (${parts.join(" and ") || "some of it"} did not fit the console's record of it), so no command is written: send it again from the explorer to get one.`;
}

/** Form fields that hold credentials, and the shell variable each becomes. */
const SECRET_FIELDS: Record<string, string> = {
  token: "TOKEN",
  client_secret: "CLIENT_SECRET",
  refresh_token: "REFRESH_TOKEN",
  code: "CODE",
};

/** Headers curl sets itself or that say nothing to a reader. */
const DROPPED_HEADERS = new Set(["content-length", "host", "connection", "accept-encoding", "user-agent"]);

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The shell variable a credential field becomes, by an own-property check (`constructor` is no field of it). */
function secretVariable(key: string): string | undefined {
  return Object.hasOwn(SECRET_FIELDS, key) ? SECRET_FIELDS[key] : undefined;
}

/** A form body with credential fields removed; they are re-added by the caller as variables. */
function splitForm(body: string): { plain: string; secrets: string[] } {
  const plain: string[] = [];
  const secrets: string[] = [];
  for (const pair of body.split("&")) {
    if (pair === "") continue;
    // URLSearchParams decodes as the platform does and never throws on a malformed escape.
    const key = [...new URLSearchParams(pair).keys()][0] ?? "";
    if (secretVariable(key)) secrets.push(key);
    else plain.push(pair);
  }
  return { plain: plain.join("&"), secrets };
}

/** The URL with credential query parameters replaced by variables (quoted apart so the shell expands them). */
function urlArgument(url: string): string {
  const u = new URL(url);
  const secrets: string[] = [];
  for (const key of [...u.searchParams.keys()]) {
    if (secretVariable(key)) {
      secrets.push(key);
      u.searchParams.delete(key);
    }
  }
  if (secrets.length === 0) return shellQuote(u.toString());
  const sep = u.search ? "&" : "?";
  const tail = secrets.map((k) => `${k}=$${secretVariable(k)}`).join("&");
  return `${shellQuote(u.toString() + sep)}"${tail}"`;
}

/** Whether the request's body is JSON (its Content-Type says so). */
export function isJsonBody(wire: WireRecord): boolean {
  const type = Object.entries(wire.headers).find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "";
  return type.toLowerCase().includes("application/json");
}

export function buildCurl(wire: WireRecord): RequestCode {
  const reason = incompleteReason(wire);
  if (reason) return { complete: false, reason };
  const lines = [`curl -sS -X ${wire.method.toUpperCase()} ${urlArgument(wire.url)}`];
  for (const [name, value] of Object.entries(wire.headers)) {
    const lower = name.toLowerCase();
    if (DROPPED_HEADERS.has(lower)) continue;
    if (lower === "authorization") {
      lines.push(`-H "Authorization: Bearer $TOKEN"`);
      continue;
    }
    if (lower === "cookie") continue;
    lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (wire.body && isJsonBody(wire)) {
    // A JSON body carries no credential (the console drops them): it goes as it was sent.
    lines.push(`--data ${shellQuote(wire.body)}`);
  } else if (wire.body) {
    const { plain, secrets } = splitForm(wire.body);
    if (plain) lines.push(`--data ${shellQuote(plain)}`);
    for (const key of secrets) lines.push(`--data-urlencode "${key}=$${secretVariable(key)}"`);
  }
  return { complete: true, code: lines.join(" \\\n  ") };
}
